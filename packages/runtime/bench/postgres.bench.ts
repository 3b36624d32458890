/**
 * PostgreSQL store, in one run against the local server:
 *  1. claim + complete per second through the store vs pgbench running the very same two
 *     statements (sql.ts) at 1, 8 and 32 clients — the ratio is the store's (and Node's) overhead;
 *  2. replay lookups per second: the store's get() vs pgbench running the same SELECT, and the
 *     claim statement on completed keys (the engine's replay path) vs pgbench running it;
 *  3. claim p50/p99 with 10^3 vs N rows stored;
 *  4. claim p50/p99 while N expired rows are purged: back-to-back batches (SKIP LOCKED), the
 *     cleanup job without and with pacing, one big DELETE — each p99 ÷ the p99 of claims in the
 *     same case's windows with the purge paused (bench/purge-latency.ts);
 *  5. the same for the partitioned layout, whose maintenance drops old partitions holding N
 *     expired rows instead of deleting them (bench/postgres-partition-drop.ts).
 * N = IDEMPOTENCY_BENCH_PG_ROWS (default 100 000; the docs' figures use 1 000 000).
 * IDEMPOTENCY_BENCH_CASES=throughput,size,cleanup picks cases (default all); cleanup runs 4 and 5,
 * partition-drop runs 5 alone; IDEMPOTENCY_BENCH_PG_PARTITIONS (default 10) is how many hourly
 * partitions 5 spreads the N rows over, one maintenance pass dropping each.
 * Whole seconds per throughput case (pgbench -T) = IDEMPOTENCY_BENCH_PG_SECONDS (default 1; the docs use 2).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { PostgresStore } from '@idempotency-builder/runtime/postgres';
import { postgresStatements } from '../src/stores/postgres/sql.js';
import { responseParams } from '../src/stores/postgres/row-mapping.js';
import { probeTcp } from '../test/support/services.js';
import { percentile, throughput, type BenchSuite, type Reporter, type Row } from './harness.js';
import { partitionDropCase } from './postgres-partition-drop.js';
import { purgeLatency, wantCase } from './purge-latency.js';
import { importRuntime, runtimeSource } from './runtime-import.js';

const { fingerprintFields } = await importRuntime<typeof import('@idempotency-builder/runtime')>('');
const { createPostgresStore, DEFAULT_PAUSE_RATIO, startPostgresCleanup } = await importRuntime<typeof import('@idempotency-builder/runtime/postgres')>('postgres');

const PGBENCH = '/usr/bin/pgbench';
const CONNECTION = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const ROWS = Number(process.env.IDEMPOTENCY_BENCH_PG_ROWS ?? 100_000);
const SECONDS = Math.max(1, Math.round(Number(process.env.IDEMPOTENCY_BENCH_PG_SECONDS ?? 1)));
const CLIENTS = [1, 8, 32];
const schema = `bench_postgres_${process.pid}`;
const fingerprint = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"id":"pay_1","amount":4999}'), encoding: 'json' };
const leaseMs = 30_000;
const ttlMs = 3_600_000;
const claimInput = (key: string) => ({ key, scope: 'bench', fingerprint, owner: null, leaseMs, ttlMs, replaceExpired: true });

/**
 * `prepared`: named statements, planned once per connection (store option preparedStatements,
 * pgbench -M prepared). `extended`: unnamed, parsed and planned on every call (the store's
 * default, what pg does without a name; pgbench -M extended).
 */
type Mode = 'prepared' | 'extended';

/** pgbench with a custom script; answers its tps (without connection set-up). */
function pgbench(script: string, clients: number, variables: Record<string, string>, dir: string, mode: Mode): Promise<number> {
  const file = join(dir, `script-${Math.random().toString(36).slice(2)}.sql`);
  writeFileSync(file, script);
  const args = ['-n', '-h', CONNECTION.host, '-p', String(CONNECTION.port), '-U', CONNECTION.user, '-M', mode];
  args.push('-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(SECONDS), '-f', file);
  for (const [name, value] of Object.entries(variables)) args.push('-D', `${name}=${value}`);
  args.push(CONNECTION.database);
  return new Promise((resolve, reject) => {
    const child = spawn(PGBENCH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('close', (code) => {
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out);
      if (code === 0 && tps) resolve(Number(tps[1]));
      else reject(new Error(`pgbench failed (${code}):\n${out}`));
    });
  });
}

/** The store's statement for pgbench: `$n` becomes `:<prefix>n` (a bound parameter under -M extended). */
const forPgbench = (text: string, prefix: string, overrides: Record<number, string> = {}) =>
  text.replace(/\$(\d+)/g, (_, n: string) => overrides[Number(n)] ?? `:${prefix}${n}`).replace(/\s+/g, ' ');

async function fill(pool: pg.Pool, store: PostgresStore, rows: number, expired: boolean): Promise<void> {
  await pool.query(`TRUNCATE ${store.table}`);
  // In slices, so a million rows never sit in one huge transaction's memory.
  for (let from = 1; from <= rows; from += 200_000) {
    await pool.query(
      `INSERT INTO ${store.table} (idempotency_key, user_id, fingerprint, status, lock_version, created_at, completed_at, expires_at,
         response_code, response_headers, response_encoding, response_bytes, response_body)
       SELECT 'fill-' || g, 'bench', $1, 'COMPLETED', 1, clock_timestamp(), clock_timestamp(),
         clock_timestamp() + CASE WHEN $4::boolean THEN interval '-1 minute' ELSE interval '1 hour' END,
         201, '{"content-type":"application/json"}', 'json', convert_to('{"id":"' || g || '","amount":4999}', 'UTF8'),
         ('{"id":"' || g || '","amount":4999}')::jsonb
       FROM generate_series($2::int, $3::int) g`,
      [fingerprint, from, Math.min(rows, from + 199_999), expired],
    );
  }
  await pool.query(`VACUUM ANALYZE ${store.table}`);
}

/** Sequential claim latencies (ms) of fresh keys, and of replays of stored keys. */
async function claimLatencies(store: PostgresStore, stored: number, samples: number): Promise<{ fresh: number[]; replay: number[] }> {
  const fresh: number[] = [];
  const replay: number[] = [];
  // Warm-up, unmeasured: the connection's prepared statements and the table's hot pages.
  for (let i = 0; i < 200; i++) await store.claim(claimInput(`warm-${stored}-${i}`));
  for (let i = 0; i < samples; i++) {
    let started = performance.now();
    await store.claim(claimInput(`lat-${stored}-${i}`));
    fresh.push(performance.now() - started);
    started = performance.now();
    await store.claim({ ...claimInput(`fill-${1 + Math.floor(Math.random() * stored)}`), replaceExpired: false });
    replay.push(performance.now() - started);
  }
  return { fresh, replay };
}

const latencyRow = (label: string, samples: number[], note?: string): Row => ({
  label,
  p50Ms: percentile(samples, 50),
  p99Ms: percentile(samples, 99),
  note: `${samples.length} claims${note ? `; ${note}` : ''}`,
});

/**
 * Throughput of each call after an untimed warm-up at the same client count, measured in two
 * alternating halves (A B A B). Without the warm-up, whichever case ran first at a new client
 * count opened the pool's extra connections and prepared its statements on each of them inside
 * its measured time: the store, always first, measured 0.69–0.79× the raw driver at 8 and 32
 * clients, and level with it once both were warm.
 */
async function alternating(clients: number, calls: readonly [() => Promise<void>, () => Promise<void>]): Promise<[number, number]> {
  for (const call of calls) await throughput(clients, 300, call);
  const totals = calls.map(() => 0);
  for (let half = 0; half < 2; half++) {
    for (const [i, call] of calls.entries()) totals[i]! += await throughput(clients, (SECONDS * 1000) / 2, call);
  }
  return [totals[0]! / 2, totals[1]! / 2];
}

async function throughputCases(report: Reporter, pool: pg.Pool, stores: Record<Mode, PostgresStore>, dir: string) {
  const sql = postgresStatements(stores.prepared.table);
  const claimScript = `\\set c1 random(1, 9000000000000000)\n${forPgbench(sql.claim, 'c', { 4: 'NULL::text' })} \\gset\n${forPgbench(sql.finish, 'f', { 1: ':c1', 2: ':c2', 3: ':lock_version' })};\n`;
  const [code, headers, encoding, bytes, json] = responseParams(response, true) as [number, string, string, Buffer, string];
  const claimVars = { c2: 'bench', c3: fingerprint, c5: String(leaseMs), c6: String(ttlMs), c7: 'true' };
  const finishVars = { f4: 'COMPLETED', f5: String(code), f6: headers, f7: encoding, f8: `\\x${bytes.toString('hex')}`, f9: json, f10: String(ttlMs) };
  // Every client count in prepared mode (the recommended setting), and 8 clients unprepared.
  const cases: [number, Mode][] = [...CLIENTS.map((c): [number, Mode] => [c, 'prepared']), [8, 'extended']];
  const rows: Row[] = [];
  let n = 0;
  for (const [clients, mode] of cases) {
    const store = stores[mode];
    await pool.query(`TRUNCATE ${store.table}`);
    const base = await pgbench(claimScript, clients, { ...claimVars, ...finishVars }, dir, mode);
    await pool.query(`TRUNCATE ${store.table}`);
    const storeCall = async () => {
      const key = `n-${process.pid}-${n++}`;
      const claim = await store.claim(claimInput(key));
      if (claim.outcome !== 'claimed') throw new Error('bench key collided');
      await store.complete({ key, scope: 'bench', lockVersion: claim.lockVersion, response, ttlMs });
    };
    // The same two statements straight through pg on the same pool: the driver's own ceiling, so
    // the gap to pgbench splits into what the driver costs and what the store adds.
    const rawCall = async () => {
      const key = `r-${process.pid}-${n++}`;
      const claimValues = [key, 'bench', fingerprint, null, leaseMs, ttlMs, true];
      const claimed = await (mode === 'prepared' ? pool.query({ name: 'raw-claim', text: sql.claim, values: claimValues }) : pool.query(sql.claim, claimValues));
      const finishValues = [key, 'bench', (claimed.rows[0] as { lock_version: string }).lock_version, 'COMPLETED', ...responseParams(response, true), ttlMs];
      await (mode === 'prepared' ? pool.query({ name: 'raw-finish', text: sql.finish, values: finishValues }) : pool.query(sql.finish, finishValues));
    };
    const [ours, raw] = await alternating(clients, [storeCall, rawCall]);
    rows.push({ label: `pgbench -M ${mode}, same 2 statements, ${clients} client(s) (baseline)`, opsPerSec: base, ratio: 1 });
    rows.push({ label: `raw pg driver, same 2 statements, ${mode}, ${clients} client(s)`, opsPerSec: raw, ratio: raw / base });
    rows.push({ label: `store.claim + store.complete, ${mode}, ${clients} client(s)`, opsPerSec: ours, ratio: ours / base, note: `${(ours / raw).toFixed(2)}x the raw driver` });
  }
  report.table(`claim + complete per second (${SECONDS} s per case; ratio = store / pgbench)`, rows);

  await fill(pool, stores.prepared, 10_000, false);
  const replayRows: Row[] = [];
  const pick = () => `fill-${1 + Math.floor(Math.random() * 10_000)}`;
  const selectScript = `\\set g1 random(1, 10000)\n${forPgbench(sql.get, 'g', { 1: `'fill-' || :g1` })};\n`;
  const replayScript = `\\set c1 random(1, 10000)\n${forPgbench(sql.claim, 'c', { 1: `'fill-' || :c1`, 4: 'NULL::text' })};\n`;
  for (const [clients, mode] of cases) {
    const store = stores[mode];
    const baseGet = await pgbench(selectScript, clients, { g2: 'bench' }, dir, mode);
    const getValues = () => [pick(), 'bench'];
    const [get, rawGet] = await alternating(clients, [
      async () => void (await store.get({ key: pick(), scope: 'bench' })),
      async () => void (await (mode === 'prepared' ? pool.query({ name: 'raw-get', text: sql.get, values: getValues() }) : pool.query(sql.get, getValues()))),
    ]);
    const baseReplay = await pgbench(replayScript, clients, claimVars, dir, mode);
    const replayValues = () => [pick(), 'bench', fingerprint, null, leaseMs, ttlMs, true];
    const [replay, rawReplay] = await alternating(clients, [
      async () => void (await store.claim(claimInput(pick()))),
      async () =>
        void (await (mode === 'prepared' ? pool.query({ name: 'raw-claim', text: sql.claim, values: replayValues() }) : pool.query(sql.claim, replayValues()))),
    ]);
    replayRows.push({ label: `pgbench -M ${mode}, the get SELECT, ${clients} client(s) (baseline)`, opsPerSec: baseGet, ratio: 1 });
    replayRows.push({ label: `raw pg driver, the get SELECT, ${mode}, ${clients} client(s)`, opsPerSec: rawGet, ratio: rawGet / baseGet });
    replayRows.push({ label: `store.get, ${mode}, ${clients} client(s)`, opsPerSec: get, ratio: get / baseGet, note: `${(get / rawGet).toFixed(2)}x the raw driver` });
    replayRows.push({ label: `pgbench -M ${mode}, the claim statement on completed keys, ${clients} client(s) (baseline)`, opsPerSec: baseReplay, ratio: 1 });
    replayRows.push({ label: `raw pg driver, the claim statement on completed keys, ${mode}, ${clients} client(s)`, opsPerSec: rawReplay, ratio: rawReplay / baseReplay });
    replayRows.push({
      label: `store.claim → existing (replay path), ${mode}, ${clients} client(s)`,
      opsPerSec: replay,
      ratio: replay / baseReplay,
      note: `${(replay / rawReplay).toFixed(2)}x the raw driver`,
    });
  }
  report.table('replay lookups per second, 10 000 completed records (ratio = store / pgbench)', replayRows);
}

async function sizeCases(report: Reporter, pool: pg.Pool, store: PostgresStore) {
  const sizeRows: Row[] = [];
  for (const stored of [1_000, ROWS]) {
    await fill(pool, store, stored, true);
    const { fresh, replay } = await claimLatencies(store, stored, 2_000);
    sizeRows.push(latencyRow(`claim, new key, ${stored.toLocaleString('en-US')} rows stored`, fresh, '1 client, sequential'));
    sizeRows.push(latencyRow(`claim, stored key (replay), ${stored.toLocaleString('en-US')} rows stored`, replay));
  }
  report.table('claim latency by table size', sizeRows);
}

async function purgeCases(report: Reporter, pool: pg.Pool, store: PostgresStore) {
  const rows = ROWS.toLocaleString('en-US');
  const latency = purgeLatency(store, { fingerprint, expiredKey: () => `fill-${1 + Math.floor(Math.random() * ROWS)}` });
  await fill(pool, store, ROWS, true);
  await latency.during(`back-to-back purgeExpired(5 000) of ${rows} expired rows`, async (gate) => {
    while ((await gate(), await store.purgeExpired(5_000)) > 0);
  });
  // The job with its defaults (100 batches of 1 000 per run), its runs back to back until the
  // backlog is gone. Gated between runs, not batches: a gate inside purgeExpired would count
  // its wait as the batch's duration and stretch the job's own pause.
  const job = async (label: string, options: { pauseRatio?: number; batchSize?: number }) => {
    await fill(pool, store, ROWS, true);
    await latency.during(`startPostgresCleanup (${label}) purging ${rows} expired rows`, async (gate) => {
      const cleanup = startPostgresCleanup({ store, ttlMs, intervalMs: 3_600_000, ...options });
      while ((await gate(), await cleanup.runOnce()) > 0);
      await cleanup.stop();
    });
  };
  // IDEMPOTENCY_BENCH_PG_PAUSE_RATIOS=0,3,9 (default: 0 and the job's default): the job's pacing, one case each.
  // IDEMPOTENCY_BENCH_PG_BATCH_SIZES=250,1000 (default 1000, the job's default): each pacing at each size.
  for (const batchSize of (process.env.IDEMPOTENCY_BENCH_PG_BATCH_SIZES ?? '1000').split(',').map(Number)) {
    for (const ratio of (process.env.IDEMPOTENCY_BENCH_PG_PAUSE_RATIOS ?? `0,${DEFAULT_PAUSE_RATIO}`).split(',').map(Number)) {
      const pacing = `pauseRatio ${ratio}${ratio === 0 ? ': batches back to back' : ratio === DEFAULT_PAUSE_RATIO ? ': the default' : ''}`;
      await job(batchSize === 1000 ? pacing : `${pacing}, batchSize ${batchSize}`, { pauseRatio: ratio, batchSize });
    }
  }
  await fill(pool, store, ROWS, true);
  await latency.during(`one DELETE of ${rows} expired rows`, () =>
    pool.query(`DELETE FROM ${store.table} WHERE status <> 'PROCESSING' AND expires_at <= clock_timestamp()`),
  );
  report.table('claim latency during cleanup (4 clients: 3 new keys, 1 expired keys; purge gated on/off in alternating windows; ratio = p99 running / p99 paused)', latency.rows());
}

const suite: BenchSuite = {
  name: 'postgres store',
  async available() {
    if (!existsSync(PGBENCH)) return `${PGBENCH} not found`;
    try {
      await probeTcp(CONNECTION.port);
      return null;
    } catch (error) {
      return `PostgreSQL not reachable (${(error as Error).message})`;
    }
  },
  async run(report) {
    const pool = new pg.Pool({ ...CONNECTION, max: 34 });
    const dir = mkdtempSync(join(tmpdir(), 'idem-pgbench-'));
    // Two stores over one table: the same statements, sent named (prepared) or unnamed.
    const store = createPostgresStore({ db: pool, schema, table: 'idempotency_store', preparedStatements: true });
    const stores = { prepared: store, extended: createPostgresStore({ db: pool, schema, table: 'idempotency_store' }) };
    try {
      await store.migrate();
      report.line(`N = ${ROWS.toLocaleString('en-US')} rows (IDEMPOTENCY_BENCH_PG_ROWS), ${SECONDS} s per throughput case; server ${(await pool.query('SHOW server_version')).rows[0]!.server_version}; runtime: ${runtimeSource}`);
      if (wantCase('throughput')) await throughputCases(report, pool, stores, dir);
      if (wantCase('size')) await sizeCases(report, pool, store);
      if (wantCase('cleanup')) await purgeCases(report, pool, store);
      if (wantCase('cleanup') || wantCase('partition-drop')) await partitionDropCase(report, pool, { rows: ROWS, fingerprint });
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default suite;
