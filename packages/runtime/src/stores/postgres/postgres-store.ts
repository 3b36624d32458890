/**
 * The PostgreSQL store: the spec's reference schema, one statement per operation, the database
 * server's clock for every lease and expiry. Works over any `PgQueryable` — a pg Pool, a Client
 * inside your transaction, PGlite, or an ORM's raw connection.
 */
import { InvalidOptionsError, StoreUnavailableError } from '../../core/errors.js';
import { positiveInteger } from '../../core/options.js';
import type { ClaimInput, ClaimResult, FencedResult, FinishInput, IdempotencyStore } from '../../core/store-contract.js';
import { migrate } from './migrations.js';
import { statementName, type PgPreparingQueryable, type PgQueryable, type PgQueryResult } from './queryable.js';
import { responseParams, toNumber, toRecord, type RecordRow } from './row-mapping.js';
import { tableNames, type PostgresLayout, type TableNames } from './schema.js';
import { storeStatements, transactionalClaim, type PostgresStatements } from './sql.js';

export interface PostgresStoreOptions {
  /** Runs the statements: a pg Pool (the store never ends it), a Client, PGlite, … */
  readonly db: PgQueryable;
  /** Default `public`. A plain SQL name. */
  readonly schema?: string;
  /** Default `idempotency_store`. A plain SQL name. */
  readonly table?: string;
  /** `plain` (default) or `partitioned` (range on created_at, see docs/stores/postgres.md). */
  readonly layout?: PostgresLayout;
  /** Also keep plain JSON bodies readable in the spec's `response_body JSONB`. Default true. */
  readonly jsonBody?: boolean;
  /** `exact` (count(*), default) or `estimate` (planner statistics, O(1) on big tables). */
  readonly sizeMode?: 'exact' | 'estimate';
  /**
   * Send statements as named prepared statements (node-postgres `{ name, text, values }`), so
   * each connection plans them once: the claim's plan costs more than its execution (see
   * docs/stores/postgres.md). Needs a pg Pool or Client; not PGlite, not knex, and not PgBouncer
   * in transaction mode before 1.21. Default false.
   */
  readonly preparedStatements?: boolean;
  /**
   * How often one claim re-runs its statement when it met the READ COMMITTED gap (a concurrent
   * claim committed the key after the statement's snapshot). Default 8; one re-run settles it
   * unless the key is claimed and released again in between.
   */
  readonly claimAttempts?: number;
  /**
   * The priority lane: a small separate pool (or client) for the holders' own writes — complete,
   * fail, release, extend — so they never wait in `db`'s queue behind other requests' claims (a
   * flood of duplicates must not let a live holder's lease lapse). E.g. `new pg.Pool({ max: 2 })`.
   * Default: `db`.
   */
  readonly holderDb?: PgQueryable;
}

export interface PostgresStore extends IdempotencyStore {
  /** Qualified, quoted table name. */
  readonly table: string;
  readonly layout: PostgresLayout;
  /** Applies missing migrations (migrations.ts). Never runs by itself. */
  migrate(): Promise<void>;
  /**
   * The same store over another queryable — typically a client inside the caller's transaction,
   * so the claim and the completion commit or roll back with the caller's own writes. Prepared
   * statements only when asked here (the other queryable may be knex or PGlite).
   */
  withDb(db: PgQueryable, options?: WithDbOptions): PostgresStore;
}

export interface WithDbOptions {
  readonly preparedStatements?: boolean;
  /**
   * Transactional mode's run (transactional.ts): the view's claim also makes the run's
   * transaction-local settings in the same statement (sql.ts, transactionalClaim) — the claim's
   * lock_timeout, e.g. '5000ms', and the run's marker — instead of a statement of their own.
   */
  readonly transactionRun?: { readonly lockTimeout: string; readonly marker: string };
}

type Operation = 'claim' | 'complete' | 'fail' | 'release' | 'extend' | 'get' | 'purgeExpired' | 'listStuck' | 'forceRelease' | 'size' | 'now' | 'migrate';

/**
 * Creates the store. Options are checked here, once. The table must exist: call `migrate()`, or
 * apply `migrationSql()` with your own tooling.
 * @example
 * import pg from 'pg';
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createPostgresStore } from '@idempotency-builder/runtime/postgres';
 * const store = createPostgresStore({ db: new pg.Pool(), schema: 'billing' });
 * await store.migrate();
 * const idempotency = createIdempotency({ store, leaseMs: 10_000 });
 */
export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const { db, schema = 'public', table = 'idempotency_store', layout = 'plain', jsonBody = true, sizeMode = 'exact' } = options ?? {};
  checkQueryable(db);
  if (layout !== 'plain' && layout !== 'partitioned') {
    throw new InvalidOptionsError(`Option "layout" must be "plain" or "partitioned"; got ${String(layout)}.`);
  }
  if (sizeMode !== 'exact' && sizeMode !== 'estimate') {
    throw new InvalidOptionsError(`Option "sizeMode" must be "exact" or "estimate"; got ${String(sizeMode)}.`);
  }
  const claimAttempts = positiveInteger('claimAttempts', options.claimAttempts ?? 8);
  const names = tableNames(schema, table);
  const sql = storeStatements(names, layout);
  const claimInTransaction = transactionalClaim(names, layout);
  const statementNames = new Map([...Object.values(sql), claimInTransaction].map((text) => [text, statementName(text)]));
  const state = { closed: false };
  if (options.holderDb !== undefined) checkQueryable(options.holderDb);
  return bind(
    db,
    { preparedStatements: options.preparedStatements === true },
    { names, sql, claimInTransaction, statementNames, layout, jsonBody, sizeMode, claimAttempts, state },
    options.holderDb,
  );
}

interface Shared {
  readonly names: TableNames;
  readonly sql: PostgresStatements;
  /** Transactional mode's claim (WithDbOptions.transactionRun). */
  readonly claimInTransaction: string;
  readonly statementNames: ReadonlyMap<string, string>;
  readonly layout: PostgresLayout;
  readonly jsonBody: boolean;
  readonly sizeMode: 'exact' | 'estimate';
  readonly claimAttempts: number;
  /** Shared by every `withDb` view: closing the store closes them all. */
  readonly state: { closed: boolean };
}

function checkQueryable(db: unknown): asserts db is PgQueryable {
  if (typeof (db as PgQueryable | null)?.query !== 'function') {
    throw new InvalidOptionsError('Option "db" must have a query(text, values) method (a pg Pool or Client, PGlite, …).');
  }
}

const HOLDER_WRITES: ReadonlySet<Operation> = new Set(['complete', 'fail', 'release', 'extend']);

function bind(db: PgQueryable, view: WithDbOptions, shared: Shared, holderDb: PgQueryable = db): PostgresStore {
  const { names, sql, state, statementNames } = shared;
  const prepared = view.preparedStatements === true;
  const { transactionRun } = view;
  const claimText = transactionRun ? shared.claimInTransaction : sql.claim;

  /** Every driver failure leaves as StoreUnavailableError, its cause kept (SQLSTATE, message). */
  async function run(operation: Operation, text: string, values: unknown[]): Promise<PgQueryResult> {
    if (state.closed) throw new StoreUnavailableError(operation, new Error('The PostgreSQL store is closed.'));
    const via = HOLDER_WRITES.has(operation) ? holderDb : db;
    try {
      return prepared
        ? await (via as PgPreparingQueryable).query({ name: statementNames.get(text)!, text, values })
        : await via.query(text, values);
    } catch (error) {
      throw new StoreUnavailableError(operation, error);
    }
  }

  const applied = (result: PgQueryResult): FencedResult => (result.rows.length === 1 ? 'applied' : 'lost');

  const finishAs = (operation: 'complete' | 'fail', status: 'COMPLETED' | 'FAILED') => async (input: FinishInput) =>
    applied(
      await run(operation, sql.finish, [
        input.key,
        input.scope,
        input.lockVersion,
        status,
        ...responseParams(input.response, shared.jsonBody),
        input.ttlMs,
      ]),
    );

  async function claim(input: ClaimInput): Promise<ClaimResult> {
    const values = [input.key, input.scope, input.fingerprint, input.owner, input.leaseMs, input.ttlMs, input.replaceExpired];
    if (transactionRun) values.push(transactionRun.lockTimeout, transactionRun.marker);
    for (let attempt = 1; attempt <= shared.claimAttempts; attempt++) {
      const row = (await run('claim', claimText, values)).rows[0];
      if (row) return toClaimResult(row);
      // No row: the READ COMMITTED gap (sql.ts, claim). A new statement has a new snapshot.
    }
    throw new StoreUnavailableError(
      'claim',
      new Error(`The claim neither won nor found the record in ${shared.claimAttempts} attempts (the key kept changing).`),
    );
  }

  return {
    table: names.qualified,
    layout: shared.layout,
    claim,
    complete: finishAs('complete', 'COMPLETED'),
    fail: finishAs('fail', 'FAILED'),
    release: async (input) => applied(await run('release', sql.release, [input.key, input.scope, input.lockVersion])),
    extend: async (input) => applied(await run('extend', sql.extend, [input.key, input.scope, input.lockVersion, input.leaseMs])),
    async get({ key, scope }) {
      const row = (await run('get', sql.get, [key, scope])).rows[0];
      return row ? toRecord(row) : null;
    },
    async purgeExpired(batchSize) {
      positiveInteger('batchSize', batchSize);
      return toNumber((await run('purgeExpired', sql.purgeExpired, [batchSize])).rows[0]?.purged ?? 0);
    },
    async listStuck({ olderThanMs, limit }) {
      return (await run('listStuck', sql.listStuck, [olderThanMs, limit])).rows.map(toRecord);
    },
    async forceRelease({ key, scope }) {
      return (await run('forceRelease', sql.forceRelease, [key, scope])).rows.length === 1;
    },
    async size() {
      const result =
        shared.sizeMode === 'exact' ? await run('size', sql.sizeExact, []) : await run('size', sql.sizeEstimate, [names.qualified]);
      return toNumber(result.rows[0]?.n ?? 0);
    },
    async now() {
      return toNumber((await run('now', sql.now, [])).rows[0]?.now_ms);
    },
    async migrate() {
      if (state.closed) throw new StoreUnavailableError('migrate', new Error('The PostgreSQL store is closed.'));
      try {
        await migrate(db, { schema: names.schema, table: names.table, layout: shared.layout });
      } catch (error) {
        throw new StoreUnavailableError('migrate', error);
      }
    },
    withDb(other, viewOptions = {}) {
      checkQueryable(other);
      return bind(other, viewOptions, shared);
    },
    async close() {
      state.closed = true;
    },
  };
}

function toClaimResult(row: RecordRow): ClaimResult {
  const record = toRecord(row);
  if (row.outcome === 'claimed') {
    return {
      outcome: 'claimed',
      lockVersion: record.lockVersion,
      reclaimed: row.reclaimed === true,
      replacedExpired: row.replaced === true,
      lockedUntil: record.lockedUntil!,
    };
  }
  return { outcome: 'existing', record, now: toNumber(row.now_ms) };
}
