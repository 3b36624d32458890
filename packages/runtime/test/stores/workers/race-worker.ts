/**
 * Child process for the multi-process SQLite test: opens the shared file, says `ready`, waits for
 * `go` (with a common start time), then races its duplicates against the other processes and reports what it saw.
 *   mode `claim`:  store.claim for every key, `duplicates` at once per key
 *   mode `engine`: createIdempotency().run for every key; the action appends one line per run to
 *                  the effects file (the side effect the parent counts) and takes `actionMs`
 */
import { appendFileSync } from 'node:fs';
import { createIdempotency } from '../../../src/core/engine.js';
import { IdempotencyError } from '../../../src/core/errors.js';
import { fingerprintFields } from '../../../src/core/fingerprint.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

export interface RaceConfig {
  readonly filename: string;
  readonly mode: 'claim' | 'engine';
  readonly keys: readonly string[];
  readonly duplicates: number;
  readonly leaseMs: number;
  readonly effectsFile?: string;
  readonly actionMs?: number;
  /** Spread each duplicate's start over this many ms, so later ones meet COMPLETED records too. */
  readonly jitterMs?: number;
}

/** One outcome per attempt: `claimed`/`existing` (claim mode) or `ran`/`replayed`/an error code. */
export interface Attempt {
  readonly key: string;
  readonly outcome: string;
  readonly lockVersion?: number;
  readonly reclaimed?: boolean;
  /** For a replay: the pid of the process whose run produced the stored value. */
  readonly by?: number;
  /** Wall clock (one host, so comparable across processes) when the attempt started and ended. */
  readonly startedAt: number;
  readonly endedAt: number;
}

export type RaceMessage = { type: 'ready' } | { type: 'result'; pid: number; attempts: Attempt[] };

const config = JSON.parse(process.argv[2]!) as RaceConfig;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const fingerprint = fingerprintFields(['race', 1]);
const scope = 'tenant-1';

// A generous lock wait: 4 processes hammering one file with fsync'd commits on a loaded 2-core
// machine can queue a writer for seconds; this test is about who wins, not about how fast.
const store = createSqliteStore({ filename: config.filename, busyTimeoutMs: 30_000 });
await store.ready;
const idempotency = createIdempotency({ store, leaseMs: config.leaseMs, ttlMs: 60_000 });

async function attempt(key: string): Promise<Attempt> {
  await sleep(Math.random() * (config.jitterMs ?? 0));
  const startedAt = Date.now();
  const outcome = await attemptOutcome(key);
  return { ...outcome, startedAt, endedAt: Date.now() };
}

async function attemptOutcome(key: string): Promise<Omit<Attempt, 'startedAt' | 'endedAt'>> {
  if (config.mode === 'claim') {
    const result = await store.claim({ key, scope, fingerprint, owner: null, leaseMs: config.leaseMs, ttlMs: 60_000, replaceExpired: true });
    return result.outcome === 'claimed'
      ? { key, outcome: 'claimed', lockVersion: result.lockVersion, reclaimed: result.reclaimed }
      : { key, outcome: 'existing', lockVersion: result.record.lockVersion };
  }
  try {
    const { value, replayed } = await idempotency.run<{ by: number }>({ key, scope, fingerprint }, async () => {
      appendFileSync(config.effectsFile!, `${key} ${process.pid}\n`);
      await sleep(config.actionMs ?? 0);
      return { by: process.pid };
    });
    return { key, outcome: replayed ? 'replayed' : 'ran', by: value.by };
  } catch (error) {
    return { key, outcome: error instanceof IdempotencyError ? error.code : `unexpected: ${String(error)}` };
  }
}

process.send!({ type: 'ready' } satisfies RaceMessage);
// `go` carries a wall-clock start a little ahead, so every process starts racing at the same moment.
process.once('message', async ({ startAt }: { startAt: number }) => {
  await sleep(startAt - Date.now());
  const attempts = await Promise.all(config.keys.flatMap((key) => Array.from({ length: config.duplicates }, () => attempt(key))));
  await store.close();
  process.send!({ type: 'result', pid: process.pid, attempts } satisfies RaceMessage, () => process.exit(0));
});
