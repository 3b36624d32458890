/**
 * SQLite (3.35+): the logical model with integer millisecond timestamps taken from SQLite's own
 * clock. Writers are serialised by the database, so insert-if-absent plus a fenced takeover is
 * atomic across processes sharing the file (WAL mode).
 */
import type { NamedStatement } from '../sql/statements.js';
import type { SqlSchemaOptions } from './postgresql.js';

/** Milliseconds since the epoch from SQLite's clock; works on every SQLite version. */
export const SQLITE_NOW_MS = `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`;
const NOW = SQLITE_NOW_MS;

/**
 * The DDL, ready to run with the sqlite3 shell.
 * @example sqliteDdl({ table: 'idempotency_store', partitioned: false, saga: false })
 */
export function sqliteDdl({ table, saga }: SqlSchemaOptions): string {
  const out: string[] = [];
  out.push(`-- Idempotency store for SQLite 3.35+. Times are INTEGER milliseconds since the epoch from`);
  out.push(`-- SQLite's clock (julianday('now')). Run with journal_mode=WAL and a busy_timeout so several`);
  out.push(`-- processes can share the file. lock_version is the fencing token: a fresh record starts at the`);
  out.push(`-- clock in ms, an orphan reclaim adds 1, replacing an expired record takes MAX(lock_version + 1,`);
  out.push(`-- clock ms) — so a released key's next incarnation never reissues a token.`);
  out.push(`PRAGMA journal_mode = WAL;`);
  out.push('');
  out.push(`CREATE TABLE ${table} (`);
  out.push(`    idempotency_key  TEXT     NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),`);
  out.push(`    user_id          TEXT     NOT NULL CHECK (length(user_id) BETWEEN 1 AND 128),`);
  out.push(`    fingerprint      TEXT     NOT NULL CHECK (length(fingerprint) = 64),`);
  out.push(`    status           TEXT     NOT NULL DEFAULT 'PROCESSING',`);
  out.push(`    response_code    INTEGER,`);
  out.push(`    response_body    TEXT,`);
  out.push(`    lock_version     INTEGER  NOT NULL DEFAULT 0, -- 64-bit; claims set it (see below)`);
  out.push(`    locked_until     INTEGER,`);
  out.push(`    created_at       INTEGER  NOT NULL,`);
  out.push(`    completed_at     INTEGER,`);
  out.push(`    expires_at       INTEGER  NOT NULL,`);
  out.push('');
  out.push(`    CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id),`);
  out.push(`    CONSTRAINT chk_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED'))`);
  out.push(`) WITHOUT ROWID;`);
  out.push('');
  out.push(`CREATE INDEX idx_idempotency_expires ON ${table} (expires_at) WHERE status != 'PROCESSING';`);
  out.push(`CREATE INDEX idx_idempotency_orphan_locks ON ${table} (locked_until) WHERE status = 'PROCESSING';`);
  if (saga) {
    out.push('');
    out.push(`CREATE TABLE ${table}_saga_step (`);
    out.push(`    idempotency_key  TEXT     NOT NULL,`);
    out.push(`    user_id          TEXT     NOT NULL,`);
    out.push(`    step_index       INTEGER  NOT NULL CHECK (step_index >= 1),`);
    out.push(`    step_name        TEXT     NOT NULL,`);
    out.push(`    status           TEXT     NOT NULL CHECK (status IN ('PENDING', 'DONE', 'FAILED', 'COMPENSATED')),`);
    out.push(`    provider_ref     TEXT,`);
    out.push(`    updated_at       INTEGER  NOT NULL,`);
    out.push(`    CONSTRAINT pk_idempotency_saga_step PRIMARY KEY (idempotency_key, user_id, step_index),`);
    out.push(`    FOREIGN KEY (idempotency_key, user_id) REFERENCES ${table} (idempotency_key, user_id) ON DELETE CASCADE`);
    out.push(`) WITHOUT ROWID;`);
  }
  return `${out.join('\n')}\n`;
}

/**
 * Every statement of the flow, parameterised with `:name` (SQLite binds `:name` natively).
 * @example sqliteStatements('idempotency_store').map((s) => s.name)
 */
export function sqliteStatements(table: string, saga = false): NamedStatement[] {
  const id = 'idempotency_key = :key AND user_id = :scope';
  const statements: NamedStatement[] = [
    {
      name: 'claim_insert',
      purpose: 'Insert-if-absent. One row back = claimed, holding the returned lock_version (the clock in ms); none = the key exists (fetch it).',
      sql: `INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
VALUES (:key, :scope, :fingerprint, 'PROCESSING', ${NOW}, ${NOW} + :lease_ms, ${NOW}, ${NOW} + :ttl_ms)
ON CONFLICT (idempotency_key, user_id) DO NOTHING
RETURNING lock_version, locked_until`,
    },
    {
      name: 'fetch',
      purpose: 'The record plus SQLite’s clock and its verdicts (lease over, expired).',
      sql: `SELECT idempotency_key, user_id, fingerprint, status, response_code, response_body, lock_version,
       locked_until, created_at, completed_at, expires_at, ${NOW} AS db_now,
       (status = 'PROCESSING' AND locked_until <= ${NOW}) AS lease_over,
       (status <> 'PROCESSING' AND expires_at <= ${NOW}) AS expired
  FROM ${table}
 WHERE ${id}`,
    },
    {
      name: 'reclaim',
      purpose: 'Compare-and-set takeover fenced by the lock_version that was read. One row = this caller holds the returned lock_version (orphan: + 1; expired: MAX(+ 1, clock ms)).',
      sql: `UPDATE ${table}
   SET created_at = CASE WHEN status = 'PROCESSING' THEN created_at ELSE ${NOW} END,
       fingerprint = :fingerprint,
       lock_version = CASE WHEN status = 'PROCESSING' THEN lock_version + 1 ELSE MAX(lock_version + 1, ${NOW}) END,
       locked_until = ${NOW} + :lease_ms,
       expires_at = ${NOW} + :ttl_ms,
       completed_at = NULL, response_code = NULL, response_body = NULL,
       status = 'PROCESSING'
 WHERE ${id} AND lock_version = :lock_version
   AND ((status = 'PROCESSING' AND locked_until <= ${NOW} AND fingerprint = :fingerprint)
     OR (status <> 'PROCESSING' AND expires_at <= ${NOW}))
RETURNING lock_version, locked_until`,
    },
    {
      name: 'extend',
      purpose: 'Heartbeat, fenced. No row = lease lost.',
      sql: `UPDATE ${table} SET locked_until = ${NOW} + :lease_ms
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING locked_until`,
    },
    ...(['complete', 'fail'] as const).map((name) => ({
      name,
      purpose: `PROCESSING → ${name === 'complete' ? 'COMPLETED' : 'FAILED'}, fenced by lock_version. No row = lease lost.`,
      sql: `UPDATE ${table}
   SET status = '${name === 'complete' ? 'COMPLETED' : 'FAILED'}', response_code = :response_code, response_body = :response_body,
       completed_at = ${NOW}, locked_until = NULL, expires_at = ${NOW} + :ttl_ms
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING lock_version`,
    })),
    {
      name: 'release',
      purpose: 'Transient failure: delete the claim, fenced by lock_version.',
      sql: `DELETE FROM ${table} WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING lock_version`,
    },
    {
      name: 'purge_expired',
      purpose: 'Cleanup batch: delete up to :batch_size expired finished records, oldest first.',
      sql: `DELETE FROM ${table}
 WHERE (idempotency_key, user_id) IN (
       SELECT idempotency_key, user_id FROM ${table}
        WHERE status != 'PROCESSING' AND expires_at <= ${NOW}
        ORDER BY expires_at
        LIMIT :batch_size)`,
    },
    {
      name: 'list_stuck',
      purpose: 'Runbook: PROCESSING records whose lease ended at least :older_than_ms ago.',
      sql: `SELECT idempotency_key, user_id, lock_version, locked_until, created_at, ${NOW} - locked_until AS overdue_ms
  FROM ${table}
 WHERE status = 'PROCESSING' AND locked_until <= ${NOW} - :older_than_ms
 ORDER BY locked_until
 LIMIT :limit`,
    },
    {
      name: 'force_release',
      purpose: 'Runbook manual release: end the lease now and bump lock_version so the old holder is fenced out.',
      sql: `UPDATE ${table} SET locked_until = ${NOW}, lock_version = lock_version + 1
 WHERE ${id} AND status = 'PROCESSING'
RETURNING lock_version`,
    },
  ];
  if (saga) {
    statements.push({
      name: 'saga_step_mark',
      purpose: 'Record a step outcome only while the caller still holds the outer key (writers are serialised).',
      sql: `INSERT INTO ${table}_saga_step (idempotency_key, user_id, step_index, step_name, status, provider_ref, updated_at)
SELECT idempotency_key, user_id, :step_index, :step_name, :step_status, :provider_ref, ${NOW}
  FROM ${table}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
ON CONFLICT (idempotency_key, user_id, step_index)
DO UPDATE SET status = excluded.status, provider_ref = excluded.provider_ref, updated_at = excluded.updated_at
RETURNING step_index, status`,
    });
  }
  return statements;
}
