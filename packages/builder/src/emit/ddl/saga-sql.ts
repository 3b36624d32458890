/**
 * The saga step table and its two statements, beside the runtime's PostgreSQL or SQLite table.
 * Builder-owned: the runtime has no saga store yet, so this is an addition to its schema (it
 * references the runtime table's own columns), never a second copy of the claim.
 */
import type { NamedStatement } from '../sql/statements.js';

const STEP_STATUSES = `('PENDING', 'DONE', 'FAILED', 'COMPENSATED')`;

/**
 * The step table. `partitioned`: the runtime's range-partitioned table has no unique
 * (key, user) index a foreign key could reference, so the link is by convention only.
 * @example sagaDdl('postgresql', 'idempotency_store', false).includes('idempotency_store_saga_step') // true
 */
export function sagaDdl(store: 'postgresql' | 'sqlite', table: string, partitioned: boolean): string {
  const pg = store === 'postgresql';
  const text = pg ? 'VARCHAR(255)' : 'TEXT';
  const foreignKey = partitioned
    ? ''
    : `,\n    CONSTRAINT fk_saga_step_record FOREIGN KEY (idempotency_key, user_id)\n        REFERENCES ${table} (idempotency_key, user_id) ON DELETE CASCADE`;
  return `-- Saga steps: one row per step of a multi-step action; the outer record stays PROCESSING
-- until the saga is COMPLETED, or FAILED after compensation.
CREATE TABLE IF NOT EXISTS ${table}_saga_step (
    idempotency_key  ${text}  NOT NULL,
    user_id          ${pg ? 'VARCHAR(128)' : 'TEXT'}  NOT NULL,
    step_index       ${pg ? 'SMALLINT' : 'INTEGER'}  NOT NULL CHECK (step_index >= 1),
    step_name        ${pg ? 'VARCHAR(64)' : 'TEXT'}  NOT NULL,
    status           ${pg ? 'VARCHAR(20)' : 'TEXT'}  NOT NULL CHECK (status IN ${STEP_STATUSES}),
    provider_ref     ${text},
    updated_at       ${pg ? 'TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()' : `INTEGER NOT NULL`},
    CONSTRAINT pk_idempotency_saga_step PRIMARY KEY (idempotency_key, user_id, step_index)${foreignKey}
);
`;
}

/**
 * Record a step (only while the caller still holds the outer key) and read a saga's steps.
 * @example sagaStatements('postgresql', 'idempotency_store').map((s) => s.name) // ['saga_step_mark', 'saga_steps']
 */
export function sagaStatements(store: 'postgresql' | 'sqlite', table: string): NamedStatement[] {
  const id = 'idempotency_key = :key AND user_id = :scope';
  const mark: NamedStatement = store === 'postgresql'
    ? {
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
DO UPDATE SET status = EXCLUDED.status, provider_ref = EXCLUDED.provider_ref, updated_at = clock_timestamp()
RETURNING step_index, status`,
      }
    : {
        name: 'saga_step_mark',
        purpose: 'Record a step outcome only while the caller still holds the outer key (writers are serialised).',
        sql: `INSERT INTO ${table}_saga_step (idempotency_key, user_id, step_index, step_name, status, provider_ref, updated_at)
SELECT idempotency_key, user_id, :step_index, :step_name, :step_status, :provider_ref, CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)
  FROM ${table}
 WHERE ${id} AND lock_version = :lock_version AND status = 'PROCESSING'
ON CONFLICT (idempotency_key, user_id, step_index)
DO UPDATE SET status = excluded.status, provider_ref = excluded.provider_ref, updated_at = excluded.updated_at
RETURNING step_index, status`,
      };
  return [
    mark,
    {
      name: 'saga_steps',
      purpose: 'All recorded steps of one saga, in order: the resume point is the first step not DONE.',
      sql: `SELECT step_index, step_name, status, provider_ref, updated_at
  FROM ${table}_saga_step
 WHERE ${id}
 ORDER BY step_index`,
    },
  ];
}
