/**
 * MySQL 8 / MariaDB 10.11 (InnoDB): the runtime's own table and statements
 * (`mysqlContract` from `@idempotency-builder/runtime/contract`, the objects createMysqlStore
 * runs), plus what only the builder adds: KEY partitioning on request and the saga step table.
 */
import { mysqlContract } from '@idempotency-builder/runtime/contract';
import { namedMysql } from '../standalone/contract-source.js';
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

/**
 * The DDL, ready to run with the mysql/mariadb client: the runtime's migration steps (idempotent,
 * the same DDL `store.migrate()` applies under GET_LOCK), then the builder's additions.
 * @example mysqlDdl({ table: 'idempotency_store', partitioned: false, saga: false })
 */
export function mysqlDdl({ table, partitioned, saga, partitions = 16 }: SqlSchemaOptions): string {
  const contract = mysqlContract({ table });
  const out: string[] = [];
  out.push(`-- The idempotency-builder runtime's MySQL/MariaDB schema (createMysqlStore's migration steps):`);
  out.push(`-- idempotent, so safe to run again. Or call store.migrate(), which applies the same steps under`);
  out.push(`-- GET_LOCK and records them in ${table}_migrations.`);
  out.push('');
  out.push(contract.schemaSql.trimEnd());
  if (partitioned) {
    out.push('');
    out.push(`-- Builder addition: partitioned BY KEY(idempotency_key). InnoDB requires every unique key to`);
    out.push(`-- contain the partition columns, so the primary key still guarantees one row per (key, user)`);
    out.push(`-- overall. Run once, on an empty table (it rebuilds the table).`);
    out.push(`ALTER TABLE ${contract.table} PARTITION BY KEY (idempotency_key) PARTITIONS ${partitions};`);
  }
  if (saga) {
    out.push('');
    out.push(`-- Builder addition: saga steps of the generated Go/Python/Java code (TypeScript sagas keep every`);
    out.push(`-- step as a record of the table above, under the sub-key {key}:{step}, and need no extra table).`);
    out.push(`CREATE TABLE IF NOT EXISTS ${table}_saga_step (`);
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

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The runtime's statements as named statements (`:snake_case` holes; the runtime binds `?` in
 * the order its `params` list), for readers that substitute values by name, plus the builder's
 * saga statement. Names are the runtime's operation names.
 * @example mysqlStatements('idempotency_store').map((s) => s.name) // ['claimUpsert', 'claimRead', …]
 */
export function mysqlStatements(table: string, saga = false): NamedStatement[] {
  const contract = mysqlContract({ table });
  const named = (statement: { text: string; params: readonly string[] }) => namedMysql({ text: statement.text, params: statement.params.map(snake) });
  const statements: NamedStatement[] = Object.entries(contract.statements).map(([name, statement]) => ({
    name,
    purpose: `The runtime's ${name} statement.`,
    sql: named(statement),
  }));
  statements.push({ name: 'purgeDelete', purpose: "The runtime's purge delete, for one candidate row.", sql: named(contract.purgeDelete(1)) });
  if (saga) {
    statements.push({
      name: 'saga_step_mark',
      purpose: 'Record a step outcome only while the caller still holds the outer key (the parent row is share-locked).',
      sql: `INSERT INTO ${table}_saga_step (idempotency_key, user_id, step_index, step_name, status, provider_ref, updated_at)
SELECT idempotency_key, user_id, :step_index, :step_name, :step_status, :provider_ref, UTC_TIMESTAMP(3)
  FROM ${table}
 WHERE idempotency_key = :key AND user_id = :scope AND lock_version = :lock_version AND status = 'PROCESSING'
  LOCK IN SHARE MODE
ON DUPLICATE KEY UPDATE status = VALUES(status), provider_ref = VALUES(provider_ref), updated_at = VALUES(updated_at)`,
    });
  }
  return statements;
}
