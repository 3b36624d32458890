/**
 * The MySQL/MariaDB store's statements: named, parameterised, one statement per operation (the
 * claim: one upsert plus its read-back). Identifiers arrive checked and quoted (identifiers.ts);
 * every value is a parameter, written `:name` here and sent as `?` in the listed order.
 *
 * The clock is `UTC_TIMESTAMP(3)`, the database server's wall clock in UTC at the start of the
 * statement (constant within one statement, fresh for each statement of a transaction — unlike
 * PostgreSQL's now()). Why UTC_TIMESTAMP and DATETIME, not NOW() and TIMESTAMP: NOW() and
 * UNIX_TIMESTAMP(datetime) go through the session time_zone, which a pool's connections need not
 * share and which makes one local hour a year ambiguous at the DST fall-back; UTC_TIMESTAMP never
 * does. Milliseconds since the epoch are computed by plain DATETIME arithmetic (TIMESTAMPDIFF
 * from 1970-01-01), again without any time zone. A session that sets `timestamp` freezes it.
 */

/** A statement: `?` text and the names of its parameters, in order. */
export interface MysqlStatement {
  readonly text: string;
  readonly params: readonly string[];
}

/** Turns `:name` placeholders into `?` and remembers their order (times like `00:00:00` are not names). */
function statement(text: string): MysqlStatement {
  const params: string[] = [];
  const sql = text.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, (_, name: string) => {
    params.push(name);
    return '?';
  });
  return { text: sql.replace(/\n\s+/g, '\n  '), params };
}

/**
 * The values of `statement`'s parameters, in order; a missing one is a programming error.
 * @example const values = bindValues(sql.get, { key, scope });
 */
export function bindValues(stmt: MysqlStatement, values: Readonly<Record<string, unknown>>): unknown[] {
  return stmt.params.map((name) => {
    if (!(name in values)) throw new Error(`Missing SQL parameter :${name}.`);
    return values[name];
  });
}

/** The store clock: the server's UTC wall clock, ms precision (the contract exports it). */
export const MYSQL_NOW = 'UTC_TIMESTAMP(3)';
const NOW = MYSQL_NOW;
/** A DATETIME(3) in UTC as whole ms since the epoch (BIGINT), no time zone involved. */
export const msOf = (expression: string) => `(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', ${expression}) DIV 1000)`;
const NOW_MS = msOf(NOW);

/** The select list that row-mapping.ts reads: raw columns, times as `<name>_ms`. */
const RECORD = `idempotency_key, user_id, owner_id, fingerprint, status, lock_version, response_code,
  response_headers, response_encoding, response_bytes, claim_token,
  ${msOf('locked_until')} AS locked_until_ms, ${msOf('created_at')} AS created_at_ms,
  ${msOf('completed_at')} AS completed_at_ms, ${msOf('expires_at')} AS expires_at_ms`;

const BY_ID = 'idempotency_key = :key AND user_id = :scope';
const FENCED = `${BY_ID} AND lock_version = :lockVersion AND status = 'PROCESSING'`;
/** Did THIS claim win the row? Its nonce is the first 32 characters of claim_token. */
const WON = 'LEFT(claim_token, 32) = :nonce';

/**
 * The statements for one table (`table` qualified and quoted).
 * @example const sql = mysqlStatements('`idempotency_store`'); await db.query(sql.get.text, bindValues(sql.get, { key, scope }));
 */
export function mysqlStatements(table: string) {
  return {
    /**
     * claimUpsert — :key :scope :owner :fingerprint :leaseUs :ttlUs :nonce :replaceExpired.
     * ONE atomic write. Absent → INSERT (token = clock ms, claim_token nonce+'N'). Present → the
     * row is locked and the takeover conditions are checked on its newest version: a PROCESSING
     * row whose lease is over, same fingerprint and owner (reclaim: +1, 'R'), or an expired
     * finished row when replacing is allowed (GREATEST(+1, clock ms), 'E'). Otherwise nothing
     * changes. MySQL evaluates the assignments left to right, each seeing the ones before, so
     * claim_token is decided first and every later column follows it.
     */
    claimUpsert: statement(`INSERT INTO ${table}
      (idempotency_key, user_id, owner_id, fingerprint, status, lock_version, locked_until, created_at, expires_at, claim_token)
      VALUES (:key, :scope, :owner, :fingerprint, 'PROCESSING', ${NOW_MS}, ${NOW} + INTERVAL :leaseUs MICROSECOND, ${NOW},
        ${NOW} + INTERVAL :ttlUs MICROSECOND, CONCAT(:nonce, 'N'))
      ON DUPLICATE KEY UPDATE
      claim_token = IF(
        (status = 'PROCESSING' AND locked_until <= ${NOW} AND fingerprint = :fingerprint AND owner_id <=> :owner)
          OR (status <> 'PROCESSING' AND expires_at <= ${NOW} AND :replaceExpired = 1),
        CONCAT(:nonce, IF(status = 'PROCESSING', 'R', 'E')), claim_token),
      lock_version = IF(claim_token = CONCAT(:nonce, 'R'), lock_version + 1,
        IF(claim_token = CONCAT(:nonce, 'E'), GREATEST(lock_version + 1, ${NOW_MS}), lock_version)),
      created_at = IF(claim_token = CONCAT(:nonce, 'E'), ${NOW}, created_at),
      fingerprint = IF(${WON}, :fingerprint, fingerprint),
      owner_id = IF(${WON}, :owner, owner_id),
      status = IF(${WON}, 'PROCESSING', status),
      locked_until = IF(${WON}, ${NOW} + INTERVAL :leaseUs MICROSECOND, locked_until),
      expires_at = IF(${WON}, ${NOW} + INTERVAL :ttlUs MICROSECOND, expires_at),
      completed_at = IF(${WON}, NULL, completed_at),
      response_code = IF(${WON}, NULL, response_code),
      response_headers = IF(${WON}, NULL, response_headers),
      response_encoding = IF(${WON}, NULL, response_encoding),
      response_bytes = IF(${WON}, NULL, response_bytes)`),

    /**
     * claimRead — :key :scope. The claim's read-back, with the clock. A locking read (shared):
     * it reads the newest committed version even inside a REPEATABLE READ transaction whose
     * snapshot is older, and inside the caller's transaction it waits for an uncommitted claim.
     */
    claimRead: statement(`SELECT ${NOW_MS} AS now_ms, ${RECORD} FROM ${table} WHERE ${BY_ID} LOCK IN SHARE MODE`),

    /**
     * finish — :status ('COMPLETED' | 'FAILED') :code :headers (JSON text) :encoding :bytes :ttlUs
     * :key :scope :lockVersion. Fenced: only a PROCESSING row still at lockVersion changes.
     */
    finish: statement(`UPDATE ${table} SET status = :status, response_code = :code, response_headers = :headers,
      response_encoding = :encoding, response_bytes = :bytes, locked_until = NULL, completed_at = ${NOW},
      expires_at = ${NOW} + INTERVAL :ttlUs MICROSECOND
      WHERE ${FENCED}`),

    /** release — :key :scope :lockVersion. Fenced delete: the key is claimable at once. */
    release: statement(`DELETE FROM ${table} WHERE ${FENCED}`),

    /** extend — :leaseUs :key :scope :lockVersion. Fenced heartbeat from the store clock. */
    extend: statement(`UPDATE ${table} SET locked_until = ${NOW} + INTERVAL :leaseUs MICROSECOND WHERE ${FENCED}`),

    /** get — :key :scope. The record as stored, expired or not (a plain, non-locking read). */
    get: statement(`SELECT ${RECORD} FROM ${table} WHERE ${BY_ID}`),

    /**
     * purgeCandidates — :limit. Up to :limit expired finished rows, oldest expiry first, along the
     * purge_at index. A plain read: it takes no lock, so claims never wait for it.
     */
    purgeCandidates: statement(`SELECT idempotency_key, user_id FROM ${table}
      WHERE purge_at <= ${NOW} ORDER BY purge_at LIMIT :limit`),

    /** listStuck — :olderUs :limit. PROCESSING rows whose lease ended at least :olderUs ago, oldest first. */
    listStuck: statement(`SELECT ${RECORD} FROM ${table}
      WHERE stuck_at <= ${NOW} - INTERVAL :olderUs MICROSECOND ORDER BY stuck_at LIMIT :limit`),

    /** forceRelease — :key :scope. Ends the lease now and bumps lock_version: the old holder is fenced out. */
    forceRelease: statement(`UPDATE ${table} SET lock_version = lock_version + 1, locked_until = ${NOW}
      WHERE ${BY_ID} AND status = 'PROCESSING'`),

    /** sizeExact — no parameters. Exact row count (an index scan: use sizeEstimate on big tables). */
    sizeExact: statement(`SELECT COUNT(*) AS n FROM ${table}`),

    /** sizeEstimate — :database (NULL = the connection's) :table. InnoDB's row estimate: O(1), rough. */
    sizeEstimate: statement(`SELECT COALESCE(MAX(TABLE_ROWS), 0) AS n FROM information_schema.TABLES
      WHERE TABLE_SCHEMA = COALESCE(:database, DATABASE()) AND TABLE_NAME = :table`),

    /** now — no parameters. The store clock in ms. */
    now: statement(`SELECT ${NOW_MS} AS now_ms`),
  };
}

/**
 * purgeDelete — :key1 :scope1 … for `count` rows. Deletes the purge candidates by primary key,
 * re-checking expiry (a claim may have replaced one since it was listed): record locks on those
 * rows only, no range or gap locks that a claim of a new key could meet.
 * @example const del = purgeDelete('`t`', 2); // ... WHERE (idempotency_key, user_id) IN ((?, ?), (?, ?)) ...
 */
export function purgeDelete(table: string, count: number): MysqlStatement {
  const pairs = Array.from({ length: count }, (_, i) => `(:key${i}, :scope${i})`).join(', ');
  return statement(`DELETE FROM ${table} WHERE (idempotency_key, user_id) IN (${pairs}) AND purge_at <= ${NOW}`);
}

export type MysqlStatements = ReturnType<typeof mysqlStatements>;
