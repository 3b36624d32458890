/**
 * Opens the runtime's own store over the application's database, with the driver installed in
 * the user's project (resolved from the working directory): the CLI brings no database driver.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { IdempotencyStore } from '@idempotency-builder/runtime';
import { StoreTargetError, type StoreTarget } from './store-target.js';

export interface OpenedStore {
  readonly store: IdempotencyStore;
  /** Closes the store and the connection the CLI opened for it. */
  close(): Promise<void>;
}

/** Loads a driver (or SDK) from the user's project first, then from wherever the CLI is installed. */
export function loadDriver<T>(name: string, cwd: string): T {
  for (const from of [join(cwd, 'package.json'), import.meta.url]) {
    try {
      return createRequire(from)(name) as T;
    } catch {
      // try the next place
    }
  }
  throw new StoreTargetError(`The ${name} driver is not installed here: run the command in your service's directory, or npm install ${name}.`);
}

/**
 * Opens the store the target names.
 * @example const { store, close } = await openStore(resolveStoreTarget({ store: 'sqlite:./idem.db' }));
 */
export async function openStore(target: StoreTarget, cwd = process.cwd()): Promise<OpenedStore> {
  if (target.kind === 'sqlite') {
    const { createSqliteStore } = await import('@idempotency-builder/runtime/sqlite');
    const Database = loadDriver<new (file: string, options: { fileMustExist: boolean }) => unknown>('better-sqlite3', cwd);
    let database: { close(): void };
    try {
      database = new Database(target.filename!, { fileMustExist: true }) as { close(): void };
    } catch (error) {
      throw new StoreTargetError(`Cannot open ${target.filename}: ${(error as Error).message}`);
    }
    const store = createSqliteStore({ database: database as never, createSchema: false, ...(target.table ? { table: target.table } : {}) });
    return { store, close: async () => { await store.close(); database.close(); } };
  }
  if (target.kind === 'postgres') {
    const { createPostgresStore } = await import('@idempotency-builder/runtime/postgres');
    const pg = loadDriver<{ Pool: new (options: { connectionString: string; max: number }) => { end(): Promise<void> } }>('pg', cwd);
    const pool = new pg.Pool({ connectionString: target.url, max: 2 });
    const store = createPostgresStore({ db: pool as never, ...(target.schema ? { schema: target.schema } : {}), ...(target.table ? { table: target.table } : {}) });
    return { store, close: async () => { await store.close(); await pool.end(); } };
  }
  const { createRedisStore } = await import('@idempotency-builder/runtime/redis');
  const ioredis = loadDriver<{ Redis: new (url: string, options: object) => { quit(): Promise<unknown>; connect(): Promise<void> } }>('ioredis', cwd);
  const client = new ioredis.Redis(target.url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  try {
    await client.connect();
  } catch (error) {
    throw new StoreTargetError(`Cannot connect to Redis: ${(error as Error).message}`);
  }
  const store = createRedisStore({ client: client as never, ...(target.prefix ? { prefix: target.prefix } : {}) });
  return { store, close: async () => { await store.close(); await client.quit(); } };
}
