/**
 * Cleanup on the real server: purgeExpired deletes in bounded batches and never waits for (or
 * blocks) a claim, and the scheduled job runs on its interval with a stated retention —
 * including partition maintenance for the partitioned layout.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { percentile } from '../../bench/harness.js';
import { createPartitionMaintenance, createPostgresStore, startPostgresCleanup, type PostgresStore } from '../../src/stores/postgres/index.js';
import { eventually, newPool, postgresAvailable, schemaFor } from './workers/postgres-support.js';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
const pool = newPool(10, 10_000);
const fp = 'b'.repeat(64);
let tables = 0;

afterAll(async () => {
  if (available) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

async function storeWithExpired(expired: number, layout: 'plain' | 'partitioned' = 'plain'): Promise<PostgresStore> {
  const table = `c_${++tables}`;
  const store = createPostgresStore({ db: pool, schema, table, layout });
  await store.migrate();
  if (layout === 'partitioned') await createPartitionMaintenance({ db: pool, schema, table, retentionMs: 86_400_000 }).run();
  await pool.query(
    `INSERT INTO ${store.table} (idempotency_key, user_id, fingerprint, status, lock_version, created_at, completed_at, expires_at, response_encoding, response_bytes)
     SELECT 'old-' || g, 'user-' || (g % 100), $1, CASE WHEN g % 2 = 0 THEN 'COMPLETED' ELSE 'FAILED' END, 1,
            clock_timestamp(), clock_timestamp(), clock_timestamp() - interval '1 minute', 'bytes', '\\x00'
     FROM generate_series(1, $2::int) g`,
    [fp, expired],
  );
  return store;
}

const input = (key: string) => ({ key, scope: 'user-1', fingerprint: fp, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true });

describe.skipIf(!available)('postgres cleanup', () => {
  it('skips a row a claim holds instead of waiting for it, and takes it on a later batch', async () => {
    const store = await storeWithExpired(3_000);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM ${store.table} WHERE idempotency_key = 'old-7' FOR UPDATE`); // e.g. a claim replacing it
      const started = Date.now();
      expect(await store.purgeExpired(10_000)).toBe(2_999);
      expect(Date.now() - started).toBeLessThan(5_000); // did not sit on the held row's lock
      expect(await store.purgeExpired(10_000)).toBe(0);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await store.purgeExpired(10_000)).toBe(1);
    expect(await store.size()).toBe(0);
  });

  it('claims keep flowing while 20 000 expired rows are purged in batches, even claims of the rows being purged', async () => {
    const store = await storeWithExpired(20_000);
    const latencies: number[] = [];
    let purging = true;
    let expiredKeyClaimsDuringPurge = 0;
    const claimLoop = async (id: (i: number) => { key: string; scope: string }, expiredKeys: boolean) => {
      for (let i = 0; purging; i++) {
        const started = performance.now();
        // An expired key's row may sit in the batch being deleted: the claim waits for that
        // batch only (milliseconds), finds the row gone, and inserts.
        expect((await store.claim({ ...input('unused'), ...id(i) })).outcome).toBe('claimed');
        latencies.push(performance.now() - started);
        if (expiredKeys && purging) expiredKeyClaimsDuringPurge++;
      }
    };
    const fresh = (loop: string) => (i: number) => ({ key: `live-${loop}-${i}`, scope: 'user-1' });
    const expired = (i: number) => {
      const n = 1 + ((i * 7919) % 20_000); // the rows were written as ('old-' || n, 'user-' || n % 100)
      return { key: `old-${n}`, scope: `user-${n % 100}` };
    };
    const loops = [claimLoop(fresh('a'), false), claimLoop(fresh('b'), false), claimLoop(fresh('c'), false), claimLoop(expired, true)];
    const started = performance.now();
    let purged = 0;
    for (let batch = await store.purgeExpired(1_000); batch > 0; batch = await store.purgeExpired(1_000)) purged += batch;
    const purgeMs = performance.now() - started;
    purging = false;
    await Promise.all(loops);
    // Every expired row went: purged, or replaced by a claim (and then no longer expired).
    expect(purged).toBeGreaterThan(10_000);
    const left = await pool.query(`SELECT count(*)::int AS n FROM ${store.table} WHERE expires_at <= clock_timestamp()`);
    expect(left.rows[0]?.n).toBe(0);
    // One DELETE of everything would hold every expired row's lock until it commits; batches
    // release them every 1 000 rows, so claims of those very keys finish while the purge runs.
    expect(expiredKeyClaimsDuringPurge).toBeGreaterThanOrEqual(3);
    console.log(`[postgres cleanup] purge of 20 000 rows: ${purgeMs.toFixed(0)} ms; ${latencies.length} claims meanwhile, p50 ${percentile(latencies, 50).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`);
  });

  it('the scheduled job purges on its interval, bounded per run, and states its retention', async () => {
    const store = await storeWithExpired(2_500);
    const job = startPostgresCleanup({ store, ttlMs: 24 * 3_600_000, intervalMs: 100, batchSize: 1_000, maxBatchesPerRun: 2 });
    try {
      expect(job.retention).toContain('replayed for 1 d');
      expect(job.retention).toContain('batches of 1000');
      expect(await job.runOnce()).toBe(2_000); // bounded: two batches, the rest waits for the next run
      await eventually(async () => (await store.size()) === 0, 5_000, 'the interval to purge the rest');
    } finally {
      await job.stop();
    }
  });

  it('the scheduled job maintains partitions for the partitioned layout', async () => {
    const store = await storeWithExpired(10, 'partitioned');
    const seen: string[][] = [];
    const partitions = createPartitionMaintenance({ db: pool, schema, table: store.table.split('.')[1]!.replaceAll('"', ''), retentionMs: 86_400_000, premake: 5 });
    const job = startPostgresCleanup({ store, ttlMs: 3_600_000, intervalMs: 60_000, partitions, onPartitions: (r) => seen.push(r.created) });
    try {
      expect(await job.runOnce()).toBe(10);
      expect(job.retention).toContain('partitions');
      expect(seen).toHaveLength(1);
      expect(seen[0]).toHaveLength(2); // 3 premade by the setup, 5 wanted
      await job.runOnce();
      expect(seen).toEqual([seen[0], []]); // each run maintains once, then finds nothing to add
    } finally {
      await job.stop();
    }
  });
});
