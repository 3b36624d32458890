/** The SQLite store's statements: named, parameterised, one per store operation, over one table. */
import { InvalidOptionsError } from '../../core/errors.js';

/**
 * The store clock in integer ms since the epoch, read from SQLite itself. `'now'` is fixed for
 * the whole of one statement step, so every use inside one statement sees the same instant.
 * `unixepoch('subsec')` needs SQLite >= 3.42 (better-sqlite3 >= 11 bundles newer); ROUND keeps
 * a float like 1712.0009999 from truncating one ms short.
 */
export const STORE_NOW = `CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)`;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Table names stay short enough that the derived index names (`<table>_expires_idx`) fit too. */
export const MAX_TABLE_NAME_LENGTH = 48;

/**
 * The only way an identifier enters SQL: checked against a plain-name pattern, then quoted.
 * Bound parameters cannot name tables, so this check is what keeps table names injection-free.
 * @example quoteIdentifier('idempotency_store') // '"idempotency_store"'
 */
export function quoteIdentifier(name: string, { field = 'table', maxLength = 63 }: { field?: string; maxLength?: number } = {}): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name) || name.length > maxLength) {
    throw new InvalidOptionsError(
      `Option "${field}" must be a plain SQL name (a letter or _, then letters, digits or _; at most ${maxLength}); got ${JSON.stringify(name)}.`,
    );
  }
  return `"${name}"`;
}

/** The store's table name, checked and quoted. */
export const quoteTable = (table: string) => quoteIdentifier(table, { maxLength: MAX_TABLE_NAME_LENGTH });

/** Every column of a record row, in table order (schema.ts). */
export const RECORD_COLUMNS = [
  'idempotency_key', 'user_id', 'fingerprint', 'status', 'response_code', 'response_headers', 'response_body',
  'response_encoding', 'owner_id', 'lock_version', 'locked_until', 'created_at', 'completed_at', 'expires_at',
] as const;

/** The column list for a SELECT, optionally qualified by a table alias. */
const columns = (alias = '') => RECORD_COLUMNS.map((column) => (alias ? `${alias}.${column}` : column)).join(', ');

export type SqliteStatementName = keyof ReturnType<typeof sqliteStatements>;

/**
 * The statements for one table. Parameters are named (`@key`); all times are integer ms.
 * @example const sql = sqliteStatements('idempotency_store'); db.prepare(sql.get).get({ key, scope });
 */
export function sqliteStatements(table: string) {
  const t = quoteTable(table);
  return {
    /**
     * claimRead — @key, @scope. Always one row: the store clock as `now`, plus the record's
     * columns (all NULL when absent). Inside the claim's IMMEDIATE transaction this is both the
     * answer for `existing` and the label (fresh / reclaim / replace) for `claimed`.
     */
    claimRead: `SELECT n.now AS now, ${columns('r')}
      FROM (SELECT ${STORE_NOW} AS now) AS n
      LEFT JOIN ${t} AS r ON r.idempotency_key = @key AND r.user_id = @scope`,

    /**
     * claimUpsert — @key, @scope, @fingerprint, @owner, @now, @leaseMs, @ttlMs, @replaceExpired (1|0).
     * The claim's compare-and-set: inserts when absent; on conflict takes the row over ONLY when it
     * is an expired COMPLETED/FAILED record (and replacing is allowed) or a PROCESSING record whose
     * lease is over with the same fingerprint and owner. Status, lease and version are checked by
     * this one write. Returns the new lock_version and locked_until, or no row when it changed nothing.
     * SET expressions read the row as it was before the update (SQL semantics), hence created_at.
     * A fresh row's lock_version is @now (ms): see "Fencing tokens" in src/stores/contract.ts.
     */
    claimUpsert: `INSERT INTO ${t}
        (idempotency_key, user_id, fingerprint, status, owner_id, lock_version, locked_until, created_at, completed_at, expires_at)
      VALUES (@key, @scope, @fingerprint, 'PROCESSING', @owner, @now, @now + @leaseMs, @now, NULL, @now + @ttlMs)
      ON CONFLICT (idempotency_key, user_id) DO UPDATE SET
        fingerprint = excluded.fingerprint,
        owner_id = excluded.owner_id,
        created_at = CASE WHEN status = 'PROCESSING' THEN created_at ELSE excluded.created_at END,
        status = 'PROCESSING',
        lock_version = CASE WHEN status = 'PROCESSING' THEN lock_version + 1 ELSE MAX(lock_version + 1, excluded.lock_version) END,
        locked_until = excluded.locked_until,
        completed_at = NULL,
        expires_at = excluded.expires_at,
        response_code = NULL,
        response_headers = NULL,
        response_body = NULL,
        response_encoding = NULL
      WHERE (status <> 'PROCESSING' AND expires_at <= @now AND @replaceExpired = 1)
         OR (status = 'PROCESSING' AND locked_until <= @now
             AND fingerprint = excluded.fingerprint AND owner_id IS excluded.owner_id)
      RETURNING lock_version, locked_until`,

    /**
     * finish — @key, @scope, @lockVersion, @status ('COMPLETED'|'FAILED'), @responseCode,
     * @responseHeaders (JSON text or NULL), @responseBody (BLOB), @responseEncoding, @ttlMs.
     * Fenced: changes one row only while it is PROCESSING at @lockVersion.
     */
    finish: `UPDATE ${t} SET
        status = @status,
        locked_until = NULL,
        response_code = @responseCode,
        response_headers = @responseHeaders,
        response_body = @responseBody,
        response_encoding = @responseEncoding,
        completed_at = ${STORE_NOW},
        expires_at = ${STORE_NOW} + @ttlMs
      WHERE idempotency_key = @key AND user_id = @scope AND status = 'PROCESSING' AND lock_version = @lockVersion`,

    /** release — @key, @scope, @lockVersion. Fenced delete of this holder's PROCESSING record. */
    release: `DELETE FROM ${t}
      WHERE idempotency_key = @key AND user_id = @scope AND status = 'PROCESSING' AND lock_version = @lockVersion`,

    /** extend — @key, @scope, @lockVersion, @leaseMs. Fenced heartbeat: lease = store-now + @leaseMs. */
    extend: `UPDATE ${t} SET locked_until = ${STORE_NOW} + @leaseMs
      WHERE idempotency_key = @key AND user_id = @scope AND status = 'PROCESSING' AND lock_version = @lockVersion`,

    /** get — @key, @scope. The record as stored, expired or not. */
    get: `SELECT ${columns()} FROM ${t} WHERE idempotency_key = @key AND user_id = @scope`,

    /**
     * purgeExpired — @batchSize. Deletes at most @batchSize expired finished records; the inner
     * `status <> 'PROCESSING'` term matches the partial index on expires_at so it is used.
     */
    purgeExpired: `DELETE FROM ${t} WHERE rowid IN (
        SELECT rowid FROM ${t}
        WHERE status <> 'PROCESSING' AND expires_at <= ${STORE_NOW}
        LIMIT @batchSize)`,

    /**
     * listStuck — @olderThanMs, @limit. PROCESSING records whose lease ended at least
     * @olderThanMs ago, oldest lease first (served by the partial index on locked_until).
     */
    listStuck: `SELECT ${columns()} FROM ${t}
      WHERE status = 'PROCESSING' AND locked_until <= ${STORE_NOW} - @olderThanMs
      ORDER BY locked_until
      LIMIT @limit`,

    /**
     * forceRelease — @key, @scope. Runbook release: the lease ends now and lock_version grows,
     * so the old holder's writes are fenced out and the same intent can reclaim at once.
     */
    forceRelease: `UPDATE ${t} SET lock_version = lock_version + 1, locked_until = ${STORE_NOW}
      WHERE idempotency_key = @key AND user_id = @scope AND status = 'PROCESSING'`,

    /** size — no parameters. Exact record count (expired ones included until purged). */
    size: `SELECT count(*) AS n FROM ${t}`,

    /** now — no parameters. The store clock. */
    now: `SELECT ${STORE_NOW} AS now`,
  } as const;
}
