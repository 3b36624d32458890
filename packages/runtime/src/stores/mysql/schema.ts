/** The table's names and InnoDB DDL: the spec's `idempotency_store`, redesigned for MySQL/MariaDB. */
import { createHash } from 'node:crypto';
import { qualifyMysql, quoteMysqlIdent } from './identifiers.js';

/** Every name the store derives from database + table, checked and quoted once. */
export interface MysqlTableNames {
  readonly database: string | undefined;
  readonly table: string;
  /** `` `db`.`table` `` or `` `table` `` */
  readonly qualified: string;
  /** The migrations ledger, `<table>_migrations`. */
  readonly migrations: string;
  /** The GET_LOCK name of migrations (≤ 64 characters, as GET_LOCK requires). */
  readonly migrationLock: string;
  /** Quotes `<prefix><table><suffix>` (an index or constraint name), checking the derived name. */
  readonly derived: (prefix: string, suffix?: string) => string;
}

/**
 * Checks and quotes the database, the table and every name derived from them.
 * @example mysqlTableNames(undefined, 'idempotency_store').qualified // '`idempotency_store`'
 */
export function mysqlTableNames(database: string | undefined, table: string): MysqlTableNames {
  const qualified = qualifyMysql(database, table);
  const derived = (prefix: string, suffix = '') => quoteMysqlIdent(`${prefix}${table}${suffix}`, `table (derived name ${prefix}${table}${suffix})`);
  // The longest derived names must fit too: checked now, not at migrate().
  derived('', '_migrations');
  derived('idx_', '_stuck');
  const lockHash = createHash('sha256').update(`${database ?? ''}.${table}`).digest('hex').slice(0, 32);
  return {
    database,
    table,
    qualified,
    migrations: qualifyMysql(database, `${table}_migrations`),
    migrationLock: `idempotency-builder:migrate:${lockHash}`,
    derived,
  };
}

/**
 * The table. Departures from the spec's PostgreSQL DDL, and why:
 * - Partial indexes do not exist in MySQL/MariaDB. Two STORED generated columns take their place:
 *   `purge_at` = expires_at of finished rows (NULL while PROCESSING) and `stuck_at` = locked_until
 *   of PROCESSING rows (NULL once finished). An index on each gives purge and listStuck a range
 *   scan in the right order over exactly the rows they want. Unlike a partial index, InnoDB
 *   still keeps an entry (NULL) for every other row, so the indexes are as large as the table.
 * - Times are DATETIME(3) holding UTC (`UTC_TIMESTAMP(3)`): DATETIME is never converted through
 *   the session time_zone (TIMESTAMP is, and ends in 2038).
 * - Binary collations: the default collation compares case-insensitively and would merge the
 *   keys `Abc` and `abc` into one record.
 * - No `response_body` JSON copy: the exact bytes live in `response_bytes` (LONGBLOB).
 * - `claim_token`: the nonce of the claim that last won the row, plus a kind letter (N new,
 *   R reclaimed, E replaced expired). The claim reads it back to learn whether it won.
 */
export function mysqlTableSql(names: MysqlTableNames): string {
  return `CREATE TABLE IF NOT EXISTS ${names.qualified} (
  idempotency_key   VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  user_id           VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
  fingerprint       CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  status            VARCHAR(20) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'PROCESSING',
  response_code     INT NULL,
  lock_version      BIGINT NOT NULL,
  locked_until      DATETIME(3) NULL,
  created_at        DATETIME(3) NOT NULL,
  completed_at      DATETIME(3) NULL,
  expires_at        DATETIME(3) NOT NULL,
  owner_id          VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  response_headers  TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
  response_encoding VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL,
  response_bytes    LONGBLOB NULL,
  claim_token       VARCHAR(40) CHARACTER SET ascii COLLATE ascii_bin NULL,
  purge_at          DATETIME(3) AS (IF(status <> 'PROCESSING', expires_at, NULL)) STORED,
  stuck_at          DATETIME(3) AS (IF(status = 'PROCESSING', locked_until, NULL)) STORED,
  PRIMARY KEY (idempotency_key, user_id),
  KEY ${names.derived('idx_', '_purge')} (purge_at),
  KEY ${names.derived('idx_', '_stuck')} (stuck_at),
  CONSTRAINT ${names.derived('chk_', '_status')} CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin ROW_FORMAT=DYNAMIC`;
}
