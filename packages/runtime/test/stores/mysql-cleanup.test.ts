/**
 * The batched purge of the MySQL store: it deletes by primary key after a lock-free read, so an
 * open purge batch holds record locks on expired rows only — claims of new keys never wait for
 * it — and both its statements and listStuck run along the indexes that replace partial indexes.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintFields } from '../../src/index.js';
import { mysqlStatements, bindValues } from '../../src/stores/mysql/index.js';
import { purgeDelete } from '../../src/stores/mysql/sql.js';
import { PURGE_ISOLATION } from '../../src/stores/mysql/mysql-store.js';
import { mysqlAvailable, newMysqlPool, tableFactory } from './mysql-support/mysql-support.js';

const available = await mysqlAvailable();
const pool = newMysqlPool(12);
const tables = tableFactory(pool, import.meta.url);
const ROWS = 5_000;
const fp = fingerprintFields(['purge', 1]);

afterAll(async () => {
  if (available) await tables.dropAll();
  await pool.end();
});

/** `ROWS` finished rows whose expiry passed a minute ago (a recursive CTE works on MySQL 8 and MariaDB). */
async function fillExpired(table: string) {
  await pool.query('SET SESSION cte_max_recursion_depth = 100000').catch(() => pool.query('SET SESSION max_recursive_iterations = 100000'));
  await pool.query(
    `INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, lock_version, created_at, completed_at, expires_at,
       response_code, response_encoding, response_bytes)
     WITH RECURSIVE seq (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
     SELECT CONCAT('old-', n), 'bench', ?, 'COMPLETED', 1, UTC_TIMESTAMP(3) - INTERVAL 2 HOUR, UTC_TIMESTAMP(3) - INTERVAL 2 HOUR,
       UTC_TIMESTAMP(3) - INTERVAL 1 MINUTE - INTERVAL n MICROSECOND, 200, 'bytes', X'01'
     FROM seq`,
    [ROWS, fp],
  );
  await pool.query(`ANALYZE TABLE ${table}`);
}

const explain = async (text: string, values: unknown[]) => {
  const [rows] = await pool.query(`EXPLAIN ${text}`, values);
  return rows as { key: string | null; type: string }[];
};

describe.skipIf(!available)('mysql purge and runbook queries', () => {
  it('uses the generated-column indexes and the primary key, never a full scan', async () => {
    const store = await tables.fresh();
    await fillExpired(store.table);
    const sql = mysqlStatements(store.table);
    expect((await explain(sql.purgeCandidates.text, [1000]))[0]).toMatchObject({ key: `idx_${store.names.table}_purge`, type: 'range' });
    expect((await explain(sql.listStuck.text, [0, 10]))[0]!.key).toBe(`idx_${store.names.table}_stuck`);
    const del = purgeDelete(store.table, 2);
    expect((await explain(del.text, bindValues(del, { key0: 'old-1', scope0: 'bench', key1: 'old-2', scope1: 'bench' })))[0]).toMatchObject({ key: 'PRIMARY', type: 'range' });
  });

  it('the same batch at REPEATABLE READ would block a claim of a new key (why the purge switches level)', async () => {
    const store = await tables.fresh();
    await fillExpired(store.table);
    const sql = mysqlStatements(store.table);
    const [holder, claimer] = await Promise.all([pool.getConnection(), pool.getConnection()]);
    try {
      await holder.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      await holder.beginTransaction();
      const [candidates] = await holder.query(sql.purgeCandidates.text, [1000]);
      const list = candidates as { idempotency_key: string; user_id: string }[];
      const del = purgeDelete(store.table, list.length);
      const values: Record<string, unknown> = {};
      list.forEach((row, i) => Object.assign(values, { [`key${i}`]: row.idempotency_key, [`scope${i}`]: row.user_id }));
      await holder.query(del.text, bindValues(del, values));
      await claimer.query('SET SESSION innodb_lock_wait_timeout = 1');
      const upsert = sql.claimUpsert;
      const claim = claimer.query(upsert.text, bindValues(upsert, { key: 'zzz-new', scope: 'bench', owner: null, fingerprint: fp, leaseUs: 1e6, ttlUs: 1e6, nonce: 'a'.repeat(32), replaceExpired: 1 }));
      await expect(claim).rejects.toMatchObject({ errno: 1205 });
      await holder.rollback();
    } finally {
      await claimer.query('SET SESSION innodb_lock_wait_timeout = DEFAULT');
      holder.release();
      claimer.release();
    }
  });

  it('an open purge batch does not block claims of new keys; the purge drains the backlog in batches', async () => {
    const store = await tables.fresh();
    await fillExpired(store.table);
    const sql = mysqlStatements(store.table);
    const connection = await pool.getConnection();
    try {
      // One batch, deleted and left uncommitted: its row locks stay held while claims run.
      // Exactly what purgeExpired sends, but kept open so its locks stay held.
      await connection.query(PURGE_ISOLATION);
      await connection.beginTransaction();
      const [candidates] = await connection.query(sql.purgeCandidates.text, [1000]);
      const list = candidates as { idempotency_key: string; user_id: string }[];
      const del = purgeDelete(store.table, list.length);
      const values: Record<string, unknown> = {};
      list.forEach((row, i) => Object.assign(values, { [`key${i}`]: row.idempotency_key, [`scope${i}`]: row.user_id }));
      const [header] = await connection.query(del.text, bindValues(del, values));
      expect((header as { affectedRows: number }).affectedRows).toBe(1000);
      const started = Date.now();
      const claims = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.claim({ key: `new-${i}`, scope: 'bench', fingerprint: fp, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true }),
        ),
      );
      expect(claims.every((c) => c.outcome === 'claimed')).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000); // blocked claims would wait innodb_lock_wait_timeout (50 s)
      await connection.rollback();
    } finally {
      connection.release();
    }
    let batches = 0;
    let purged = 0;
    for (let n = await store.purgeExpired(1_000); n > 0; n = await store.purgeExpired(1_000)) {
      purged += n;
      batches++;
    }
    expect(purged).toBe(ROWS);
    expect(batches).toBe(Math.ceil(ROWS / 1_000));
    expect(await store.size()).toBe(40);
  });
});
