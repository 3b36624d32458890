/**
 * Transactional mode: for actions whose effect is a write to the same MySQL database. The claim,
 * the caller's own writes and the completion run in the CALLER's transaction and commit together:
 * exactly-once for local effects, and no orphaned PROCESSING record is possible (an uncommitted
 * claim dies with its transaction; nobody ever sees it).
 *
 *   START TRANSACTION ── claim ── your writes ── complete ── COMMIT      one transaction (yours)
 *   a duplicate's claim meets the uncommitted row lock and waits for that transaction:
 *     it commits              → the duplicate sees COMPLETED and replays
 *     it rolls back           → the duplicate claims and runs
 *     innodb_lock_wait_timeout → InProgressError (only the statement is rolled back)
 * Works under READ COMMITTED and REPEATABLE READ: the claim's read-back is a locking read, which
 * sees the newest committed row whatever the transaction's snapshot.
 */
import { identityCodec, type ResponseCodec } from '../../core/codec.js';
import { answerDuplicate } from '../../core/duplicate-answer.js';
import { InProgressError, LeaseLostError } from '../../core/errors.js';
import { isFingerprint } from '../../core/fingerprint.js';
import { GLOBAL_SCOPE, validateKey, validateScope } from '../../core/key.js';
import { DEFAULT_LEASE_MS, DEFAULT_TTL_MS, positiveInteger } from '../../core/options.js';
import { jsonSerializer, type ResultSerializer } from '../../core/serializer.js';
import type { RunRequest, RunResult } from '../../core/engine.js';
import type { MysqlStore } from './mysql-store.js';
import { ER_LOCK_WAIT_TIMEOUT, mysqlErrno, type MysqlQueryable } from './queryable.js';

export interface MysqlTransactionalOptions {
  /** Names the table; its own `db` is not used — each run uses the caller's connection. */
  readonly store: MysqlStore;
  /**
   * How long a duplicate waits for the first transaction before answering `in_progress`, in ms.
   * InnoDB counts lock waits in whole seconds, so this is rounded up to seconds (at least 1).
   * Default 5000.
   */
  readonly duplicateWaitMs?: number;
  /** Written into the record; matters only if a record outlives its transaction uncompleted. Default 30 s. */
  readonly leaseMs?: number;
  /** How long the committed result is replayed. Default 24 h. */
  readonly ttlMs?: number;
  /** An expired record is never replayed: `new` runs again, `reject` refuses. Default `new`. */
  readonly onExpired?: 'new' | 'reject';
  readonly codec?: ResponseCodec;
}

export interface MysqlTransactionalContext {
  /** The caller's transaction: do the action's writes through it. */
  readonly db: MysqlQueryable;
  readonly lockVersion: number;
  readonly reclaimed: boolean;
}

export interface MysqlTransactionalIdempotency {
  /**
   * Inside the caller's open transaction on `db`: claim, run `action`, complete. Commit after it
   * resolves; roll back if it rejects (nothing is recorded then, and the key is free again).
   * @example
   * const conn = await pool.getConnection();
   * await conn.beginTransaction();
   * const { value } = await payments.run(conn, { key, scope, fingerprint }, async ({ db }) => {
   *   await db.query('INSERT INTO payments (id, amount) VALUES (?, ?)', [id, amount]);
   *   return { id };
   * });
   * await conn.commit();
   */
  run<T>(
    db: MysqlQueryable,
    request: RunRequest,
    action: (context: MysqlTransactionalContext) => Promise<T> | T,
    options?: { readonly serializer?: ResultSerializer<T> },
  ): Promise<RunResult<T>>;
}

/**
 * Creates transactional mode over a store's table.
 * @example
 * const payments = createMysqlTransactionalIdempotency({ store, duplicateWaitMs: 2000 });
 * await knex.transaction((trx) => payments.run(knexMysqlQueryable(trx), request, () => trx('payments').insert(row)));
 */
export function createMysqlTransactionalIdempotency(options: MysqlTransactionalOptions): MysqlTransactionalIdempotency {
  const { store, onExpired = 'new', codec = identityCodec } = options;
  const duplicateWaitMs = positiveInteger('duplicateWaitMs', options.duplicateWaitMs ?? 5000, { min: 0 });
  const waitSeconds = Math.max(1, Math.ceil(duplicateWaitMs / 1000));
  const leaseMs = positiveInteger('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS, { min: 10 });
  const ttlMs = positiveInteger('ttlMs', options.ttlMs ?? DEFAULT_TTL_MS);

  return {
    async run<T>(
      db: MysqlQueryable,
      request: RunRequest,
      action: (context: MysqlTransactionalContext) => Promise<T> | T,
      runOptions: { readonly serializer?: ResultSerializer<T> } = {},
    ): Promise<RunResult<T>> {
      validateKey(request?.key);
      validateScope(request.scope);
      if (!isFingerprint(request.fingerprint)) throw new TypeError('request.fingerprint must be 64 lowercase hex characters (SHA-256).');
      if (request.owner !== undefined && request.scope !== GLOBAL_SCOPE) {
        throw new TypeError('request.owner only applies to scope "global"; scope the key to the user instead.');
      }
      const serializer = runOptions.serializer ?? (jsonSerializer as ResultSerializer<T>);
      // Checked before anything is written: a pool or an autocommit connection would commit the
      // claim on its own, and nothing here would be atomic.
      const [state] = await db.query('SELECT @@in_transaction AS tx, @@innodb_lock_wait_timeout AS previous');
      const session = (state as { tx: unknown; previous: unknown }[])[0];
      if (Number(session?.tx) !== 1) {
        throw new TypeError('Transactional run() needs a connection inside an open transaction (START TRANSACTION … COMMIT), not a pool or an autocommit connection.');
      }
      const inTx = store.withDb(db, { inTransaction: true });
      const id = { key: request.key, scope: request.scope };
      // The wait bound for the claim only; the session's own value comes back right after.
      await db.query('SET SESSION innodb_lock_wait_timeout = ?', [waitSeconds]);
      let claim;
      try {
        claim = await inTx.claim({ ...id, fingerprint: request.fingerprint, owner: request.owner ?? null, leaseMs, ttlMs, replaceExpired: onExpired === 'new' });
      } catch (error) {
        if (mysqlErrno((error as { cause?: unknown }).cause) === ER_LOCK_WAIT_TIMEOUT) throw new InProgressError(Math.max(duplicateWaitMs, 1000));
        throw error;
      } finally {
        await db.query('SET SESSION innodb_lock_wait_timeout = ?', [Number(session!.previous)]);
      }
      if (claim.outcome === 'existing') {
        const answer = await answerDuplicate({ request, record: claim.record, now: claim.now, codec, serializer });
        if (answer instanceof InProgressError) throw answer;
        return answer;
      }
      const value = await action({ db, lockVersion: claim.lockVersion, reclaimed: claim.reclaimed });
      const response = await codec.encode(serializer.serialize(value));
      // Our own uncommitted row: only this transaction can change it, so 'lost' means the
      // action itself touched the idempotency table.
      if ((await inTx.complete({ ...id, lockVersion: claim.lockVersion, response, ttlMs })) === 'lost') {
        throw new LeaseLostError('The idempotency record changed inside this transaction; roll it back.');
      }
      return { value, replayed: false };
    },
  };
}
