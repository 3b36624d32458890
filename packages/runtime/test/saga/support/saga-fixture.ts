/**
 * Shared by the saga tests and their child processes: the store under test (SQLite file, a
 * PostgreSQL schema/table, or a Redis prefix), a three-step checkout saga whose every effect is a
 * row in a separate SQLite file (counted outside any process), and hooks to stall or fail it.
 */
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createIdempotency, type Idempotency } from '../../../src/core/engine.js';
import type { IdempotencyStore } from '../../../src/core/store-contract.js';
import { defineSaga, type Saga } from '../../../src/saga/define-saga.js';
import type { SagaTransitionHook } from '../../../src/saga/saga-types.js';
import { createPostgresStore } from '../../../src/stores/postgres/index.js';
import { createRedisStore } from '../../../src/stores/redis/index.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

export type StoreConfig =
  | { readonly kind: 'sqlite'; readonly filename: string }
  | { readonly kind: 'postgres'; readonly schema: string; readonly table: string }
  | { readonly kind: 'redis'; readonly prefix: string };

export interface SagaConfig {
  readonly store: StoreConfig;
  readonly effectsFile: string;
  readonly leaseMs: number;
  /** Step whose run fails permanently. */
  readonly failStep?: string;
  /** Stall inside this step's compensation, before its effect. */
  readonly hangInCompensation?: string;
  /** Milliseconds the first step takes (for the concurrency test). */
  readonly slowMs?: number;
}

/** A permanent step error: the engine stores it as FAILED and the saga compensates. */
export class PermanentStepError extends Error {
  override readonly name = 'PermanentStepError';
}

export const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' } as const;

export interface OpenedStore {
  readonly store: IdempotencyStore;
  close(): Promise<void>;
}

/** Opens (and for PostgreSQL migrates) the store a config names. */
export async function openStore(config: StoreConfig): Promise<OpenedStore> {
  if (config.kind === 'sqlite') {
    const store = createSqliteStore({ filename: config.filename });
    return { store, close: () => store.close() };
  }
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ ...PG, max: 4 });
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);
    const store = createPostgresStore({ db: pool, schema: config.schema, table: config.table });
    await store.migrate();
    return { store, close: async () => (await store.close(), await pool.end()) };
  }
  const client = new Redis({ host: '127.0.0.1', port: 6379 });
  const store = createRedisStore({ client, prefix: config.prefix });
  return { store, close: async () => (await store.close(), client.disconnect()) };
}

export interface EffectsLedger {
  record(key: string, kind: 'run' | 'compensate', step: string): void;
  /** `{ 'run:reserve': 1, 'compensate:reserve': 1, … }` for one saga key. */
  counts(key: string): Record<string, number>;
  close(): void;
}

/** The effects ledger: one row per step run or compensation that actually happened. */
export function openEffects(file: string): EffectsLedger {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS effects (key TEXT, kind TEXT, step TEXT, pid INTEGER)');
  const insert = db.prepare('INSERT INTO effects (key, kind, step, pid) VALUES (?, ?, ?, ?)');
  const count = db.prepare('SELECT kind, step, COUNT(*) AS n FROM effects WHERE key = ? GROUP BY kind, step ORDER BY kind, step');
  return {
    record: (key: string, kind: 'run' | 'compensate', step: string) => void insert.run(key, kind, step, process.pid),
    counts: (key: string) => Object.fromEntries((count.all(key) as { kind: string; step: string; n: number }[]).map((r) => [`${r.kind}:${r.step}`, r.n])),
    close: () => void db.close(),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface CheckoutInput {
  readonly orderId: string;
  readonly amount: number;
}

/** reserve → charge → confirm; every effect written to the ledger, keyed by the saga's outer key. */
export function checkoutSaga(
  config: SagaConfig,
  store: IdempotencyStore,
  effects: EffectsLedger,
  onTransition?: SagaTransitionHook,
): { saga: Saga<CheckoutInput>; idempotency: Idempotency } {
  const idempotency = createIdempotency({ store, leaseMs: config.leaseMs, isPermanent: (error) => error instanceof PermanentStepError });
  const outer = (subKey: string) => subKey.split(':')[0]!;
  const step = (name: string, extra: { slow?: boolean } = {}) => ({
    name,
    async run({ key }: { key: string }) {
      if (extra.slow && config.slowMs) await sleep(config.slowMs);
      if (config.failStep === name) throw new PermanentStepError(`${name} declined`);
      effects.record(outer(key), 'run', name);
      return { [name]: `${name}-ok` };
    },
    async compensate({ key }: { key: string }) {
      if (config.hangInCompensation === name) {
        process.send?.({ type: 'hung', state: 'IN_COMPENSATION', step: name });
        await new Promise<never>(() => {});
      }
      effects.record(outer(key), 'compensate', name);
    },
  });
  const saga = defineSaga<CheckoutInput>('checkout', [step('reserve', { slow: true }), step('charge'), { name: 'confirm', run: step('confirm').run }], {
    idempotency,
    ...(onTransition ? { onTransition } : {}),
  });
  return { saga, idempotency };
}
