/**
 * SQLite claim + complete per second: through the store (and through the engine) against raw
 * better-sqlite3 running the very same statements (sql.ts) in the same transaction shape, on
 * files with the same pragmas, in the same run. The ratio is the store's own overhead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createIdempotency, fingerprintFields } from '../src/index.js';
import { createSqliteStore, sqliteSchema, sqliteStatements } from '../src/stores/sqlite/index.js';
import { compare, type BenchSuite } from './harness.js';

const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: new Uint8Array(256).fill(7), encoding: 'json' };
const leaseMs = 30_000;
const ttlMs = 3_600_000;

/** Raw better-sqlite3: claimRead + claimUpsert under BEGIN IMMEDIATE, then the fenced finish. */
function rawClaimComplete(filename: string, synchronous: string) {
  const db = new Database(filename, { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(`PRAGMA synchronous = ${synchronous}`);
  db.exec(sqliteSchema());
  const sql = sqliteStatements('idempotency_store');
  const read = db.prepare(sql.claimRead);
  const upsert = db.prepare(sql.claimUpsert);
  const finish = db.prepare(sql.finish);
  const claim = db.transaction((key: string) => {
    const now = (read.get({ key, scope: 'u' }) as { now: number }).now;
    return upsert.get({ key, scope: 'u', fingerprint, owner: null, now, leaseMs, ttlMs, replaceExpired: 1 }) as { lock_version: number };
  });
  let n = 0;
  return {
    fn() {
      const key = `raw${n++}`;
      const { lock_version } = claim.immediate(key);
      finish.run({
        key, scope: 'u', lockVersion: lock_version, status: 'COMPLETED', ttlMs, responseCode: response.statusCode,
        responseHeaders: JSON.stringify(response.headers), responseBody: response.body, responseEncoding: response.encoding,
      });
    },
    close: () => db.close(),
  };
}

async function measure(dir: string, synchronous: 'FULL' | 'NORMAL') {
  const raw = rawClaimComplete(join(dir, `raw-${synchronous}.db`), synchronous);
  const store = createSqliteStore({ filename: join(dir, `store-${synchronous}.db`), synchronous });
  const engineStore = createSqliteStore({ filename: join(dir, `engine-${synchronous}.db`), synchronous });
  await Promise.all([store.ready, engineStore.ready]);
  const idempotency = createIdempotency({ store: engineStore, leaseMs, ttlMs, heartbeat: false });
  let n = 0;
  const rows = await compare([
    { label: `raw better-sqlite3, same statements (baseline)`, fn: raw.fn },
    {
      label: 'store.claim + store.complete',
      fn: async () => {
        const key = `s${n++}`;
        const claimed = await store.claim({ key, scope: 'u', fingerprint, owner: null, leaseMs, ttlMs, replaceExpired: true });
        if (claimed.outcome !== 'claimed') throw new Error('bench key collided');
        await store.complete({ key, scope: 'u', lockVersion: claimed.lockVersion, response, ttlMs });
      },
    },
    {
      label: 'engine run(): claim + action + complete',
      fn: () => idempotency.run({ key: `e${n++}`, scope: 'u', fingerprint }, () => ({ id: 'pay_1', amount: 4999 })),
      note: 'heartbeat off',
    },
    // tinybench runs until BOTH `time` and `iterations` are reached: keep iterations low, since a
    // durable commit can take milliseconds (fsync) and the harness default would mean minutes.
  ], { time: 1_000, iterations: 8 });
  raw.close();
  await Promise.all([store.close(), engineStore.close()]);
  return rows;
}

const suite: BenchSuite = {
  name: 'SQLite store: claim + complete per second',
  async available() {
    try {
      new Database(':memory:').close();
      return null;
    } catch (error) {
      return `better-sqlite3 cannot load: ${String(error)}`;
    }
  },
  async run(report) {
    const dir = mkdtempSync(join(tmpdir(), 'idem-sqlite-bench-'));
    try {
      report.line(`files in ${tmpdir()}, WAL, one connection, new key per op, 256-byte response`);
      report.table('synchronous = FULL (the store default: survives power loss)', await measure(dir, 'FULL'));
      report.table('synchronous = NORMAL (survives a crashed process, not power loss)', await measure(dir, 'NORMAL'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
