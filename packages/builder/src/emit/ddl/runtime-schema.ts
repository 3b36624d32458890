/**
 * For TypeScript projects whose store the runtime already provides, the schema comes from the
 * runtime itself (its migration script), so the table the user creates is exactly the one
 * `createPostgresStore` / `createSqliteStore` expect. Standalone languages get the reference DDL.
 */
import { migrationSql } from '@idempotency-builder/runtime/postgres';
import { sqliteSchema } from '@idempotency-builder/runtime/sqlite';
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { queriesFile } from '../sql/statements.js';
import { subpathAvailable, STORE_IMPORTS } from '../typescript/runtime-api.js';
import { postgresStatements } from './postgresql.js';

/**
 * True when the generated TypeScript uses a runtime store that manages its own schema.
 * @example runtimeOwnsStore(plan) // true for TypeScript on PostgreSQL
 */
export function runtimeOwnsStore(plan: Plan): boolean {
  if (plan.answers.agnostic) return false; // agnostic designs show the reference schema itself
  return plan.stack.language === 'typescript' && ['postgresql', 'sqlite', 'redis'].includes(plan.stack.store) && subpathAvailable(STORE_IMPORTS[plan.stack.store].module);
}

/**
 * The store files for a runtime-managed store, or undefined when the runtime does not manage it.
 * @example runtimeSchemaArtifacts(plan)?.[0].path // 'db/idempotency_store.sql'
 */
export function runtimeSchemaArtifacts(plan: Plan): Artifact[] | undefined {
  if (!runtimeOwnsStore(plan)) return undefined;
  if (plan.stack.store === 'postgresql') {
    const layout = plan.partitioned ? 'partitioned' : 'plain';
    const ops = postgresStatements(plan.table).filter((s) => ['fetch', 'list_stuck', 'force_release'].includes(s.name));
    return [
      {
        path: `db/${plan.table}.sql`,
        language: 'sql',
        content: `-- The idempotency-builder runtime's migration (layout: ${layout}): the reference schema plus the four\n-- columns the runtime needs. Idempotent and ledgered; run it with psql -f, or call store.migrate().\n${migrationSql({ table: plan.table, layout })}`,
        purpose: `Idempotency store DDL for PostgreSQL (the runtime's ${layout} layout), ready to run.`,
      },
      {
        path: 'db/idempotency_queries.sql',
        language: 'sql',
        content: queriesFile('Runbook statements for PostgreSQL (claims are made by createPostgresStore)', ops),
        purpose: 'Runbook statements: inspect a record, list stuck records, release one.',
      },
    ];
  }
  if (plan.stack.store === 'sqlite') {
    return [
      {
        path: `db/${plan.table}.sql`,
        language: 'sql',
        content: `-- The idempotency-builder runtime's SQLite schema (createSqliteStore creates it on first use).\n${sqliteSchema(plan.table)}\n`,
        purpose: 'Idempotency store DDL for SQLite, as the runtime creates it.',
      },
    ];
  }
  // Redis: the runtime ships its own versioned Lua scripts; there is nothing to create.
  return [];
}
