/**
 * MySQL/MariaDB store, against the local server: claim + complete per second through the store vs
 * the raw mysql2 driver running the very same statements (sql.ts) with the same values, at 1, 8
 * and 32 clients — the ratio is the store's own overhead. Also the replay path (claim of a
 * completed key) both ways. Each case alternates raw and store rounds, so host load hits both.
 * Every claim and completion commits (innodb_flush_log_at_trx_commit=1 here): with one client
 * the figures are fsync-bound. Env: IDEMPOTENCY_BENCH_MYSQL_MS = measured ms per side and case (default 3000).
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import mysql from 'mysql2/promise';
import { fingerprintFields } from '@idempotency-builder/runtime';
import { createMysqlStore, type MysqlStore } from '@idempotency-builder/runtime/mysql';
import { bindValues, mysqlStatements } from '../src/stores/mysql/sql.js';
import { responseValues } from '../src/stores/mysql/row-mapping.js';
import { probeTcp } from '../test/support/services.js';
import { throughput, type BenchSuite, type Reporter, type Row } from './harness.js';

const CONFIG = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' };
const MS = Number(process.env.IDEMPOTENCY_BENCH_MYSQL_MS ?? 3_000);
const CLIENTS = [1, 8, 32];
const table = `bench_mysql_${process.pid}`;
const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"id":"pay_1","amount":4999}'), encoding: 'json' };
const leaseMs = 30_000;
const ttlMs = 3_600_000;

/**
 * Raw and store in alternating rounds (raw, store, raw, store, raw, store), `ms` split over them,
 * so a load spike on a shared host hits both sides alike. Answers [raw, store] ops per second.
 */
async function interleaved(clients: number, ms: number, raw: () => Promise<unknown>, ours: () => Promise<unknown>): Promise<[number, number]> {
  const rounds = 3;
  let rawSum = 0;
  let ourSum = 0;
  for (let round = 0; round < rounds; round++) {
    rawSum += await throughput(clients, ms / rounds, raw);
    ourSum += await throughput(clients, ms / rounds, ours);
  }
  return [rawSum / rounds, ourSum / rounds];
}

async function run(report: Reporter, pool: mysql.Pool, store: MysqlStore) {
  const sql = mysqlStatements(store.table);
  let n = 0;
  const nextKey = () => `k-${process.pid}-${n++}`;
  /** The store's three statements, sent by hand: upsert, read-back, finish. */
  const raw = async () => {
    const key = nextKey();
    const nonce = randomBytes(16).toString('hex');
    const id = { key, scope: 'bench' };
    await pool.query(sql.claimUpsert.text, bindValues(sql.claimUpsert, { ...id, owner: null, fingerprint, leaseUs: leaseMs * 1000, ttlUs: ttlMs * 1000, nonce, replaceExpired: 1 }));
    const [rows] = await pool.query(sql.claimRead.text, bindValues(sql.claimRead, id));
    const lockVersion = (rows as { lock_version: number }[])[0]!.lock_version;
    await pool.query(sql.finish.text, bindValues(sql.finish, { ...responseValues(response), status: 'COMPLETED', ttlUs: ttlMs * 1000, ...id, lockVersion }));
  };
  const ours = async () => {
    const key = nextKey();
    const claim = await store.claim({ key, scope: 'bench', fingerprint, owner: null, leaseMs, ttlMs, replaceExpired: true });
    if (claim.outcome !== 'claimed') throw new Error('bench key collided');
    await store.complete({ key, scope: 'bench', lockVersion: claim.lockVersion, response, ttlMs });
  };
  const rows: Row[] = [];
  for (const clients of CLIENTS) {
    const [base, mine] = await interleaved(clients, MS, raw, ours);
    rows.push({ label: `raw mysql2, upsert + read-back + finish, ${clients} client(s) (baseline)`, opsPerSec: base, ratio: 1 });
    rows.push({ label: `store.claim + store.complete, ${clients} client(s)`, opsPerSec: mine, ratio: mine / base });
  }
  report.table(`claim + complete per second (${MS} ms per case; ratio = store / raw driver)`, rows);

  // Replays: claims of completed keys (the engine's duplicate path).
  const completed = Array.from({ length: 1_000 }, (_, i) => `k-${process.pid}-${i}`);
  const pick = () => completed[Math.floor(Math.random() * completed.length)]!;
  const rawReplay = async () => {
    const id = { key: pick(), scope: 'bench' };
    await pool.query(sql.claimUpsert.text, bindValues(sql.claimUpsert, { ...id, owner: null, fingerprint, leaseUs: leaseMs * 1000, ttlUs: ttlMs * 1000, nonce: randomBytes(16).toString('hex'), replaceExpired: 1 }));
    await pool.query(sql.claimRead.text, bindValues(sql.claimRead, id));
  };
  const ourReplay = () => store.claim({ key: pick(), scope: 'bench', fingerprint, owner: null, leaseMs, ttlMs, replaceExpired: true });
  const replayRows: Row[] = [];
  for (const clients of [1, 8]) {
    const [base, mine] = await interleaved(clients, MS, rawReplay, ourReplay);
    replayRows.push({ label: `raw mysql2, upsert + read-back on completed keys, ${clients} client(s) (baseline)`, opsPerSec: base, ratio: 1 });
    replayRows.push({ label: `store.claim → existing (replay path), ${clients} client(s)`, opsPerSec: mine, ratio: mine / base });
  }
  report.table('replay claims per second, 1 000 completed records (ratio = store / raw driver)', replayRows);
}

const suite: BenchSuite = {
  name: 'mysql store',
  async available() {
    try {
      await probeTcp(CONFIG.port);
      return null;
    } catch (error) {
      return `MySQL/MariaDB not reachable (${(error as Error).message})`;
    }
  },
  async run(report) {
    const pool = mysql.createPool({ ...CONFIG, connectionLimit: 34 });
    const store = createMysqlStore({ db: pool, table });
    try {
      await store.migrate();
      const [version] = await pool.query('SELECT VERSION() AS v');
      report.line(`server ${(version as { v: string }[])[0]!.v}; ${MS} ms per side and case; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
      await run(report, pool, store);
    } finally {
      await pool.query(`DROP TABLE IF EXISTS ${store.table}, \`${table}_migrations\``).catch(() => {});
      await pool.end();
    }
  },
};

export default suite;
