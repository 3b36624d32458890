/**
 * The MySQL/MariaDB store: InnoDB, the database server's clock (UTC_TIMESTAMP(3)) for every lease
 * and expiry, one atomic upsert per claim plus its read-back, fenced single-statement writes.
 * Works over any `MysqlQueryable` — a mysql2 Pool, a connection inside your transaction, knex.
 */
import { randomBytes } from 'node:crypto';
import { InvalidOptionsError, StoreUnavailableError } from '../../core/errors.js';
import { positiveInteger } from '../../core/options.js';
import type { ClaimInput, ClaimResult, FencedResult, FinishInput, IdempotencyStore } from '../../core/store-contract.js';
import { createClaimGate, type ClaimGate } from './claim-gate.js';
import { migrateMysql } from './migrations.js';
import {
  ER_LOCK_DEADLOCK,
  mysqlErrno,
  type MysqlPoolConnectionLike,
  type MysqlPoolLike,
  type MysqlQueryable,
  type MysqlResultHeader,
  type MysqlRow,
} from './queryable.js';
import { responseValues, toMysqlRecord, toNumber } from './row-mapping.js';
import { mysqlTableNames, type MysqlTableNames } from './schema.js';
import { bindValues, mysqlStatements, purgeDelete, type MysqlStatement, type MysqlStatements } from './sql.js';

export interface MysqlStoreOptions {
  /** Runs the statements: a mysql2/promise Pool (the store never ends it), a connection, knex via knexMysqlQueryable. */
  readonly db: MysqlQueryable;
  /** Default: the connection's database. A plain SQL name. */
  readonly database?: string;
  /** Default `idempotency_store`. A plain SQL name. */
  readonly table?: string;
  /** `exact` (COUNT(*), default) or `estimate` (information_schema TABLE_ROWS, O(1) and rough). */
  readonly sizeMode?: 'exact' | 'estimate';
  /**
   * Send the claim's upsert and read-back as ONE multi-statement call (one round trip). Needs a
   * pool created with `multipleStatements: true`. Default false: two round trips, proven equally
   * safe (docs/stores/mysql.md).
   */
  readonly multiStatement?: boolean;
  /**
   * Claims this store sends at once at most; the rest wait in the store, not in the pool. Set it
   * below the pool size so heartbeats and completions always find a free connection during a
   * flood of duplicates. Default: no bound.
   */
  readonly maxConcurrentClaims?: number;
  /**
   * How often one claim re-runs after a deadlock or after its read-back found the row gone (a
   * holder released it in between). Default 8.
   */
  readonly claimAttempts?: number;
}

export interface MysqlStore extends IdempotencyStore {
  /** Qualified, quoted table name. */
  readonly table: string;
  readonly names: MysqlTableNames;
  /** Applies missing migrations (migrations.ts) under GET_LOCK. Never runs by itself. */
  migrate(): Promise<void>;
  /**
   * The same store over another queryable — a connection inside the caller's transaction. Such a
   * view never retries a claim after a deadlock (the deadlock rolled the caller's transaction
   * back) and sends the claim as two statements.
   */
  withDb(db: MysqlQueryable, options?: { readonly inTransaction?: boolean }): MysqlStore;
}

/** Sent before each purge DELETE: the next transaction (the autocommit DELETE) runs without gap locks. */
export const PURGE_ISOLATION = 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED';

type Operation = 'claim' | 'complete' | 'fail' | 'release' | 'extend' | 'get' | 'purgeExpired' | 'listStuck' | 'forceRelease' | 'size' | 'now' | 'migrate';

interface Shared {
  readonly names: MysqlTableNames;
  readonly sql: MysqlStatements;
  readonly sizeMode: 'exact' | 'estimate';
  readonly multiStatement: boolean;
  readonly claimAttempts: number;
  readonly gate: ClaimGate;
  readonly state: { closed: boolean };
}

/**
 * Creates the store. Options are checked here, once. The table must exist: call `migrate()`, or
 * apply `mysqlSchemaSql()` with your own tooling.
 * @example
 * import mysql from 'mysql2/promise';
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createMysqlStore } from '@idempotency-builder/runtime/mysql';
 * const pool = mysql.createPool({ host: '127.0.0.1', user: 'app', database: 'app', connectionLimit: 10 });
 * const store = createMysqlStore({ db: pool, maxConcurrentClaims: 8 });
 * await store.migrate();
 * const idempotency = createIdempotency({ store, leaseMs: 10_000 });
 */
export function createMysqlStore(options: MysqlStoreOptions): MysqlStore {
  const { db, database, table = 'idempotency_store', sizeMode = 'exact', multiStatement = false } = options ?? {};
  checkQueryable(db);
  if (sizeMode !== 'exact' && sizeMode !== 'estimate') {
    throw new InvalidOptionsError(`Option "sizeMode" must be "exact" or "estimate"; got ${String(sizeMode)}.`);
  }
  if (typeof multiStatement !== 'boolean') throw new InvalidOptionsError('Option "multiStatement" must be a boolean.');
  const claimAttempts = positiveInteger('claimAttempts', options.claimAttempts ?? 8);
  const maxClaims = options.maxConcurrentClaims === undefined ? Infinity : positiveInteger('maxConcurrentClaims', options.maxConcurrentClaims);
  const names = mysqlTableNames(database, table);
  const shared: Shared = {
    names,
    sql: mysqlStatements(names.qualified),
    sizeMode,
    multiStatement,
    claimAttempts,
    gate: createClaimGate(maxClaims),
    state: { closed: false },
  };
  return bind(db, false, shared);
}

function checkQueryable(db: unknown): asserts db is MysqlQueryable {
  if (typeof (db as MysqlQueryable | null)?.query !== 'function') {
    throw new InvalidOptionsError('Option "db" must have a query(sql, values) method (a mysql2/promise Pool or connection, or knexMysqlQueryable(knex)).');
  }
}

function bind(db: MysqlQueryable, inTransaction: boolean, shared: Shared): MysqlStore {
  const { names, sql, state } = shared;
  // Inside the caller's transaction a claim may wait for another transaction's row lock; it must
  // not hold a slot of the gate meanwhile (the gate is for autocommit floods).
  const gate = inTransaction ? createClaimGate(Infinity) : shared.gate;

  /** Every driver failure leaves as StoreUnavailableError, its cause kept (errno, message). */
  async function run(operation: Operation, stmt: MysqlStatement, values: Record<string, unknown> = {}): Promise<unknown> {
    if (state.closed) throw new StoreUnavailableError(operation, new Error('The MySQL store is closed.'));
    try {
      return (await db.query(stmt.text, bindValues(stmt, values)))[0];
    } catch (error) {
      throw new StoreUnavailableError(operation, error);
    }
  }
  const rowsOf = (result: unknown) => result as MysqlRow[];
  const applied = (result: unknown): FencedResult => ((result as MysqlResultHeader).affectedRows === 1 ? 'applied' : 'lost');

  const finishAs = (operation: 'complete' | 'fail', status: 'COMPLETED' | 'FAILED') => async (input: FinishInput) =>
    applied(
      await run(operation, sql.finish, {
        ...responseValues(input.response),
        status,
        ttlUs: Math.round(input.ttlMs * 1000),
        key: input.key,
        scope: input.scope,
        lockVersion: input.lockVersion,
      }),
    );

  /** One attempt: the upsert, then (same call or next) the read-back. Null when the row vanished in between. */
  async function claimOnce(input: ClaimInput): Promise<ClaimResult | null> {
    const nonce = randomBytes(16).toString('hex');
    const id = { key: input.key, scope: input.scope };
    const upsertValues = {
      ...id,
      owner: input.owner,
      fingerprint: input.fingerprint,
      leaseUs: Math.round(input.leaseMs * 1000),
      ttlUs: Math.round(input.ttlMs * 1000),
      nonce,
      replaceExpired: input.replaceExpired ? 1 : 0,
    };
    let rows: MysqlRow[];
    if (shared.multiStatement && !inTransaction) {
      const both = { text: `${sql.claimUpsert.text};\n${sql.claimRead.text}`, params: [...sql.claimUpsert.params, ...sql.claimRead.params] };
      rows = rowsOf((await run('claim', both, upsertValues) as unknown[])[1]);
    } else {
      await run('claim', sql.claimUpsert, upsertValues);
      rows = rowsOf(await run('claim', sql.claimRead, id));
    }
    const row = rows[0];
    if (!row) return null;
    const record = toMysqlRecord(row);
    const token = String(row.claim_token ?? '');
    if (token.length === 33 && token.startsWith(nonce)) {
      const kind = token[32];
      return { outcome: 'claimed', lockVersion: record.lockVersion, reclaimed: kind === 'R', replacedExpired: kind === 'E', lockedUntil: record.lockedUntil! };
    }
    return { outcome: 'existing', record, now: toNumber(row.now_ms) };
  }

  /**
   * The DELETE of one purge batch, at READ COMMITTED whatever the session's level: under
   * REPEATABLE READ InnoDB takes next-key (gap) locks even for a primary-key IN list, and an
   * insert of a new key into such a gap — a claim — would wait for the batch. SET TRANSACTION
   * belongs to a session, so both statements go to one connection (checked out of a pool).
   */
  async function purgeBatch(stmt: MysqlStatement, values: Record<string, unknown>): Promise<number> {
    if (state.closed) throw new StoreUnavailableError('purgeExpired', new Error('The MySQL store is closed.'));
    const pooled = typeof (db as Partial<MysqlPoolLike>).getConnection === 'function';
    try {
      const connection = pooled ? await (db as MysqlPoolLike).getConnection() : db;
      try {
        if (!inTransaction) await connection.query(PURGE_ISOLATION);
        return ((await connection.query(stmt.text, bindValues(stmt, values)))[0] as MysqlResultHeader).affectedRows;
      } finally {
        if (pooled) (connection as MysqlPoolConnectionLike).release();
      }
    } catch (error) {
      throw new StoreUnavailableError('purgeExpired', error);
    }
  }

  async function claim(input: ClaimInput): Promise<ClaimResult> {
    return gate.run(async () => {
      for (let attempt = 1; attempt <= shared.claimAttempts; attempt++) {
        try {
          const result = await claimOnce(input);
          if (result) return result;
        } catch (error) {
          // A deadlock rolled back only this autocommit statement: run it again. Inside the
          // caller's transaction it rolled back the whole transaction, so the caller must retry.
          if (inTransaction || mysqlErrno((error as { cause?: unknown }).cause) !== ER_LOCK_DEADLOCK) throw error;
        }
      }
      throw new StoreUnavailableError('claim', new Error(`The claim neither won nor found the record in ${shared.claimAttempts} attempts (the key kept changing).`));
    });
  }

  return {
    table: names.qualified,
    names,
    claim,
    complete: finishAs('complete', 'COMPLETED'),
    fail: finishAs('fail', 'FAILED'),
    release: async ({ key, scope, lockVersion }) => applied(await run('release', sql.release, { key, scope, lockVersion })),
    extend: async ({ key, scope, lockVersion, leaseMs }) =>
      applied(await run('extend', sql.extend, { key, scope, lockVersion, leaseUs: Math.round(leaseMs * 1000) })),
    async get({ key, scope }) {
      const row = rowsOf(await run('get', sql.get, { key, scope }))[0];
      return row ? toMysqlRecord(row) : null;
    },
    async purgeExpired(batchSize) {
      positiveInteger('batchSize', batchSize);
      const candidates = rowsOf(await run('purgeExpired', sql.purgeCandidates, { limit: batchSize }));
      if (candidates.length === 0) return 0;
      const values: Record<string, unknown> = {};
      candidates.forEach((row, i) => {
        values[`key${i}`] = row.idempotency_key;
        values[`scope${i}`] = row.user_id;
      });
      return purgeBatch(purgeDelete(names.qualified, candidates.length), values);
    },
    async listStuck({ olderThanMs, limit }) {
      return rowsOf(await run('listStuck', sql.listStuck, { olderUs: Math.round(olderThanMs * 1000), limit })).map(toMysqlRecord);
    },
    async forceRelease({ key, scope }) {
      return applied(await run('forceRelease', sql.forceRelease, { key, scope })) === 'applied';
    },
    async size() {
      const rows = rowsOf(
        shared.sizeMode === 'exact'
          ? await run('size', sql.sizeExact)
          : await run('size', sql.sizeEstimate, { database: names.database ?? null, table: names.table }),
      );
      return toNumber(rows[0]?.n ?? 0);
    },
    async now() {
      return toNumber(rowsOf(await run('now', sql.now))[0]?.now_ms);
    },
    async migrate() {
      if (state.closed) throw new StoreUnavailableError('migrate', new Error('The MySQL store is closed.'));
      try {
        await migrateMysql(db, { ...(names.database === undefined ? {} : { database: names.database }), table: names.table });
      } catch (error) {
        throw new StoreUnavailableError('migrate', error);
      }
    },
    withDb(other, viewOptions) {
      checkQueryable(other);
      return bind(other, viewOptions?.inTransaction ?? true, shared);
    },
    async close() {
      state.closed = true;
    },
  };
}
