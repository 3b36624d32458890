/**
 * The PostgreSQL store's SQL run in-process on PGlite (PostgreSQL compiled to WebAssembly): the
 * migrations, the conformance suite (plain layout), the partitioned claim function and
 * transactional mode, with no server at all.
 * PGlite is ONE connection: concurrent calls queue, so the suite's race tests pass here without
 * proving anything about concurrency — the server tests (postgres.test.ts) do that.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from '../../src/testing/index.js';
import {
  createPartitionMaintenance,
  createPostgresStore,
  createTransactionalIdempotency,
  pgliteQueryable,
  type PostgresLayout,
  type PostgresStore,
} from '../../src/stores/postgres/index.js';
import { clockTokenOf } from './workers/postgres-support.js';

const pglite = new PGlite();
// Starting PGlite compiles PostgreSQL's WebAssembly: seconds, charged here rather than to a test.
await pglite.waitReady;
const db = pgliteQueryable(pglite);
let tables = 0;

afterAll(async () => {
  await pglite.close();
});

async function freshStore(layout: PostgresLayout): Promise<PostgresStore> {
  const table = `${layout}_${++tables}`;
  const store = createPostgresStore({ db, schema: 'pglite', table, layout });
  await store.migrate();
  if (layout === 'partitioned') await createPartitionMaintenance({ db, schema: 'pglite', table, retentionMs: 86_400_000 }).run();
  return store;
}

runStoreConformance({
  name: 'postgres (plain) on PGlite — one connection, races are serialised',
  createStore: () => freshStore('plain'),
  destroyStore: async (store) => {
    await db.query(`DROP TABLE ${(store as PostgresStore).table} CASCADE`);
  },
  // Queued on one connection, 64 "concurrent" claims take longer than a short lease, and the
  // late ones then legitimately reclaim; four queued claims stay well inside this one.
  concurrency: 4,
  leaseMs: 500,
});

describe('postgres SQL on PGlite', () => {
  it('runs the partitioned layout: the claim function, reclaim, replace, and partition creation', async () => {
    const store = await freshStore('partitioned');
    const input = (leaseMs: number, fingerprint = '8'.repeat(64)) => ({ key: 'p-1', scope: 'user-1', fingerprint, owner: null, leaseMs, ttlMs: 60_000, replaceExpired: true });
    const first = await store.claim(input(400));
    if (first.outcome !== 'claimed') throw new Error('setup: the claim of a fresh key must win');
    // A fresh record's token is its claim's store clock in ms (contract.ts, "Fencing tokens").
    expect(first.lockVersion).toBe(clockTokenOf(first.lockedUntil, 400));
    expect((await store.claim(input(400))).outcome).toBe('existing');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await store.claim(input(30_000))).toMatchObject({ outcome: 'claimed', lockVersion: first.lockVersion + 1, reclaimed: true });
    const response = { statusCode: 200, headers: null, body: new Uint8Array([1, 2, 3]), encoding: 'bytes' };
    expect(await store.complete({ key: 'p-1', scope: 'user-1', lockVersion: first.lockVersion + 1, ttlMs: 1, response })).toBe('applied');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const replaced = await store.claim(input(30_000, '7'.repeat(64)));
    if (replaced.outcome !== 'claimed') throw new Error('the expired record must be replaced');
    // GREATEST(old + 1, clock in ms): the clock, about 460 ms after the first claim.
    expect(replaced).toMatchObject({ replacedExpired: true, lockVersion: Math.max(first.lockVersion + 2, clockTokenOf(replaced.lockedUntil, 30_000)) });
    expect(replaced.lockVersion).toBeGreaterThan(first.lockVersion + 2);
    expect((await db.query(`SELECT count(*)::int AS n FROM ${store.table}`, [])).rows[0]?.n).toBe(1);
    const partitions = await db.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = $1::regclass`, [store.table]);
    expect(partitions.rows[0]?.n).toBe(4); // today and three ahead
  });

  it('runs transactional mode inside a PGlite transaction: commit keeps both, rollback neither', async () => {
    const store = await freshStore('plain');
    await db.query(`CREATE TABLE IF NOT EXISTS pglite.orders (id text PRIMARY KEY)`);
    const orders = createTransactionalIdempotency({ store });
    const request = { key: 'order-1', scope: 'user-1', fingerprint: '9'.repeat(64) };
    await expect(
      pglite.transaction((tx) =>
        orders.run(pgliteQueryable(tx as never), request, async ({ db: txDb }) => {
          await txDb.query(`INSERT INTO pglite.orders (id) VALUES ('order-1')`, []);
          throw new Error('rolled back');
        }),
      ),
    ).rejects.toThrow('rolled back');
    expect(await store.get({ key: 'order-1', scope: 'user-1' })).toBeNull();
    const value = await pglite.transaction((tx) =>
      orders.run(pgliteQueryable(tx as never), request, async ({ db: txDb }) => {
        await txDb.query(`INSERT INTO pglite.orders (id) VALUES ('order-1')`, []);
        return 'kept';
      }),
    );
    expect(value).toEqual({ value: 'kept', replayed: false });
    expect((await db.query(`SELECT count(*)::int AS n FROM pglite.orders`, [])).rows[0]?.n).toBe(1);
    expect(await store.get({ key: 'order-1', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED' });
  });
});
