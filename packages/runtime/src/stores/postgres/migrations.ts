/**
 * Migrations: an append-only list per layout, applied only when asked (`migrate()`), all in one
 * transaction under pg_advisory_xact_lock so that app instances starting together apply each
 * step once. `migrationSql()` returns the very script `migrate()` runs, for teams whose own
 * tooling applies DDL; `schemaSql()` the plain DDL, for reading and for design documents.
 */
import { claimFunctionSql } from './partitioned-sql.js';
import { partitionedTableSql, plainTableSql, tableNames, type PostgresLayout, type TableNames } from './schema.js';
import type { PgQueryable } from './queryable.js';

export interface Migration {
  /** 1, 2, 3 … in order; never renumbered, never edited once released. */
  readonly version: number;
  readonly name: string;
  readonly sql: (names: TableNames) => string;
}

/**
 * Append only: a released step is never edited; a change is a new step. Step 1 was edited in
 * place once, before any release (lock_version INT → BIGINT for clock-based fencing tokens):
 * no database outside this repository's tests can hold the INT version.
 */
export const MIGRATIONS: Readonly<Record<PostgresLayout, readonly Migration[]>> = {
  plain: [{ version: 1, name: 'create idempotency_store', sql: plainTableSql }],
  partitioned: [
    { version: 1, name: 'create partitioned idempotency_store', sql: partitionedTableSql },
    { version: 2, name: 'create claim function', sql: claimFunctionSql },
  ],
};

export interface MigrationTarget {
  /** Default `public`. */
  readonly schema?: string;
  /** Default `idempotency_store`. */
  readonly table?: string;
  /** Default `plain`. */
  readonly layout?: PostgresLayout;
}

/** Second advisory-lock key of the migration lock (the first is the table's lock class). */
const MIGRATION_LOCK = 0;

const resolve = ({ schema = 'public', table = 'idempotency_store', layout = 'plain' }: MigrationTarget = {}) => ({
  names: tableNames(schema, table),
  steps: MIGRATIONS[layout],
  layout,
});

/**
 * The script body: the advisory lock, the ledger, then each step not yet in the ledger (a DO
 * block checks). Sent as one multi-statement query it runs as ONE implicit transaction, and an
 * error rolls all of it back without leaving the connection inside an aborted transaction — an
 * explicit BEGIN would, and a pooled connection would carry that to its next user.
 */
function migrationBody(target: MigrationTarget): string {
  const { names, steps, layout } = resolve(target);
  const applied = steps.map(
    (step) => `-- ${step.version}: ${step.name}
DO $migration_${step.version}$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ${names.migrations} WHERE version = ${step.version}) THEN
${indent(statements(step, names), 4)};
    INSERT INTO ${names.migrations} (version, name) VALUES (${step.version}, '${step.name}');
  END IF;
END
$migration_${step.version}$;`,
  );
  return `-- idempotency-builder: ${names.qualified}, layout ${layout}
SELECT pg_advisory_xact_lock(${names.lockClass}, ${MIGRATION_LOCK});
CREATE SCHEMA IF NOT EXISTS ${names.quotedSchema};
CREATE TABLE IF NOT EXISTS ${names.migrations} (
  version    INT PRIMARY KEY,
  name       TEXT NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp()
);
${applied.join('\n\n')}
`;
}

/**
 * The idempotent migration script for your own tooling (psql -f, Flyway, …): what `migrate()`
 * runs, wrapped in BEGIN/COMMIT because such tools send statements one by one. Safe to run any
 * number of times, also concurrently: the advisory lock serialises runs, the ledger skips steps.
 * @example fs.writeFileSync('migrations/001_idempotency.sql', migrationSql({ schema: 'billing' }));
 */
export function migrationSql(target: MigrationTarget = {}): string {
  return `BEGIN;\n${migrationBody(target)}COMMIT;\n`;
}

/**
 * The DDL of every step, without ledger or locks: what the table looks like.
 * @example console.log(schemaSql({ layout: 'partitioned' }));
 */
export function schemaSql(target: MigrationTarget = {}): string {
  const { names, steps } = resolve(target);
  return `${steps.map((step) => `-- ${step.version}: ${step.name}\n${statements(step, names)};`).join('\n\n')}\n`;
}

/**
 * Applies the missing steps in one transaction (one round trip). The port must accept a
 * parameterless multi-statement script: a pg Pool/Client does; wrap PGlite with
 * `pgliteQueryable()` and knex with `knexQueryable()`.
 * @example await migrate(pool, { schema: 'billing' });
 */
export async function migrate(db: PgQueryable, target: MigrationTarget = {}): Promise<void> {
  await db.query(migrationBody(target));
}

/** A step's statements without the final semicolon, which the callers add. */
const statements = (step: Migration, names: TableNames) => step.sql(names).replace(/;\s*$/, '');

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
}
