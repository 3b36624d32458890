/**
 * SQLite store, in one run:
 *  1. claim + complete per second: through the store (and through the engine) against raw
 *     better-sqlite3 running the very same statements (sql.ts) in the same transaction shape, on
 *     files with the same pragmas. The ratio is the store's own overhead.
 *  2. claim p50/p99 while N expired rows are purged in the same process (better-sqlite3 is
 *     synchronous: a DELETE holds the event loop): back-to-back purgeExpired(5 000) and the
 *     cleanup job with its defaults, each p99 ÷ the p99 of claims in the same case's windows
 *     with the purge paused (bench/purge-latency.ts).
 * N = IDEMPOTENCY_BENCH_SQLITE_ROWS (default 1 000 000).
 * IDEMPOTENCY_BENCH_CASES=throughput,cleanup picks cases (default all).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compare, type BenchSuite, type Reporter, type Row } from './harness.js';
import { purgeLatency, wantCase } from './purge-latency.js';
import { importRuntime, runtimeSource } from './runtime-import.js';

type SqliteModule = typeof import('@idempotency-builder/runtime/sqlite');
type RootModule = typeof import('@idempotency-builder/runtime');
const { createIdempotency, fingerprintFields, startCleanup } = await importRuntime<RootModule>('');
const { createSqliteStore, sqliteSchema, sqliteStatements } = await importRuntime<SqliteModule>('sqlite');

const ROWS = Number(process.env.IDEMPOTENCY_BENCH_SQLITE_ROWS ?? 1_000_000);

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

/** Writes `rows` expired COMPLETED records ('fill-1' … in scope 'bench') through a raw connection. */
function fillExpired(filename: string, rows: number) {
  const db = new Database(filename, { timeout: 5_000 });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec(sqliteSchema());
  db.exec('DELETE FROM idempotency_store');
  db.prepare(
    `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < @rows)
     INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, response_code, response_headers,
       response_body, response_encoding, lock_version, created_at, completed_at, expires_at)
     SELECT 'fill-' || n, 'bench', @fingerprint, 'COMPLETED', 201, '{"content-type":"application/json"}',
       CAST('{"id":"' || n || '","amount":4999}' AS BLOB), 'json', 1, @now - 120000, @now - 120000, @now - 60000 FROM g`,
  ).run({ rows, fingerprint, now: Date.now() });
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.close();
}

async function purgeCases(report: Reporter, dir: string, synchronous: 'FULL' | 'NORMAL') {
  const filename = join(dir, `purge-${synchronous}.db`);
  const rows = ROWS.toLocaleString('en-US');
  const tableRows: Row[] = [];
  // A fresh file and store per case: the same backlog, nothing carried over.
  const withBacklog = async (run: (store: ReturnType<typeof createSqliteStore>, latency: ReturnType<typeof purgeLatency>) => Promise<void>) => {
    fillExpired(filename, ROWS);
    const store = createSqliteStore({ filename, synchronous });
    await store.ready;
    const latency = purgeLatency(store, { fingerprint, expiredKey: () => `fill-${1 + Math.floor(Math.random() * ROWS)}` });
    try {
      await run(store, latency);
      tableRows.push(...latency.rows());
    } finally {
      await store.close();
    }
  };
  await withBacklog((store, latency) =>
    latency.during(`back-to-back purgeExpired(5 000) of ${rows} expired rows`, async (gate) => {
      while ((await gate(), await store.purgeExpired(5_000)) > 0);
    }),
  );
  // The job with its defaults, its batches gated; only the per-run bound is lifted, so one run drains the backlog.
  await withBacklog((store, latency) =>
    latency.during(`startCleanup (defaults) purging ${rows} expired rows`, async (gate) => {
      const gated = { size: () => store.size(), purgeExpired: async (batch: number) => (await gate(), store.purgeExpired(batch)) };
      const job = startCleanup({ store: gated, intervalMs: 3_600_000, maxBatchesPerRun: ROWS });
      while ((await job.runOnce()) > 0);
      await job.stop();
    }),
  );
  report.table(
    `claim latency during cleanup, synchronous = ${synchronous} (4 loops: 3 new keys, 1 expired keys; purge gated on/off in alternating windows; ratio = p99 running / p99 paused)`,
    tableRows,
  );
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
      report.line(`files in ${tmpdir()}, WAL, one connection; runtime: ${runtimeSource}`);
      if (wantCase('throughput')) {
        report.line('claim + complete: new key per op, 256-byte response');
        report.table('synchronous = FULL (the store default: survives power loss)', await measure(dir, 'FULL'));
        report.table('synchronous = NORMAL (survives a crashed process, not power loss)', await measure(dir, 'NORMAL'));
      }
      if (wantCase('cleanup')) {
        report.line(`cleanup: N = ${ROWS.toLocaleString('en-US')} expired rows (IDEMPOTENCY_BENCH_SQLITE_ROWS)`);
        await purgeCases(report, dir, 'FULL');
        await purgeCases(report, dir, 'NORMAL');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
