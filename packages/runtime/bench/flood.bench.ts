/**
 * The price of the flood protections (issue 11 #1): single-flight, bounded in-flight claims and
 * the holders' priority lane. Two measurements, each protected vs unprotected in the same run:
 *  1. throughput of run() on NEW keys (every call claims, runs, completes) — the common path,
 *     which the protections must not slow: memory store and PostgreSQL (pool 10, holder pool 2);
 *  2. a flood of one key on PostgreSQL (pool 10, lease 2 s, action 30 ms): wall time, executions,
 *     outcomes — what the protections buy.
 * Flood size = IDEMPOTENCY_BENCH_FLOOD (default 10 000).
 */
import pg from 'pg';
import { createIdempotency, fingerprintFields, IdempotencyError, type IdempotencyOptions } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createPostgresStore } from '@idempotency-builder/runtime/postgres';
import { probeTcp } from '../test/support/services.js';
import { compare, type BenchSuite } from './harness.js';

const FLOOD = Number(process.env.IDEMPOTENCY_BENCH_FLOOD ?? 10_000);
const CONNECTION = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const fingerprint = fingerprintFields(['flood-bench', 1]);
/** The engine as it was before issue 11: no single-flight, claims unbounded. */
const UNPROTECTED = { singleFlight: false, maxInFlightClaims: 1_000_000_000, maxQueuedClaims: 1_000_000_000 } as const;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function floodOnce(options: IdempotencyOptions): Promise<{ ms: number; executions: number; outcomes: Record<string, number> }> {
  const idem = createIdempotency(options);
  let executions = 0;
  const outcomes: Record<string, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: FLOOD }, async () => {
      let outcome: string;
      try {
        const { replayed } = await idem.run({ key: 'one-key', scope: 'flood', fingerprint }, async () => {
          executions++;
          await sleep(30);
          return 1;
        });
        outcome = replayed ? 'replayed' : 'ran';
      } catch (error) {
        outcome = error instanceof IdempotencyError ? error.code : 'unexpected';
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }),
  );
  return { ms: Math.round(performance.now() - started), executions, outcomes };
}

const suite: BenchSuite = {
  name: 'flood protections (single-flight, bounded claims, priority lane)',
  async run(report) {
    const action = async () => ({ id: 'pay_1' });
    let n = 0;
    const memory = createMemoryStore();
    const guarded = createIdempotency({ store: memory, ttlMs: 3_600_000 });
    const bare = createIdempotency({ store: memory, ttlMs: 3_600_000, ...UNPROTECTED });
    report.table(
      'run() on new keys, memory store (one call at a time)',
      await compare([
        { label: 'unprotected (baseline)', fn: () => bare.run({ key: `b${n++}`, scope: 'u', fingerprint }, action) },
        { label: 'protected (defaults)', fn: () => guarded.run({ key: `g${n++}`, scope: 'u', fingerprint }, action) },
      ]),
    );

    const pgUp = await probeTcp(5432).then(() => true, () => false);
    if (!pgUp) {
      report.line('PostgreSQL not reachable on 5432: the PostgreSQL rows are skipped.');
      return;
    }
    const schema = `bench_flood_${process.pid}`;
    const admin = new pg.Pool({ ...CONNECTION, max: 1 });
    const pool = new pg.Pool({ ...CONNECTION, max: 10 });
    const holderPool = new pg.Pool({ ...CONNECTION, max: 2 });
    try {
      await admin.query(`CREATE SCHEMA "${schema}"`);
      const tables = { plain: 0 };
      const storeFor = async (lane: boolean) => {
        const store = createPostgresStore({ db: pool, ...(lane ? { holderDb: holderPool } : {}), schema, table: `t${++tables.plain}` });
        await store.migrate();
        return store;
      };
      const pgGuarded = createIdempotency({ store: await storeFor(true), ttlMs: 3_600_000 });
      const pgNoLane = createIdempotency({ store: await storeFor(false), ttlMs: 3_600_000 });
      const pgBare = createIdempotency({ store: await storeFor(false), ttlMs: 3_600_000, ...UNPROTECTED });
      // 16 calls in flight per sample: the pool is shared, so the lane and the limiter matter.
      const batch = (idem: typeof pgBare, prefix: string) => () =>
        Promise.all(Array.from({ length: 16 }, () => idem.run({ key: `${prefix}${n++}`, scope: 'u', fingerprint }, action)));
      report.table(
        'run() on new keys, PostgreSQL pool 10, 16 concurrent calls per sample (ops/s are batches)',
        await compare([
          { label: 'unprotected (baseline)', fn: batch(pgBare, 'b') },
          { label: 'single-flight + bounded claims, no holder pool', fn: batch(pgNoLane, 'l') },
          { label: 'all three (holder pool of 2)', fn: batch(pgGuarded, 'g') },
        ]),
      );
      for (const [label, options] of [
        ['unprotected', { store: await storeFor(false), leaseMs: 2_000, ...UNPROTECTED }],
        ['protected', { store: await storeFor(true), leaseMs: 2_000 }],
      ] as const) {
        const result = await floodOnce(options);
        report.line(`flood of ${FLOOD} duplicates, PostgreSQL pool 10, ${label}: ${result.ms} ms, executions ${result.executions}, outcomes ${JSON.stringify(result.outcomes)}`);
      }
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([admin.end(), pool.end(), holderPool.end()]);
    }
  },
};

export default suite;
