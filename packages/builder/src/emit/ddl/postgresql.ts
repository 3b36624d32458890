/**
 * PostgreSQL: the spec's reference schema (or its hash-partitioned form above 100K keys a day),
 * the saga step table, and every statement the flow needs — all times from the database clock.
 */
import type { NamedStatement } from '../sql/statements.js';

export interface SqlSchemaOptions {
  readonly table: string;
  /** Hash-partition the table (uniqueness of (key, user_id) is kept across partitions). */
  readonly partitioned: boolean;
  /** Add the saga step table. */
  readonly saga: boolean;
  /** Number of hash partitions when partitioned. */
  readonly partitions?: number;
}

/**
 * The database clock in whole milliseconds since the epoch, as BIGINT: a fresh record's fencing
 * token. Starting every record at 1 would let a stalled holder of a released key's first
 * incarnation match the next incarnation's token (A v1 stalls, B reclaims v2 and releases, C gets v1).
 */
export const PG_NOW_MS = `floor(extract(epoch FROM now()) * 1000)::bigint`;
const NOW_MS = PG_NOW_MS;

const COLUMNS = `    idempotency_key  VARCHAR(255)  NOT NULL,
    user_id          VARCHAR(128)  NOT NULL,
    fingerprint      CHAR(64)      NOT NULL,
    status           VARCHAR(20)   NOT NULL DEFAULT 'PROCESSING',
    response_code    INT,
    response_body    JSONB,
    lock_version     BIGINT        NOT NULL DEFAULT (${NOW_MS}),
    locked_until     TIMESTAMPTZ,
    created_at       TIMESTAMPTZ   NOT NULL DEFAULT NOW(),
    completed_at     TIMESTAMPTZ,
    expires_at       TIMESTAMPTZ   NOT NULL,`;

/**
 * The DDL, ready to run with psql.
 * @example postgresDdl({ table: 'idempotency_store', partitioned: false, saga: false })
 */
export function postgresDdl({ table, partitioned, saga, partitions = 16 }: SqlSchemaOptions): string {
  const out: string[] = [];
  out.push(`-- Idempotency store for PostgreSQL (11+). All timestamps come from the database clock (now()).`);
  out.push(`-- The composite primary key makes a second claim of (key, user) physically impossible;`);
  out.push(`-- the CHECK keeps status inside the state machine.`);
  if (partitioned) {
    out.push(`--`);
    out.push(`-- Hash-partitioned on idempotency_key: the partition key is part of the primary key, so`);
    out.push(`-- (idempotency_key, user_id) stays unique across partitions. Range partitioning on created_at`);
    out.push(`-- would force created_at into the key and let the same key exist in two partitions.`);
  }
  out.push('');
  out.push(`CREATE TABLE ${table} (`);
  out.push(COLUMNS);
  out.push('');
  out.push(`    CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id),`);
  out.push(`    CONSTRAINT chk_status CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),`);
  out.push(`    CONSTRAINT chk_fingerprint CHECK (fingerprint ~ '^[0-9a-f]{64}$'),`);
  out.push(`    CONSTRAINT chk_key_charset CHECK (idempotency_key ~ '^[A-Za-z0-9_.:~-]{1,255}$')`);
  out.push(partitioned ? `) PARTITION BY HASH (idempotency_key);` : `);`);
  out.push('');
  if (partitioned) {
    for (let remainder = 0; remainder < partitions; remainder++) {
      const name = `${table}_p${String(remainder).padStart(2, '0')}`;
      out.push(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES WITH (MODULUS ${partitions}, REMAINDER ${remainder});`);
    }
    out.push('');
  }
  out.push(`-- Cleanup scans only finished records, oldest expiry first.`);
  out.push(`CREATE INDEX idx_idempotency_expires ON ${table} (expires_at)`);
  out.push(`    WHERE status != 'PROCESSING';`);
  out.push('');
  out.push(`-- Supports orphan-lock recovery queries`);
  out.push(`CREATE INDEX idx_idempotency_orphan_locks ON ${table} (locked_until)`);
  out.push(`    WHERE status = 'PROCESSING';`);
  if (!partitioned) {
    out.push('');
    out.push(`-- Every row is inserted, updated and deleted within its retention: vacuum early.`);
    out.push(`ALTER TABLE ${table} SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_analyze_scale_factor = 0.05);`);
  }
  if (saga) {
    out.push('');
    out.push(`-- Saga steps: one row per step of a multi-step action; the outer record stays PROCESSING`);
    out.push(`-- until the saga is COMPLETED, or FAILED after compensation (ROLLED_BACK).`);
    out.push(`CREATE TABLE ${table}_saga_step (`);
    out.push(`    idempotency_key  VARCHAR(255)  NOT NULL,`);
    out.push(`    user_id          VARCHAR(128)  NOT NULL,`);
    out.push(`    step_index       SMALLINT      NOT NULL,`);
    out.push(`    step_name        VARCHAR(64)   NOT NULL,`);
    out.push(`    status           VARCHAR(20)   NOT NULL,`);
    out.push(`    provider_ref     VARCHAR(255),`);
    out.push(`    updated_at       TIMESTAMPTZ   NOT NULL DEFAULT NOW(),`);
    out.push('');
    out.push(`    CONSTRAINT pk_idempotency_saga_step PRIMARY KEY (idempotency_key, user_id, step_index),`);
    out.push(`    CONSTRAINT chk_saga_step_status CHECK (status IN ('PENDING', 'DONE', 'FAILED', 'COMPENSATED')),`);
    out.push(`    CONSTRAINT chk_saga_step_index CHECK (step_index >= 1),`);
    out.push(`    CONSTRAINT fk_saga_step_record FOREIGN KEY (idempotency_key, user_id)`);
    out.push(`        REFERENCES ${table} (idempotency_key, user_id) ON DELETE CASCADE`);
    out.push(`);`);
  }
  return `${out.join('\n')}\n`;
}

const ms = (param: string) => `(:${param}::double precision * interval '1 millisecond')`;

/**
 * Every statement of the flow, parameterised with `:name`.
 * @example postgresStatements('idempotency_store').find((s) => s.name === 'claim')
 */
export function postgresStatements(table: string, saga = false): NamedStatement[] {
  const id = `idempotency_key = :key AND user_id = :scope`;
  const statements: NamedStatement[] = [
    {
      name: 'claim',
      purpose: `One round trip: insert, or take over an orphaned/expired record, or return the existing one. Zero rows means a concurrent claim committed after this statement's snapshot: run it again.`,
      sql: `WITH claimed AS (
    INSERT INTO ${table} AS s (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
    VALUES (:key, :scope, :fingerprint, 'PROCESSING', ${NOW_MS}, now() + ${ms('lease_ms')}, now(), now() + ${ms('ttl_ms')})
    ON CONFLICT (idempotency_key, user_id) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint,
            status = 'PROCESSING',
            lock_version = CASE WHEN s.status = 'PROCESSING' THEN s.lock_version + 1
                                ELSE GREATEST(s.lock_version + 1, EXCLUDED.lock_version) END,
            locked_until = EXCLUDED.locked_until,
            expires_at = EXCLUDED.expires_at,
            created_at = CASE WHEN s.status = 'PROCESSING' THEN s.created_at ELSE now() END,
            completed_at = NULL, response_code = NULL, response_body = NULL
        WHERE (s.status = 'PROCESSING' AND s.locked_until <= now() AND s.fingerprint = EXCLUDED.fingerprint)
           OR (s.status <> 'PROCESSING' AND s.expires_at <= now())
    RETURNING 'claimed'::text AS outcome, s.status, s.fingerprint, s.lock_version, s.locked_until, s.expires_at, s.response_code, s.response_body
)
SELECT outcome, status, fingerprint, lock_version, locked_until, expires_at, response_code, response_body, now() AS db_now FROM claimed
UNION ALL
SELECT 'existing', status, fingerprint, lock_version, locked_until, expires_at, response_code, response_body, now()
  FROM ${table}
 WHERE ${id} AND NOT EXISTS (SELECT 1 FROM claimed)`,
    },
    {
      name: 'claim_insert',
      purpose: 'Insert-if-absent. One row back = claimed, holding the returned lock_version (the database clock in ms); no row = the key exists (fetch it).',
      sql: `INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
VALUES (:key, :scope, :fingerprint, 'PROCESSING', ${NOW_MS}, now() + ${ms('lease_ms')}, now(), now() + ${ms('ttl_ms')})
ON CONFLICT (idempotency_key, user_id) DO NOTHING
RETURNING lock_version, locked_until`,
    },
    {
      name: 'fetch',
      purpose: 'The record plus the database clock and its verdicts (lease over, expired), so the application never consults its own clock.',
      sql: `SELECT idempotency_key, user_id, fingerprint, status, response_code, response_body, lock_version,
       locked_until, created_at, completed_at, expires_at, now() AS db_now,
       (status = 'PROCESSING' AND locked_until <= now()) AS lease_over,
       (status <> 'PROCESSING' AND expires_at <= now()) AS expired
  FROM ${table}
 WHERE ${id}`,
    },
    {
      name: 'reclaim',
      purpose: 'Compare-and-set takeover of an orphaned (lease over, same fingerprint) or expired record, fenced by the lock_version that was read. One row = this caller holds the key with the returned lock_version (orphan: + 1; expired: GREATEST(+ 1, clock ms)); none = another node won.',
      sql: `UPDATE ${table}
   SET created_at = CASE WHEN status = 'PROCESSING' THEN created_at ELSE now() END,
       fingerprint = :fingerprint,
       lock_version = CASE WHEN status = 'PROCESSING' THEN lock_version + 1 ELSE GREATEST(lock_version + 1, ${NOW_MS}) END,
       locked_until = now() + ${ms('lease_ms')},
       expires_at = now() + ${ms('ttl_ms')},
       completed_at = NULL, response_code = NULL, response_body = NULL,
       status = 'PROCESSING'
 WHERE ${id} AND lock_version = :lock_version
   AND ((status = 'PROCESSING' AND locked_until <= now() AND fingerprint = :fingerprint)
     OR (status <> 'PROCESSING' AND expires_at <= now()))
RETURNING lock_version, locked_until`,
    },
    {
      name: 'extend',
      purpose: 'Heartbeat: push the lease end, only while this holder still owns the key.',
      sql: `UPDATE ${table} SET locked_until = now() + ${ms('lease_ms')}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING locked_until`,
    },
    ...(['complete', 'fail'] as const).map((name) => ({
      name,
      purpose: `PROCESSING → ${name === 'complete' ? 'COMPLETED' : 'FAILED (permanent error, replayed later)'}, fenced by lock_version; retention restarts at completion. No row = lease lost, write nothing else.`,
      sql: `UPDATE ${table}
   SET status = '${name === 'complete' ? 'COMPLETED' : 'FAILED'}', response_code = :response_code, response_body = CAST(:response_body AS JSONB),
       completed_at = now(), locked_until = NULL, expires_at = now() + ${ms('ttl_ms')}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING lock_version`,
    })),
    {
      name: 'release',
      purpose: 'Transient failure: delete the claim so a retry can run at once, fenced by lock_version.',
      sql: `DELETE FROM ${table} WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
RETURNING lock_version`,
    },
    {
      name: 'purge_expired',
      purpose: 'Cleanup batch: delete up to :batch_size expired finished records without blocking claims (SKIP LOCKED).',
      sql: `DELETE FROM ${table} t
 USING (SELECT idempotency_key, user_id FROM ${table}
         WHERE status != 'PROCESSING' AND expires_at <= now()
         ORDER BY expires_at
         LIMIT :batch_size
           FOR UPDATE SKIP LOCKED) old
 WHERE t.idempotency_key = old.idempotency_key AND t.user_id = old.user_id
   AND t.status != 'PROCESSING' AND t.expires_at <= now()`,
    },
    {
      name: 'list_stuck',
      purpose: 'Runbook: PROCESSING records whose lease ended at least :older_than_ms ago (uses idx_idempotency_orphan_locks).',
      sql: `SELECT idempotency_key, user_id, lock_version, locked_until, created_at, now() - locked_until AS overdue
  FROM ${table}
 WHERE status = 'PROCESSING' AND locked_until <= now() - ${ms('older_than_ms')}
 ORDER BY locked_until
 LIMIT :limit`,
    },
    {
      name: 'force_release',
      purpose: 'Runbook manual release: end the lease now and bump lock_version so the old holder is fenced out; the next retry reclaims.',
      sql: `UPDATE ${table} SET locked_until = now(), lock_version = lock_version + 1
 WHERE ${id} AND status = 'PROCESSING'
RETURNING lock_version`,
    },
  ];
  if (saga) {
    statements.push({
      name: 'saga_step_mark',
      purpose: 'Record a step outcome, only while the caller still holds the outer key (the parent row is share-locked, so a concurrent reclaim waits).',
      sql: `WITH holder AS (
    SELECT idempotency_key, user_id FROM ${table}
     WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
       FOR SHARE
)
INSERT INTO ${table}_saga_step (idempotency_key, user_id, step_index, step_name, status, provider_ref)
SELECT idempotency_key, user_id, :step_index, :step_name, :step_status, :provider_ref FROM holder
ON CONFLICT (idempotency_key, user_id, step_index)
DO UPDATE SET status = EXCLUDED.status, provider_ref = EXCLUDED.provider_ref, updated_at = now()
RETURNING step_index, status`,
    });
    statements.push({
      name: 'saga_steps',
      purpose: 'All recorded steps of one saga, in order: the resume point is the first step not DONE.',
      sql: `SELECT step_index, step_name, status, provider_ref, updated_at
  FROM ${table}_saga_step
 WHERE ${id}
 ORDER BY step_index`,
    });
  }
  return statements;
}
