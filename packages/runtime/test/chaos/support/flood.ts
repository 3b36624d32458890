/**
 * The flood: N concurrent duplicates of ONE key through one engine, lease 2 s, action 30 ms.
 * Shared by the in-process cases (flood.test.ts) and the worker processes (flood-worker.ts).
 * The action appends one line per execution to an effects file: the side effect the parent counts.
 */
import { appendFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createIdempotency } from '../../../src/core/engine.js';
import { IdempotencyError } from '../../../src/core/errors.js';
import { fingerprintFields } from '../../../src/core/fingerprint.js';
import type { IdempotencyStore } from '../../../src/core/store-contract.js';
import { createPostgresStore } from '../../../src/stores/postgres/index.js';
import { createRedisStore } from '../../../src/stores/redis/index.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';
import { createMysqlStore } from '../../../src/stores/mysql/index.js';
import { createDynamoDbStore } from '../../../src/stores/dynamodb/index.js';

export const FLOOD_LEASE_MS = 2_000;
export const FLOOD_ACTION_MS = 30;

export type FloodBackend =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | { readonly kind: 'postgres'; readonly schema: string; readonly table: string }
  | { readonly kind: 'redis'; readonly prefix: string; readonly port?: number }
  | { readonly kind: 'mysql'; readonly table: string }
  | { readonly kind: 'dynamodb'; readonly endpoint: string; readonly table: string };

export interface FloodConfig {
  readonly backend: FloodBackend;
  readonly key: string;
  readonly duplicates: number;
  readonly effectsFile: string;
}

export interface FloodReport {
  /** Outcome code -> count: `ran`, `replayed`, or an error code (`in_progress`, …). */
  readonly outcomes: Record<string, number>;
  readonly elapsedMs: number;
}

/**
 * Opens the backend as the issue describes it: SQLite file, a pg pool of 10, ONE Redis connection;
 * and a mysql2 pool of 10, one DynamoDB client (a private dynalite the test file started).
 */
export async function openBackend(backend: FloodBackend): Promise<{ store: IdempotencyStore; close(): Promise<void> }> {
  if (backend.kind === 'sqlite') {
    const store = createSqliteStore({ filename: backend.filename, busyTimeoutMs: 30_000 });
    await store.ready;
    return { store, close: () => store.close() };
  }
  if (backend.kind === 'postgres') {
    const pool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 10 });
    const holderPool = new pg.Pool({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test', max: 2 });
    const store = createPostgresStore({ db: pool, holderDb: holderPool, schema: backend.schema, table: backend.table });
    return { store, close: async () => (await pool.end(), await holderPool.end()) };
  }
  if (backend.kind === 'mysql') {
    const pool = mysql.createPool({ host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test', connectionLimit: 10 });
    // Claims capped below the pool size: holders' writes always find a free connection.
    const store = createMysqlStore({ db: pool, table: backend.table, maxConcurrentClaims: 8 });
    return { store, close: async () => void (await pool.end()) };
  }
  if (backend.kind === 'dynamodb') {
    const client = new DynamoDBClient({ endpoint: backend.endpoint, region: 'local', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const store = createDynamoDbStore({ client, table: backend.table });
    return { store, close: async () => client.destroy() };
  }
  const client = new Redis({ host: '127.0.0.1', port: backend.port ?? 6379 });
  const store = createRedisStore({ client, prefix: backend.prefix });
  return { store, close: async () => void client.disconnect() };
}

/**
 * Fires `duplicates` concurrent run() calls of one key at `startAt` (wall clock) and counts outcomes.
 * @example const report = await flood(store, { key, duplicates: 10_000, effectsFile, backend });
 */
export async function flood(store: IdempotencyStore, config: FloodConfig, startAt = Date.now()): Promise<FloodReport> {
  const idempotency = createIdempotency({ store, leaseMs: FLOOD_LEASE_MS, ttlMs: 60_000 });
  const fingerprint = fingerprintFields(['flood', 1]);
  const outcomes: Record<string, number> = {};
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
  const started = performance.now();
  await Promise.all(
    Array.from({ length: config.duplicates }, async () => {
      let outcome: string;
      try {
        const { replayed } = await idempotency.run({ key: config.key, scope: 'flood', fingerprint }, async () => {
          appendFileSync(config.effectsFile, `${process.pid}\n`);
          await new Promise((resolve) => setTimeout(resolve, FLOOD_ACTION_MS));
          return { by: process.pid };
        });
        outcome = replayed ? 'replayed' : 'ran';
      } catch (error) {
        outcome = error instanceof IdempotencyError ? error.code : `unexpected: ${String(error)}`;
      }
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    }),
  );
  return { outcomes, elapsedMs: Math.round(performance.now() - started) };
}
