/**
 * Claim latency while a purge runs, shared by the SQL store benches. 4 claim loops (3 on new
 * keys, 1 on keys whose expired rows the purge is deleting) run throughout; the purge is gated
 * on and off in alternating windows, so "with purge" and "without" are sampled side by side,
 * under the same machine load — on a shared, loaded machine a baseline measured a minute
 * earlier is no baseline. A claim counts as "without" only if it started and ended inside one
 * off window; a window turns off only after the batch in flight has finished.
 */
import { percentile, type Row } from './harness.js';

export interface ClaimingStore {
  claim(input: { key: string; scope: string; fingerprint: string; owner: null; leaseMs: number; ttlMs: number; replaceExpired: boolean }): Promise<unknown>;
}

/** Awaited by the purge before each batch: holds it during off windows. */
export type PurgeGate = () => Promise<void>;

export interface PurgeLatency {
  /** Runs the claim loops while `work` runs; adds rows for new and expired keys, with and without the purge. */
  during(label: string, work: (gate: PurgeGate) => Promise<unknown>): Promise<void>;
  rows(): Row[];
}

/** On and off windows (ms). IDEMPOTENCY_BENCH_PURGE_WINDOW_MS overrides. */
const WINDOW_MS = Number(process.env.IDEMPOTENCY_BENCH_PURGE_WINDOW_MS ?? 2_000);

/**
 * @example
 * const latency = purgeLatency(store, { fingerprint, expiredKey: () => `fill-${1 + Math.floor(Math.random() * rows)}` });
 * await latency.during('back-to-back batches', async (gate) => { while ((await gate(), await store.purgeExpired(5_000)) > 0); });
 * report.table('claim latency during cleanup', latency.rows());
 */
export function purgeLatency(
  store: ClaimingStore,
  {
    fingerprint,
    expiredKey,
    scope = 'bench',
    windowMs = WINDOW_MS,
    baselineFirst = false,
  }: {
    fingerprint: string;
    expiredKey: () => string;
    scope?: string;
    /** For a purge shorter than a few default windows, which would otherwise end before any paused window. */
    windowMs?: number;
    /**
     * Claims run for two windows with nothing purging before the work starts, as its baseline:
     * for work that may end inside its first window (ten fast partition drops), which leaves no
     * paused window between its steps. Before, not after: what a drop leaves behind (files
     * being freed, WAL) would weigh on a window after it.
     */
    baselineFirst?: boolean;
  },
): PurgeLatency {
  const rows: Row[] = [];
  const input = (key: string) => ({ key, scope, fingerprint, owner: null, leaseMs: 30_000, ttlMs: 3_600_000, replaceExpired: true });
  let n = 0;
  let lastBase: Record<'fresh' | 'expired', number> | null = null;
  return {
    async during(label, work) {
      // 'on' → (timer) 'draining' → (the purge's next gate call) 'off' → (timer) 'on'.
      let state: 'on' | 'draining' | 'off' = 'on';
      let offEpoch = 0;
      let timer: ReturnType<typeof setTimeout>;
      const armOn = () => (timer = setTimeout(() => (state = 'draining'), windowMs));
      armOn();
      const gate: PurgeGate = async () => {
        if (state !== 'draining') return;
        state = 'off';
        offEpoch++;
        await new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            state = 'on';
            armOn();
            resolve();
          }, windowMs);
        });
      };
      const samples = { fresh: { on: [] as number[], off: [] as number[] }, expired: { on: [] as number[], off: [] as number[] } };
      let running = true;
      const loop = async (kind: 'fresh' | 'expired', key: () => string) => {
        while (running) {
          const offAtStart = state === 'off' ? offEpoch : -1;
          const started = performance.now();
          await store.claim(input(key()));
          const ms = performance.now() - started;
          samples[kind][offAtStart >= 0 && state === 'off' && offEpoch === offAtStart ? 'off' : 'on'].push(ms);
        }
      };
      const loops = [
        loop('fresh', () => `purge-${process.pid}-${n++}`),
        loop('fresh', () => `purge-${process.pid}-${n++}`),
        loop('fresh', () => `purge-${process.pid}-${n++}`),
        // Claims of expired keys: they need the very rows the purge is deleting.
        loop('expired', expiredKey),
      ];
      if (baselineFirst) {
        clearTimeout(timer!);
        state = 'off';
        offEpoch++;
        await new Promise((resolve) => setTimeout(resolve, 2 * windowMs));
        state = 'on';
        armOn();
      }
      const started = performance.now();
      await work(gate);
      const workS = (performance.now() - started) / 1000;
      clearTimeout(timer!);
      running = false;
      await Promise.all(loops);
      for (const [kind, what] of [['fresh', 'new keys'], ['expired', 'expired keys']] as const) {
        const { on, off } = samples[kind];
        const base = off.length >= 100 ? percentile(off, 99) : lastBase?.[kind];
        if (off.length >= 100) rows.push({ label: `${label}: claims of ${what}, purge paused`, p50Ms: percentile(off, 50), p99Ms: percentile(off, 99), ratio: 1, note: `${off.length} claims` });
        const p99 = percentile(on, 99);
        rows.push({
          label: `${label}: claims of ${what}, purge running`,
          p50Ms: percentile(on, 50),
          p99Ms: p99,
          ...(base === undefined ? {} : { ratio: p99 / base }),
          note: `${on.length} claims${kind === 'fresh' ? `; ${workS.toFixed(1)} s in all` : ''}${off.length >= 100 ? '' : '; ratio vs the previous case\'s paused windows'}`,
        });
      }
      const fresh = samples.fresh.off;
      const expired = samples.expired.off;
      if (fresh.length >= 100 && expired.length >= 100) lastBase = { fresh: percentile(fresh, 99), expired: percentile(expired, 99) };
    },
    rows: () => rows,
  };
}

/** Which cases a suite runs: IDEMPOTENCY_BENCH_CASES=cleanup,throughput (default all). */
export function wantCase(name: string): boolean {
  const wanted = process.env.IDEMPOTENCY_BENCH_CASES;
  return !wanted || wanted.split(',').map((s) => s.trim()).includes(name);
}
