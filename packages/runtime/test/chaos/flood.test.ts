/**
 * Issue 11 #1, the flood: concurrent duplicates of ONE key, lease 2 s, action 30 ms, on SQLite,
 * PostgreSQL (pool of 10), Redis (one connection), MySQL/MariaDB (pool of 10) and DynamoDB
 * (dynalite) — through one process, and across 4 processes. Invariant: exactly one execution (counted in an effects file), every other request
 * answered `in_progress` (or replayed), nothing left PROCESSING.
 *
 * Before single-flight, bounded claims and the holders' priority lane, 10^4 duplicates on
 * PostgreSQL ran the action 7 times: the holder's completion and heartbeat queued behind the
 * duplicates' claims until its lease lapsed.
 *
 * CI size: 10^4 in one process, 4 × 250 across processes. IDEMPOTENCY_CHAOS_FULL=1: 10^5 and 4 × 2,500.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createMysqlStore } from '../../src/stores/mysql/index.js';
import { createDynamoDbTable } from '../../src/stores/dynamodb/index.js';
import { startDynalite, type Dynalite } from '../stores/dynamodb-support/dynalite-server.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { deleteRunKeys, uniquePrefix } from '../stores/redis-support/prefix.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import { flood, openBackend, type FloodBackend, type FloodReport } from './support/flood.js';
import type { FloodMessage } from './support/flood-worker.js';

const FULL = process.env.IDEMPOTENCY_CHAOS_FULL === '1';
const ONE_PROCESS = FULL ? 100_000 : 10_000;
const PROCESSES = 4;
const PER_PROCESS = FULL ? 2_500 : 250;

const dir = mkdtempSync(join(tmpdir(), 'idem-flood-'));
const schema = `t_chaos_flood_${process.pid}`;
const pgAvailable = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
const redisAvailable = await serviceAvailable('Redis', () => probeTcp(6379));
const mysqlAvailable = await serviceAvailable('MariaDB/MySQL', () => probeTcp(3306));
const mysqlAdmin = mysqlAvailable ? mysql.createPool({ host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test', connectionLimit: 1 }) : undefined;
const mysqlTables: string[] = [];
// DynamoDB has no server here: a private dynalite (in this process, on a free port) stands in.
let dynalite: Dynalite | undefined;
const admin = pgAvailable ? new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 1 }) : undefined;
const redisAdmin = redisAvailable ? new Redis({ host: '127.0.0.1', port: 6379 }) : undefined;
let cases = 0;

beforeAll(async () => {
  await admin?.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  dynalite = await startDynalite();
});

afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
  if (redisAdmin) await deleteRunKeys(redisAdmin);
  redisAdmin?.disconnect();
  for (const table of mysqlTables) await mysqlAdmin?.query(`DROP TABLE IF EXISTS \`${table}\`, \`${table}_migrations\``);
  await mysqlAdmin?.end();
  await dynalite?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh backend per case: its own SQLite file, PostgreSQL table or Redis prefix. */
async function freshBackend(kind: FloodBackend['kind']): Promise<FloodBackend> {
  const id = ++cases;
  if (kind === 'sqlite') return { kind, filename: join(dir, `flood-${id}.db`) };
  if (kind === 'postgres') {
    const backend = { kind, schema, table: `flood_${id}` } as const;
    await createPostgresStore({ db: admin!, schema, table: backend.table }).migrate();
    return backend;
  }
  if (kind === 'mysql') {
    const table = `chaos_flood_${process.pid}_${id}`;
    mysqlTables.push(table);
    await createMysqlStore({ db: mysqlAdmin!, table }).migrate();
    return { kind, table };
  }
  if (kind === 'dynamodb') {
    const table = `flood_${id}`;
    await createDynamoDbTable(dynalite!.client, { table });
    return { kind, endpoint: dynalite!.endpoint, table };
  }
  return { kind, prefix: uniquePrefix(`flood${id}`) };
}

function expectExactlyOnce(effectsFile: string, reports: readonly FloodReport[], total: number): void {
  const effects = readFileSync(effectsFile, 'utf8').split('\n').filter(Boolean);
  const outcomes: Record<string, number> = {};
  for (const report of reports) for (const [outcome, count] of Object.entries(report.outcomes)) outcomes[outcome] = (outcomes[outcome] ?? 0) + count;
  expect(effects).toHaveLength(1);
  expect(outcomes.ran).toBe(1);
  // Everyone else was refused while it ran, or (a late process) got the stored result.
  expect((outcomes.in_progress ?? 0) + (outcomes.replayed ?? 0)).toBe(total - 1);
  expect(Object.keys(outcomes).filter((o) => !['ran', 'in_progress', 'replayed'].includes(o))).toEqual([]);
}

const backends = [
  { kind: 'sqlite', available: true },
  { kind: 'postgres', available: pgAvailable },
  { kind: 'redis', available: redisAvailable },
  { kind: 'mysql', available: mysqlAvailable },
  { kind: 'dynamodb', available: true },
] as const;

describe.each(backends)('flood of one key on $kind', ({ kind, available }) => {
  it.skipIf(!available)(`${ONE_PROCESS} concurrent duplicates through one process run the action once`, async () => {
    const backend = await freshBackend(kind);
    const effectsFile = join(dir, `effects-${cases}.log`);
    writeFileSync(effectsFile, '');
    const opened = await openBackend(backend);
    try {
      const report = await flood(opened.store, { backend, key: 'one-key', duplicates: ONE_PROCESS, effectsFile });
      expectExactlyOnce(effectsFile, [report], ONE_PROCESS);
      const record = await opened.store.get({ key: 'one-key', scope: 'flood' });
      expect(record?.status).toBe('COMPLETED'); // nothing left PROCESSING
      console.info(`[flood] ${kind}, 1 process: ${ONE_PROCESS} duplicates in ${report.elapsedMs} ms, outcomes ${JSON.stringify(report.outcomes)}`);
    } finally {
      await opened.close();
    }
  }, 120_000);

  it.skipIf(!available)(`${PROCESSES} × ${PER_PROCESS} duplicates across processes run the action once`, async () => {
    const backend = await freshBackend(kind);
    const effectsFile = join(dir, `effects-${cases}.log`);
    writeFileSync(effectsFile, '');
    if (kind === 'sqlite') await (await openBackend(backend)).close(); // create the schema once, before the race
    const config = { backend, key: 'one-key', duplicates: PER_PROCESS, effectsFile };
    const workers = Array.from({ length: PROCESSES }, () => spawnWorker<FloodMessage>('../../chaos/support/flood-worker.ts', config));
    try {
      await Promise.all(workers.map((w) => w.next('ready', 60_000)));
      const startAt = Date.now() + 300;
      for (const w of workers) w.child.send({ startAt });
      const reports = await Promise.all(workers.map((w) => w.next<Extract<FloodMessage, { type: 'result' }>>('result', 100_000)));
      expectExactlyOnce(effectsFile, reports.map((r) => r.report), PROCESSES * PER_PROCESS);
      const opened = await openBackend(backend);
      expect((await opened.store.get({ key: 'one-key', scope: 'flood' }))?.status).toBe('COMPLETED');
      await opened.close();
      console.info(`[flood] ${kind}, ${PROCESSES} processes × ${PER_PROCESS}: slowest ${Math.max(...reports.map((r) => r.report.elapsedMs))} ms`);
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
    }
  }, 180_000);
});
