/**
 * MySQL/MariaDB store on the real server: the conformance suite (two round trips, and one
 * multi-statement round trip), schema and option checks, and the clock.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/index.js';
import { runStoreConformance } from '../../src/testing/index.js';
import { createMysqlStore, mysqlSchemaSql, type MysqlQueryable, type MysqlStore } from '../../src/stores/mysql/index.js';
import { mysqlAvailable, newMysqlPool, tableFactory, warmMysqlPool } from './mysql-support/mysql-support.js';

const available = await mysqlAvailable();
// 64 real connections, opened up front: the suite's races are between 64 server sessions. One
// pool serves both modes (multipleStatements only matters to the store that sends two at once),
// so this file never holds more than 64 of the server's connections (max_connections is 151 here).
const pool = newMysqlPool(64, { multipleStatements: true });
const multiPool = pool;
if (available) await warmMysqlPool(pool, 64);
const tables = tableFactory(pool, import.meta.url);

afterAll(async () => {
  if (available) await tables.dropAll();
  await pool.end();
});

for (const multiStatement of [false, true]) {
  runStoreConformance({
    name: `mysql (${multiStatement ? 'one multi-statement round trip' : 'upsert + read-back'})`,
    createStore: () => tables.fresh(multiStatement ? { db: multiPool, multiStatement } : {}),
    destroyStore: (store) => tables.drop(store as MysqlStore),
    skip: available ? false : 'MariaDB/MySQL not reachable',
    // A burst of 64 claims on a loaded two-core host can outlast 150 ms; a late duplicate would
    // then legitimately reclaim. Same setting as the PostgreSQL suite.
    leaseMs: 1000,
  });
}

describe('mysql store options', () => {
  it('refuses bad options at creation', () => {
    expect(() => createMysqlStore({ db: {} as never })).toThrow(InvalidOptionsError);
    expect(() => createMysqlStore({ db: pool, table: 'Bad-Name' })).toThrow(InvalidOptionsError);
    expect(() => createMysqlStore({ db: pool, database: 'x`; DROP TABLE y' })).toThrow(InvalidOptionsError);
    expect(() => createMysqlStore({ db: pool, sizeMode: 'fast' as never })).toThrow(InvalidOptionsError);
    expect(() => createMysqlStore({ db: pool, maxConcurrentClaims: 0 })).toThrow(InvalidOptionsError);
  });

  it('prints idempotent DDL with binary collations and the generated columns that replace partial indexes', () => {
    const ddl = mysqlSchemaSql({ table: 'idempotency_store' });
    expect(ddl).toContain('CREATE TABLE IF NOT EXISTS `idempotency_store`');
    expect(ddl).toMatch(/purge_at\s+DATETIME\(3\) AS \(IF\(status <> 'PROCESSING', expires_at, NULL\)\) STORED/);
    expect(ddl).toContain('COLLATE ascii_bin');
  });
});

describe.skipIf(!available)('mysql store on the server', () => {
  it('keeps keys that differ only in case apart (binary collation)', async () => {
    const store = await tables.fresh();
    const base = { scope: 'u', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
    expect((await store.claim({ ...base, key: 'Key-A' })).outcome).toBe('claimed');
    expect((await store.claim({ ...base, key: 'key-a' })).outcome).toBe('claimed');
    expect(await store.size()).toBe(2);
  });

  it('reads the same clock whatever the session time_zone', async () => {
    const store = await tables.fresh();
    const connection = await pool.getConnection();
    try {
      await connection.query("SET time_zone = '+09:00'");
      const shifted = await store.withDb(connection).now();
      const plain = await store.now();
      expect(Math.abs(shifted - plain)).toBeLessThan(1000);
      expect(Math.abs(plain - Date.now())).toBeLessThan(5000);
    } finally {
      await connection.query("SET time_zone = 'SYSTEM'");
      connection.release();
    }
  });

  it('migrates concurrently from many instances under GET_LOCK, applying the step once', async () => {
    const store = await tables.fresh();
    await tables.drop(store);
    await Promise.all(Array.from({ length: 6 }, () => store.migrate()));
    const [rows] = await pool.query(`SELECT COUNT(*) AS n FROM \`${store.names.table}_migrations\``);
    expect(Number((rows as { n: unknown }[])[0]!.n)).toBe(1);
  });

  it('claims in two round trips by default and in one with multiStatement (counted at the port)', async () => {
    const cases: [boolean, MysqlQueryable, number][] = [
      [false, pool, 2],
      [true, multiPool, 1],
    ];
    for (const [multiStatement, db, expected] of cases) {
      let calls = 0;
      const counting: MysqlQueryable = { query: (sql, values) => (calls++, db.query(sql, values)) };
      const store = await tables.fresh({ db: counting, multiStatement });
      const base = { scope: 'u', fingerprint: 'b'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
      for (const label of ['absent', 'duplicate']) {
        calls = 0;
        const result = await store.claim({ ...base, key: 'rt' });
        expect(result.outcome, label).toBe(label === 'absent' ? 'claimed' : 'existing');
        expect(calls, `${label}, multiStatement ${multiStatement}`).toBe(expected);
      }
    }
  });

  it('estimates its size from information_schema when asked', async () => {
    const store = await tables.fresh({ sizeMode: 'estimate' });
    expect(await store.size()).toBeGreaterThanOrEqual(0);
  });
});
