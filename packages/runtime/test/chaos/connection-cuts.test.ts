/**
 * Connections cut by a TCP proxy inside the test, between the store client and PostgreSQL /
 * Redis, while distinct intents run and retry. Invariants: one counted side effect per intent,
 * every intent recorded COMPLETED (no key left PROCESSING), the errors met are the typed ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { createPostgresStore } from '../../src/stores/postgres/index.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { deletePrefix, uniquePrefix } from '../stores/redis-support/prefix.js';
import { driveIntents, effectsByKey } from './support/intents.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

const FULL = process.env.IDEMPOTENCY_CHAOS_FULL === '1';
const INTENTS = FULL ? 400 : 40;
const CUTS = FULL ? 10 : 3;
const dir = mkdtempSync(join(tmpdir(), 'idem-cuts-'));
const pgAvailable = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
const redisAvailable = await serviceAvailable('Redis', () => probeTcp(6379));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const cleanups: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

async function scenario(label: string, store: IdempotencyStore, proxy: TcpProxy): Promise<void> {
  const effectsFile = join(dir, `${label}.log`);
  writeFileSync(effectsFile, '');
  const idempotency = createIdempotency({ store, leaseMs: 500, ttlMs: 60_000, storeTimeoutMs: 2_000 });
  let cut = 0;
  const cutter = (async () => {
    for (let i = 0; i < CUTS; i++) {
      await sleep(1_200 / (CUTS + 1));
      cut += proxy.cut();
    }
  })();
  const report = await driveIntents(idempotency, { prefix: label, count: INTENTS, effectsFile, actionMs: 60, staggerMs: Math.ceil(1_200 / INTENTS) });
  await cutter;
  const effects = effectsByKey(effectsFile);
  expect(effects.size).toBe(INTENTS);
  expect([...effects.values()].filter((n) => n !== 1)).toEqual([]);
  for (let i = 0; i < INTENTS; i++) expect((await store.get({ key: `${label}-${i}`, scope: 'chaos' }))?.status).toBe('COMPLETED');
  expect(Object.keys(report.codes).filter((code) => code.startsWith('unexpected'))).toEqual([]);
  expect(cut).toBeGreaterThan(0);
  console.info(`[cuts] ${label}: ${INTENTS} intents, ${cut} connections cut, ${report.attempts} attempts, codes ${JSON.stringify(report.codes)}`);
}

describe('connections cut between the store client and its server', () => {
  it.skipIf(!pgAvailable)('PostgreSQL (pool 10 + holder pool 2, both through the proxy)', async () => {
    const proxy = await startTcpProxy(5432);
    const connection = { host: '127.0.0.1', port: proxy.port, user: 'postgres', database: 'test' };
    const pool = new pg.Pool({ ...connection, max: 10 });
    const holderPool = new pg.Pool({ ...connection, max: 2 });
    for (const p of [pool, holderPool]) p.on('error', () => {}); // idle clients cut by the proxy report here
    const schema = `t_chaos_cuts_${process.pid}`;
    const admin = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 1 });
    cleanups.push(() => proxy.close(), () => pool.end(), () => holderPool.end(), async () => (await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`), await admin.end()));
    await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const store = createPostgresStore({ db: pool, holderDb: holderPool, schema, table: 'cuts' });
    await createPostgresStore({ db: admin, schema, table: 'cuts' }).migrate();
    await scenario('pg', store, proxy);
  }, 60_000);

  it.skipIf(!redisAvailable)('Redis (one connection through the proxy, reconnecting)', async () => {
    const proxy = await startTcpProxy(6379);
    const client = new Redis({ host: '127.0.0.1', port: proxy.port, maxRetriesPerRequest: 1, retryStrategy: () => 20 });
    client.on('error', () => {}); // reconnect noise after each cut is expected
    const prefix = uniquePrefix('cuts');
    const admin = new Redis({ host: '127.0.0.1', port: 6379 });
    cleanups.push(() => proxy.close(), async () => client.disconnect(), async () => (await deletePrefix(admin, prefix), admin.disconnect()));
    await scenario('redis', createRedisStore({ client, prefix }), proxy);
  }, 60_000);
});
