/**
 * The PostgreSQL store's SQL run in-process on PGlite (PostgreSQL compiled to WebAssembly): the
 * migrations, both layouts' claims and the whole conformance suite, with no server at all.
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

const pglite = new PGlite();
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

for (const layout of ['plain', 'partitioned'] as const) {
  runStoreConformance({
    name: `postgres (${layout}) on PGlite — one connection, races are serialised`,
    createStore: () => freshStore(layout),
    destroyStore: async (store) => {
      await db.query(`DROP TABLE ${(store as PostgresStore).table} CASCADE`);
    },
    // Queued on one connection, 64 "concurrent" claims take longer than the suite's lease, and
    // the late ones then legitimately reclaim. Four queued claims stay inside it.
    concurrency: 4,
  });
}

describe('postgres SQL on PGlite', () => {
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
