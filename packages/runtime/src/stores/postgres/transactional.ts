/**
 * Transactional mode: for actions whose effect is a write to the same PostgreSQL database. The
 * claim, the caller's own writes and the completion run in the CALLER's transaction and commit
 * together, so a crash anywhere leaves either nothing or everything: exactly-once for local
 * effects, and no orphaned PROCESSING record is possible (an uncommitted claim dies with its
 * connection; nobody ever sees it).
 *
 *   BEGIN ── claim ── your writes ── complete ── COMMIT      one transaction (yours)
 *   a duplicate's claim meets the uncommitted row and waits for that transaction:
 *     it commits    → the duplicate sees COMPLETED and replays
 *     it rolls back → the duplicate claims and runs
 *     lock_timeout  → InProgressError (its own transaction is then aborted: roll it back)
 */
import { randomUUID } from 'node:crypto';
import { identityCodec, type ResponseCodec } from '../../core/codec.js';
import { createBegin, type BeginResult } from '../../core/begin.js';
import { IdempotencyError, InProgressError, LeaseLostError } from '../../core/errors.js';
import { DEFAULT_LEASE_MS, DEFAULT_TTL_MS, positiveInteger, resolveOptions } from '../../core/options.js';
import { validateRunRequest } from '../../core/run-request.js';
import type { ResultSerializer } from '../../core/serializer.js';
import type { RunRequest, RunResult } from '../../core/engine.js';
import type { PostgresStore } from './postgres-store.js';
import { LOCK_NOT_AVAILABLE, sqlState, statementName, type PgPreparingQueryable, type PgQueryable } from './queryable.js';
import { transactionCheck } from './sql.js';

export interface TransactionalOptions {
  /** Names the table and layout; its own `db` is not used — each run uses the caller's. */
  readonly store: PostgresStore;
  /**
   * How long a duplicate waits for the first transaction before answering `in_progress`
   * (PostgreSQL `lock_timeout`, for the claim only). 0 answers at once. Default 5000.
   */
  readonly duplicateWaitMs?: number;
  /** Written into the record; matters only if a record outlives its transaction uncompleted. Default 30 s. */
  readonly leaseMs?: number;
  /** How long the committed result is replayed. Default 24 h. */
  readonly ttlMs?: number;
  /** An expired record is never replayed: `new` runs again, `reject` refuses. Default `new`. */
  readonly onExpired?: 'new' | 'reject';
  readonly codec?: ResponseCodec;
  /** Use named prepared statements on the caller's connection (pg Client only, not knex/PGlite). Default false. */
  readonly preparedStatements?: boolean;
}

export interface TransactionalContext {
  /** The caller's transaction: do the action's writes through it (or the ORM transaction it wraps). */
  readonly db: PgQueryable;
  readonly lockVersion: number;
  readonly reclaimed: boolean;
}

export interface TransactionalIdempotency {
  /**
   * Inside the caller's open transaction on `db`: claim, run `action`, complete. Commit after it
   * resolves; roll back if it rejects (nothing is recorded then, and the key is free again).
   * @example
   * const client = await pool.connect();
   * await client.query('BEGIN');
   * const { value } = await payments.run(client, { key, scope, fingerprint }, async ({ db }) => {
   *   await db.query('INSERT INTO payments (id, amount) VALUES ($1, $2)', [id, amount]);
   *   return { id };
   * });
   * await client.query('COMMIT');
   */
  run<T>(
    db: PgQueryable,
    request: RunRequest,
    action: (context: TransactionalContext) => Promise<T> | T,
    options?: { readonly serializer?: ResultSerializer<T> },
  ): Promise<RunResult<T>>;
}

const CHECK_NAME = statementName(transactionCheck);

/** `lock_timeout` 0 means "wait forever" in PostgreSQL; 1 ms is the nearest to "at once". */
const lockTimeout = (ms: number) => `${Math.max(1, ms)}ms`;

/**
 * Creates transactional mode over a store's table. Works for both layouts (the partitioned one
 * waits on its per-key advisory lock instead of the row). Needs READ COMMITTED transactions.
 * @example
 * const payments = createTransactionalIdempotency({ store, duplicateWaitMs: 2000 });
 * await knex.transaction((trx) => payments.run(knexQueryable(trx), request, () => trx('payments').insert(row)));
 */
export function createTransactionalIdempotency(options: TransactionalOptions): TransactionalIdempotency {
  const { store } = options;
  const duplicateWaitMs = positiveInteger('duplicateWaitMs', options.duplicateWaitMs ?? 5000, { min: 0 });
  // The engine's own validation and duplicate answering, with what a transaction changes: no
  // heartbeat (an uncommitted claim needs none), no single-flight (the database row lock is the
  // wait), one write attempt (a retry inside a failed transaction cannot succeed).
  const begin = createBegin(
    resolveOptions({
      store,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      ttlMs: options.ttlMs ?? DEFAULT_TTL_MS,
      onExpired: options.onExpired ?? 'new',
      codec: options.codec ?? identityCodec,
      heartbeat: false,
      singleFlight: false,
      finishAttempts: 1,
      // The claim may wait duplicateWaitMs on the first transaction's row lock.
      storeTimeoutMs: duplicateWaitMs + 60_000,
    }),
  );

  return {
    async run<T>(
      db: PgQueryable,
      request: RunRequest,
      action: (context: TransactionalContext) => Promise<T> | T,
      runOptions: { readonly serializer?: ResultSerializer<T> } = {},
    ): Promise<RunResult<T>> {
      validateRunRequest(request);
      // The claim itself sets, local to the transaction, a marker for this run and its wait
      // bound (the caller's own lock_timeout kept aside); the check right after it reads the
      // marker and gives the lock_timeout back (sql.ts, transactionalClaim). The settings vanish
      // at the end of the transaction, which is how the check knows the claim ran inside one.
      const marker = randomUUID();
      const inTx = store.withDb(db, {
        preparedStatements: options.preparedStatements === true,
        transactionRun: { lockTimeout: lockTimeout(duplicateWaitMs), marker },
      });
      let claimSent = false;
      const claiming: PostgresStore = { ...inTx, claim: (input) => ((claimSent = true), inTx.claim(input)) };
      let begun: BeginResult<T> | undefined;
      let refusal: unknown;
      try {
        begun = await begin<T>(request, runOptions.serializer ? { serializer: runOptions.serializer } : {}, { store: claiming, shared: false });
      } catch (error) {
        // The first transaction's end is unknown: suggest a retry after the wait, at least a second.
        if (sqlState((error as { cause?: unknown }).cause) === LOCK_NOT_AVAILABLE) throw new InProgressError(Math.max(duplicateWaitMs, 1000));
        // A failed claim statement aborted the transaction: nothing more can be asked of it.
        if (error instanceof IdempotencyError && error.code === 'store_unavailable') throw error;
        // Refused before any statement was sent: nothing to check or restore.
        if (!claimSent) throw error;
        refusal = error; // a duplicate's answer: given once the transaction is confirmed below
      }
      const checked = options.preparedStatements === true
        ? await (db as PgPreparingQueryable).query({ name: CHECK_NAME, text: transactionCheck, values: [] })
        : await db.query(transactionCheck);
      if (checked.rows[0]?.marker !== marker) {
        // Autocommit (or a pool handing out different connections): the claim is already
        // committed on its own. Undo it and refuse: nothing here would be atomic.
        if (begun?.outcome === 'claimed') await begun.release();
        throw new TypeError('Transactional run() needs a client inside an open transaction (BEGIN … COMMIT), not a pool or an autocommit connection.');
      }
      if (begun === undefined) throw refusal;
      if (begun.outcome === 'replayed') return { value: begun.value, replayed: true };

      // The caller rolls back if the action throws: the claim goes with it, nothing to release.
      const value = await action({ db, lockVersion: begun.lockVersion, reclaimed: begun.reclaimed });
      try {
        await begun.complete(value);
      } catch (error) {
        // Our own uncommitted row: only this transaction can change it, so 'lost' means the
        // action itself touched the idempotency table.
        if (error instanceof LeaseLostError) throw new LeaseLostError('The idempotency record changed inside this transaction; roll it back.');
        throw error;
      }
      return { value, replayed: false };
    },
  };
}
