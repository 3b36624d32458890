/**
 * MySQL transactional mode on the real server: claim, business write and completion commit
 * together (mysql2 and knex through the same port), under READ COMMITTED and REPEATABLE READ;
 * duplicates wait for the first transaction or answer in_progress; a rollback leaves nothing.
 */
import knexFactory from 'knex';
import type mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fingerprintFields, InProgressError } from '../../src/index.js';
import {
  createMysqlTransactionalIdempotency,
  knexMysqlQueryable,
  type MysqlTransactionalContext,
  type MysqlTransactionalOptions,
} from '../../src/stores/mysql/index.js';
import { MYSQL_CONFIG, mysqlAvailable, newMysqlPool, sleep, tableFactory, tablePrefixFor } from './mysql-support/mysql-support.js';

const available = await mysqlAvailable();
const pool = newMysqlPool(24);
const knex = knexFactory({ client: 'mysql2', connection: { ...MYSQL_CONFIG }, pool: { min: 0, max: 8 } });
const tables = tableFactory(pool, import.meta.url);
const payments = `\`${tablePrefixFor(import.meta.url)}_payments\``;
const fp = fingerprintFields(['tx', 4999]);
const request = (key: string) => ({ key, scope: 'user-1', fingerprint: fp });

beforeAll(async () => {
  if (available) await pool.query(`CREATE TABLE IF NOT EXISTS ${payments} (id VARCHAR(64) PRIMARY KEY, amount INT NOT NULL) ENGINE=InnoDB`);
});
afterAll(async () => {
  if (available) {
    await tables.dropAll();
    await pool.query(`DROP TABLE IF EXISTS ${payments}`);
  }
  await Promise.all([pool.end(), knex.destroy()]);
});

async function setup(options: Omit<MysqlTransactionalOptions, 'store'> = {}) {
  const store = await tables.fresh();
  return { store, tx: createMysqlTransactionalIdempotency({ store, ...options }) };
}

/** START TRANSACTION (at `level`) … fn … COMMIT on one pooled connection; ROLLBACK when fn throws. */
async function inTransaction<T>(level: string, fn: (connection: mysql.PoolConnection) => Promise<T>): Promise<T> {
  const connection = await pool.getConnection();
  try {
    await connection.query(`SET TRANSACTION ISOLATION LEVEL ${level}`);
    await connection.beginTransaction();
    const value = await fn(connection);
    await connection.commit();
    return value;
  } catch (error) {
    await connection.rollback().catch(() => {});
    throw error;
  } finally {
    connection.release();
  }
}

const paymentsCount = async (id: string) => {
  const [rows] = await pool.query(`SELECT COUNT(*) AS n FROM ${payments} WHERE id = ?`, [id]);
  return Number((rows as { n: unknown }[])[0]!.n);
};
const charge = (id: string, counter: { n: number }) => async ({ db }: MysqlTransactionalContext) => {
  counter.n++;
  await db.query(`INSERT INTO ${payments} (id, amount) VALUES (?, 4999)`, [id]);
  return { paymentId: id };
};

for (const level of ['READ COMMITTED', 'REPEATABLE READ']) {
  describe.skipIf(!available)(`mysql transactional mode (${level})`, () => {
    const tag = level === 'READ COMMITTED' ? 'rc' : 'rr';

    it('mysql2: claim, the business write and completion commit as one; a retry replays', async () => {
      const { store, tx } = await setup();
      const counter = { n: 0 };
      const first = await inTransaction(level, (c) => tx.run(c, request(`pay-${tag}`), charge(`pay-${tag}`, counter)));
      expect(first).toEqual({ value: { paymentId: `pay-${tag}` }, replayed: false });
      expect(await store.get({ key: `pay-${tag}`, scope: 'user-1' })).toMatchObject({ status: 'COMPLETED' });
      const again = await inTransaction(level, (c) => tx.run(c, request(`pay-${tag}`), charge(`pay-${tag}`, counter)));
      expect(again).toEqual({ value: { paymentId: `pay-${tag}` }, replayed: true });
      expect(counter.n).toBe(1);
      expect(await paymentsCount(`pay-${tag}`)).toBe(1);
    });

    it('a rollback leaves neither the record nor the write; the retry runs', async () => {
      const { store, tx } = await setup();
      const counter = { n: 0 };
      const failing = async (context: MysqlTransactionalContext) => {
        await charge(`rb-${tag}`, counter)(context);
        throw new Error('after the write');
      };
      await expect(inTransaction(level, (c) => tx.run(c, request(`rb-${tag}`), failing))).rejects.toThrow('after the write');
      expect(await store.get({ key: `rb-${tag}`, scope: 'user-1' })).toBeNull();
      expect(await paymentsCount(`rb-${tag}`)).toBe(0);
      await inTransaction(level, (c) => tx.run(c, request(`rb-${tag}`), charge(`rb-${tag}`, counter)));
      expect(counter.n).toBe(2);
      expect(await paymentsCount(`rb-${tag}`)).toBe(1);
    });

    it('16 concurrent transactions of one request: the action runs once, the others replay or wait', async () => {
      const { tx } = await setup({ duplicateWaitMs: 10_000 });
      const counter = { n: 0 };
      const key = `conc-${tag}`;
      const action = async (context: MysqlTransactionalContext) => {
        const value = await charge(key, counter)(context);
        await sleep(50);
        return value;
      };
      const settled = await Promise.allSettled(Array.from({ length: 16 }, () => inTransaction(level, (c) => tx.run(c, request(key), action))));
      expect(counter.n).toBe(1);
      expect(await paymentsCount(key)).toBe(1);
      const values = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      expect(values).toHaveLength(16);
      expect(values.filter((v) => !v.replayed)).toHaveLength(1);
    });

    it('a duplicate waits for the first transaction and replays once it commits', async () => {
      const { tx } = await setup({ duplicateWaitMs: 5_000 });
      const counter = { n: 0 };
      const key = `wait-${tag}`;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = inTransaction(level, (c) => tx.run(c, request(key), async (context) => (await gate, charge(key, counter)(context))));
      await sleep(100);
      const started = Date.now();
      const second = inTransaction(level, (c) => tx.run(c, request(key), charge(key, counter)));
      await sleep(300);
      release();
      expect(await first).toMatchObject({ replayed: false });
      expect(await second).toMatchObject({ replayed: true, value: { paymentId: key } });
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(counter.n).toBe(1);
    });

    it('a duplicate answers in_progress when the first transaction outlasts duplicateWaitMs', async () => {
      const { tx } = await setup({ duplicateWaitMs: 1_000 });
      const counter = { n: 0 };
      const key = `busy-${tag}`;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first = inTransaction(level, (c) => tx.run(c, request(key), async (context) => (await gate, charge(key, counter)(context))));
      await sleep(100);
      await expect(inTransaction(level, (c) => tx.run(c, request(key), charge(key, counter)))).rejects.toBeInstanceOf(InProgressError);
      release();
      await first;
      expect(counter.n).toBe(1);
    });
  });
}

describe.skipIf(!available)('mysql transactional mode: connections and knex', () => {
  it('refuses a pool or an autocommit connection before writing anything', async () => {
    const { store, tx } = await setup();
    const counter = { n: 0 };
    await expect(tx.run(pool, request('auto'), charge('auto', counter))).rejects.toThrow(/open transaction/);
    expect(counter.n).toBe(0);
    expect(await store.get({ key: 'auto', scope: 'user-1' })).toBeNull();
  });

  it('knex: commits with the knex transaction, and a thrown error rolls both back', async () => {
    const { store, tx } = await setup();
    const counter = { n: 0 };
    const result = await knex.transaction((trx) => tx.run(knexMysqlQueryable(trx), request('knex-1'), charge('knex-1', counter)));
    expect(result).toEqual({ value: { paymentId: 'knex-1' }, replayed: false });
    await expect(
      knex.transaction((trx) =>
        tx.run(knexMysqlQueryable(trx), request('knex-2'), async (context) => {
          await charge('knex-2', counter)(context);
          throw new Error('boom');
        }),
      ),
    ).rejects.toThrow('boom');
    expect(await paymentsCount('knex-1')).toBe(1);
    expect(await paymentsCount('knex-2')).toBe(0);
    expect(await store.get({ key: 'knex-2', scope: 'user-1' })).toBeNull();
    const replay = await knex.transaction((trx) => tx.run(knexMysqlQueryable(trx), request('knex-1'), charge('knex-1', counter)));
    expect(replay.replayed).toBe(true);
    expect(counter.n).toBe(2);
  });
});
