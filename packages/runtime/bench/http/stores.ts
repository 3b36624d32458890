/** The stores the HTTP bench server runs over, each opened fresh and cleaned up after the run. */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IdempotencyStore } from '@idempotency-builder/runtime';
import { importRuntime } from '../runtime-import.js';

export const STORE_KINDS = ['memory', 'sqlite', 'postgres', 'redis'] as const;
export type BenchStoreKind = (typeof STORE_KINDS)[number];

export interface OpenedStore {
  readonly store: IdempotencyStore;
  /** How it is configured, for the report. */
  readonly description: string;
  cleanup(): Promise<void>;
}

/**
 * Opens a store. SQLite: a fresh file in a temp directory, WAL with `synchronous = NORMAL`
 * (docs/stores/sqlite.md: survives a crashed process; FULL would measure the disk's fsync rate).
 * @example const { store, cleanup } = await openStore('sqlite');
 */
export async function openStore(kind: BenchStoreKind): Promise<OpenedStore> {
  if (kind === 'memory') {
    const { createMemoryStore } = await importRuntime<typeof import('@idempotency-builder/runtime/memory')>('memory');
    return { store: createMemoryStore(), description: 'memory store', cleanup: async () => {} };
  }
  if (kind === 'sqlite') {
    const { createSqliteStore } = await importRuntime<typeof import('@idempotency-builder/runtime/sqlite')>('sqlite');
    const dir = mkdtempSync(join(tmpdir(), 'http-bench-'));
    const store = createSqliteStore({ filename: join(dir, 'idem.db'), synchronous: 'NORMAL' });
    await store.ready;
    return { store, description: 'SQLite store (temp file, WAL, synchronous=NORMAL)', cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (kind === 'postgres') {
    const [{ createPostgresStore }, { default: pg }] = await Promise.all([
      importRuntime<typeof import('@idempotency-builder/runtime/postgres')>('postgres'),
      import('pg'),
    ]);
    const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 16 });
    const schema = `bench_http_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await pool.query(`CREATE SCHEMA ${schema}`);
    const store = createPostgresStore({ db: pool, schema });
    await store.migrate();
    return {
      store,
      description: 'PostgreSQL store (local server, pool of 16)',
      cleanup: async () => {
        await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        await pool.end();
      },
    };
  }
  const [{ createRedisStore }, { Redis }] = await Promise.all([importRuntime<typeof import('@idempotency-builder/runtime/redis')>('redis'), import('ioredis')]);
  const client = new Redis({ host: '127.0.0.1', port: 6379 });
  const prefix = `bench-http-${randomUUID().slice(0, 8)}:`;
  return {
    store: createRedisStore({ client, prefix }),
    description: 'Redis store (local server, ioredis)',
    cleanup: async () => {
      for await (const keys of client.scanStream({ match: `*${prefix}*`, count: 1000 })) if ((keys as string[]).length) await client.del(...(keys as string[]));
      client.disconnect();
    },
  };
}
