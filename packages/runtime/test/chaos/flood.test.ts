/**
 * Issue 11 #1, the flood: concurrent duplicates of ONE key, lease 2 s, action 30 ms, on SQLite,
 * PostgreSQL (pool of 10) and Redis (one connection) — through one process, and across 4
 * processes. Invariant: exactly one execution (counted in an effects file), every other request
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
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { deletePrefix, uniquePrefix } from '../stores/redis-support/prefix.js';
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
const admin = pgAvailable ? new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 1 }) : undefined;
const redisAdmin = redisAvailable ? new Redis({ host: '127.0.0.1', port: 6379 }) : undefined;
const prefixes: string[] = [];
let cases = 0;

beforeAll(async () => {
  await admin?.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
});

afterAll(async () => {
  await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin?.end();
  for (const prefix of prefixes) if (redisAdmin) await deletePrefix(redisAdmin, prefix);
  redisAdmin?.disconnect();
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
  const prefix = uniquePrefix(`flood${id}`);
  prefixes.push(prefix);
  return { kind, prefix };
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
