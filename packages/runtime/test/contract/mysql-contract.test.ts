/**
 * The MySQL contract is the MySQL store's own text: every statement the store sends to a real
 * MariaDB is one of the contract's statements, character for character.
 */
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { mysqlContract } from '../../src/contract/index.js';
import { createMysqlStore } from '../../src/stores/mysql/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';

const available = await serviceAvailable('MariaDB/MySQL', () => probeTcp(3306));

describe.skipIf(!available)('MySQL contract', () => {
  it('every statement the store sends is one of the contract\'s, text for text', async () => {
    const pool = mysql.createPool({ host: '127.0.0.1', user: 'root', database: 'test', connectionLimit: 2 });
    const table = `contract_probe_${process.pid}`;
    const sent: string[] = [];
    const db = { query: (text: string, values?: unknown[]) => (values !== undefined && sent.push(text), pool.query(text, values)) } as never;
    const store = createMysqlStore({ db, table });
    await pool.query(mysqlContract({ table }).tableSql);
    try {
      const base = { key: 'k1', scope: 'u', fingerprint: 'a'.repeat(64), owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
      const claim = await store.claim(base);
      const lockVersion = claim.outcome === 'claimed' ? claim.lockVersion : 0;
      await store.extend({ key: 'k1', scope: 'u', lockVersion, leaseMs: 30_000 });
      await store.complete({ key: 'k1', scope: 'u', lockVersion, ttlMs: 1, response: { statusCode: 200, headers: null, body: new Uint8Array([1]), encoding: 'bytes' } });
      await store.get({ key: 'k1', scope: 'u' });
      await new Promise((r) => setTimeout(r, 10));
      await store.purgeExpired(10);
      await store.listStuck({ olderThanMs: 0, limit: 5 });
      await store.forceRelease({ key: 'k1', scope: 'u' });
      const my = mysqlContract({ table });
      const byText = new Map([...Object.entries(my.statements).map(([name, s]) => [s.text, name] as const), [my.purgeDelete(1).text, 'purgeDelete'] as const]);
      expect(sent.filter((t) => !t.startsWith('SET TRANSACTION')).map((text) => byText.get(text) ?? text)).toEqual(['claimUpsert', 'claimRead', 'extend', 'finish', 'get', 'purgeCandidates', 'purgeDelete', 'listStuck', 'forceRelease']);
    } finally {
      await pool.query(`DROP TABLE IF EXISTS \`${table}\``);
      await pool.end();
    }
  });
});
