/**
 * MySQL 8 / MariaDB 10.5+ (InnoDB): the logical model redesigned for a database without
 * partial indexes or INSERT … RETURNING. Claims are insert-if-absent, then a fenced
 * compare-and-set takeover; all times from the server's UTC clock.
 */
import type { NamedStatement } from '../sql/statements.js';

export interface SqlSchemaOptions {
  readonly table: string;
  /** Partition the table by KEY (idempotency_key): uniqueness of (key, user_id) stays global. */
  readonly partitioned: boolean;
  /** Add the saga step table. */
  readonly saga: boolean;
  /** Number of partitions when partitioned. */
  readonly partitions?: number;
}

const NOW = 'UTC_TIMESTAMP(3)';
/** The server clock in whole ms since the epoch (UTC, no session time zone involved). */
const NOW_MS = `(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', ${NOW}) DIV 1000)`;
const plus = (param: string) => `TIMESTAMPADD(MICROSECOND, :${param} * 1000, ${NOW})`;

/**
 * The DDL, ready to run with the mysql/mariadb client.
 * @example mysqlDdl({ table: 'idempotency_store', partitioned: false, saga: false })
 */
export function mysqlDdl({ table, partitioned, saga, partitions = 16 }: SqlSchemaOptions): string {
  const out: string[] = [];
  out.push(`-- Idempotency store for MySQL 8.0.16+ / MariaDB 10.5+ (InnoDB).`);
  out.push(`-- Times are DATETIME(3) in UTC, always written and compared with UTC_TIMESTAMP(3) on the server,`);
  out.push(`-- so neither the session time zone nor an application clock takes part.`);
  out.push(`-- Keys use a binary collation: with the default case-insensitive collation 'Abc' and 'abc'`);
  out.push(`-- would be the same key, and a different intent would be answered as a duplicate.`);
  out.push(`-- lock_version is the fencing token (BIGINT): a fresh record starts at the server clock in ms,`);
  out.push(`-- an orphan reclaim adds 1, replacing an expired record takes GREATEST(lock_version + 1, clock ms),`);
  out.push(`-- so a released key's next incarnation never reissues a token. Claims hand the new value back`);
  out.push(`-- through LAST_INSERT_ID(expr): the driver's last-insert-id of that very statement.`);
  if (partitioned) {
    out.push(`-- Partitioned BY KEY(idempotency_key): InnoDB requires every unique key to contain the`);
    out.push(`-- partition columns, so the primary key still guarantees one row per (key, user) overall.`);
  }
  out.push('');
  out.push(`CREATE TABLE ${table} (`);
  out.push(`    idempotency_key  VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,`);
  out.push(`    user_id          VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,`);
  out.push(`    fingerprint      CHAR(64)     CHARACTER SET ascii COLLATE ascii_bin NOT NULL,`);
  out.push(`    status           VARCHAR(20)  NOT NULL DEFAULT 'PROCESSING',`);
  out.push(`    response_code    INT          NULL,`);
  out.push(`    response_body    JSON         NULL,`);
  out.push(`    lock_version     BIGINT       NOT NULL DEFAULT 0,`);
  out.push(`    locked_until     DATETIME(3)  NULL,`);
  out.push(`    created_at       DATETIME(3)  NOT NULL,`);
  out.push(`    completed_at     DATETIME(3)  NULL,`);
  out.push(`    expires_at       DATETIME(3)  NOT NULL,`);
  out.push('');
  out.push(`    CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id),`);
  out.push(`    CONSTRAINT chk_${table}_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),`);
  out.push(`    KEY idx_idempotency_expires (expires_at, status),`);
  out.push(`    KEY idx_idempotency_orphan_locks (status, locked_until)`);
  out.push(partitioned ? `) ENGINE=InnoDB\n  PARTITION BY KEY (idempotency_key) PARTITIONS ${partitions};` : `) ENGINE=InnoDB;`);
  if (saga) {
    out.push('');
    out.push(`CREATE TABLE ${table}_saga_step (`);
    out.push(`    idempotency_key  VARCHAR(255) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,`);
    out.push(`    user_id          VARCHAR(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,`);
    out.push(`    step_index       SMALLINT     NOT NULL,`);
    out.push(`    step_name        VARCHAR(64)  NOT NULL,`);
    out.push(`    status           VARCHAR(20)  NOT NULL,`);
    out.push(`    provider_ref     VARCHAR(255) NULL,`);
    out.push(`    updated_at       DATETIME(3)  NOT NULL,`);
    out.push(`    CONSTRAINT pk_idempotency_saga_step PRIMARY KEY (idempotency_key, user_id, step_index),`);
    out.push(`    CONSTRAINT chk_${table}_saga_step_status CHECK (status IN ('PENDING', 'DONE', 'FAILED', 'COMPENSATED'))`);
    out.push(`) ENGINE=InnoDB;`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * Every statement of the flow, parameterised with `:name` (render with `toQuestion`).
 * @example mysqlStatements('idempotency_store').map((s) => s.name)
 */
export function mysqlStatements(table: string, saga = false): NamedStatement[] {
  const id = 'idempotency_key = :key AND user_id = :scope';
  const statements: NamedStatement[] = [
    {
      name: 'claim_insert',
      purpose: 'Insert-if-absent. Affected rows 1 = claimed, holding lock_version = the server clock in ms, which the statement\'s last-insert-id carries (LAST_INSERT_ID(expr), no second query); 0 = the key exists (fetch it). IGNORE also mutes data errors, so key, scope and fingerprint are validated before this runs.',
      sql: `INSERT IGNORE INTO ${table} (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
VALUES (:key, :scope, :fingerprint, 'PROCESSING', LAST_INSERT_ID(${NOW_MS}), ${plus('lease_ms')}, ${NOW}, ${plus('ttl_ms')})`,
    },
    {
      name: 'fetch',
      purpose: 'The record plus the server clock and its verdicts, read with a plain SELECT (autocommit, so never a stale snapshot).',
      sql: `SELECT idempotency_key, user_id, fingerprint, status, response_code, response_body, lock_version,
       locked_until, created_at, completed_at, expires_at, ${NOW} AS db_now,
       (status = 'PROCESSING' AND locked_until <= ${NOW}) AS lease_over,
       (status <> 'PROCESSING' AND expires_at <= ${NOW}) AS expired
  FROM ${table}
 WHERE ${id}`,
    },
    {
      name: 'reclaim',
      purpose: 'Compare-and-set takeover fenced by the lock_version that was read. Affected rows 1 = this caller holds the new lock_version (orphan: + 1; expired: GREATEST(+ 1, clock ms)), carried by the statement\'s last-insert-id. SET runs left to right in MySQL, so status is assigned last.',
      sql: `UPDATE ${table}
   SET created_at = IF(status = 'PROCESSING', created_at, ${NOW}),
       fingerprint = :fingerprint,
       lock_version = LAST_INSERT_ID(IF(status = 'PROCESSING', lock_version + 1, GREATEST(lock_version + 1, ${NOW_MS}))),
       locked_until = ${plus('lease_ms')},
       expires_at = ${plus('ttl_ms')},
       completed_at = NULL, response_code = NULL, response_body = NULL,
       status = 'PROCESSING'
 WHERE ${id} AND lock_version = :lock_version
   AND ((status = 'PROCESSING' AND locked_until <= ${NOW} AND fingerprint = :fingerprint)
     OR (status <> 'PROCESSING' AND expires_at <= ${NOW}))`,
    },
    {
      name: 'extend',
      purpose: 'Heartbeat, fenced. Affected rows 0 = lease lost.',
      sql: `UPDATE ${table} SET locked_until = ${plus('lease_ms')}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'`,
    },
    ...(['complete', 'fail'] as const).map((name) => ({
      name,
      purpose: `PROCESSING → ${name === 'complete' ? 'COMPLETED' : 'FAILED'}, fenced by lock_version. Affected rows 0 = lease lost.`,
      sql: `UPDATE ${table}
   SET response_code = :response_code, response_body = :response_body, completed_at = ${NOW},
       locked_until = NULL, expires_at = ${plus('ttl_ms')}, status = '${name === 'complete' ? 'COMPLETED' : 'FAILED'}'
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'`,
    })),
    {
      name: 'release',
      purpose: 'Transient failure: delete the claim, fenced by lock_version.',
      sql: `DELETE FROM ${table} WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'`,
    },
    {
      name: 'purge_expired',
      purpose: 'Cleanup batch: delete up to :batch_size expired finished records, oldest first; short statements keep row locks brief.',
      sql: `DELETE FROM ${table}
 WHERE expires_at <= ${NOW} AND status <> 'PROCESSING'
 ORDER BY expires_at
 LIMIT :batch_size`,
    },
    {
      name: 'list_stuck',
      purpose: 'Runbook: PROCESSING records whose lease ended at least :older_than_ms ago.',
      sql: `SELECT idempotency_key, user_id, lock_version, locked_until, created_at,
       TIMESTAMPDIFF(SECOND, locked_until, ${NOW}) AS overdue_seconds
  FROM ${table}
 WHERE status = 'PROCESSING' AND locked_until <= TIMESTAMPADD(MICROSECOND, -:older_than_ms * 1000, ${NOW})
 ORDER BY locked_until
 LIMIT :limit`,
    },
    {
      name: 'force_release',
      purpose: 'Runbook manual release: end the lease now and bump lock_version so the old holder is fenced out.',
      sql: `UPDATE ${table} SET locked_until = ${NOW}, lock_version = lock_version + 1
 WHERE ${id} AND status = 'PROCESSING'`,
    },
  ];
  if (saga) {
    statements.push({
      name: 'saga_step_mark',
      purpose: 'Record a step outcome only while the caller still holds the outer key (the parent row is share-locked).',
      sql: `INSERT INTO ${table}_saga_step (idempotency_key, user_id, step_index, step_name, status, provider_ref, updated_at)
SELECT idempotency_key, user_id, :step_index, :step_name, :step_status, :provider_ref, ${NOW}
  FROM ${table}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
  LOCK IN SHARE MODE
ON DUPLICATE KEY UPDATE status = VALUES(status), provider_ref = VALUES(provider_ref), updated_at = VALUES(updated_at)`,
    });
  }
  return statements;
}
