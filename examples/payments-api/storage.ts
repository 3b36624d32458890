/**
 * Picks where idempotency records and payments live, from the environment:
 *   REDIS_URL    -> idempotency records in Redis
 *   DATABASE_URL -> payments (and, without REDIS_URL, idempotency records) in PostgreSQL
 *   neither      -> both in one SQLite file, SQLITE_FILE (default ./payments.db)
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import type { IdempotencyStore } from '@idempotency-builder/runtime';
import { createPostgresStore } from '@idempotency-builder/runtime/postgres';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { postgresLedger, sqliteLedger, type Ledger } from './ledger.js';

export interface Storage {
  readonly store: IdempotencyStore;
  readonly ledger: Ledger;
  /** One line for the startup log: which backends are in use. */
  readonly description: string;
  close(): Promise<void>;
}

export async function openStorage(env: NodeJS.ProcessEnv = process.env): Promise<Storage> {
  const closers: (() => Promise<unknown> | unknown)[] = [];
  let ledger: Ledger;
  let store: IdempotencyStore | undefined;
  const parts: string[] = [];

  if (env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
    closers.push(() => pool.end());
    ledger = await postgresLedger(pool);
    parts.push('payments: postgresql');
    if (!env.REDIS_URL) {
      const postgresStore = createPostgresStore({ db: pool });
      await postgresStore.migrate();
      store = postgresStore;
      parts.push('idempotency: postgresql');
    }
  } else {
    const filename = env.SQLITE_FILE ?? 'payments.db';
    ledger = sqliteLedger(filename);
    parts.push(`payments: sqlite ${filename}`);
    if (!env.REDIS_URL) {
      const sqliteStore = createSqliteStore({ filename });
      await sqliteStore.ready;
      store = sqliteStore;
      parts.push(`idempotency: sqlite ${filename}`);
    }
  }
  if (env.REDIS_URL) {
    const client = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
    closers.push(() => client.quit());
    store = createRedisStore({ client });
    parts.push('idempotency: redis');
  }
  const finalStore = store!;
  return {
    store: finalStore,
    ledger,
    description: parts.join(', '),
    async close() {
      await finalStore.close();
      await ledger.close();
      for (const close of closers.reverse()) await close();
    },
  };
}
