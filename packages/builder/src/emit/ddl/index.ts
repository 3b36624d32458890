/**
 * The store artifacts for the plan's database: DDL (or key/item/document layout), the named
 * statements or scripts, and the reference DDL every design document embeds.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import type { StoreKind } from '../../design/plan/stack.js';
import { queriesFile, type NamedStatement } from '../sql/statements.js';
import { dynamoDbLayout } from './dynamodb.js';
import { mongoSetupScript } from './mongodb.js';
import { mysqlDdl, mysqlStatements } from './mysql.js';
import { postgresDdl, postgresStatements, type SqlSchemaOptions } from './postgresql.js';
import { redisScripts } from './redis.js';
import { runtimeSchemaArtifacts } from './runtime-schema.js';
import { sqliteDdl, sqliteStatements } from './sqlite.js';

export type SqlStore = 'postgresql' | 'mysql' | 'sqlite';

export const isSqlStore = (store: StoreKind): store is SqlStore => store === 'postgresql' || store === 'mysql' || store === 'sqlite';

/**
 * The DDL of a SQL store.
 * @example sqlDdlFor('mysql', { table: 'idempotency_store', partitioned: false, saga: false })
 */
export function sqlDdlFor(store: SqlStore, options: SqlSchemaOptions): string {
  if (store === 'mysql') return mysqlDdl(options);
  if (store === 'sqlite') return sqliteDdl(options);
  return postgresDdl(options);
}

/**
 * The named statements of a SQL store.
 * @example sqlStatementsFor('postgresql', 'idempotency_store', false).map((s) => s.name)
 */
export function sqlStatementsFor(store: SqlStore, table: string, saga: boolean): NamedStatement[] {
  if (store === 'mysql') return mysqlStatements(table, saga);
  if (store === 'sqlite') return sqliteStatements(table, saga);
  return postgresStatements(table, saga);
}

export const hasSaga = (plan: Plan) => plan.actions.some((a) => a.saga !== undefined);

/**
 * Schema options for the plan.
 * @example schemaOptions(plan).partitioned
 */
export function schemaOptions(plan: Plan): SqlSchemaOptions {
  return { table: plan.table, partitioned: plan.partitioned && plan.stack.store !== 'sqlite', saga: hasSaga(plan) };
}

/**
 * Files for the store: `db/idempotency_store.sql` + `db/idempotency_queries.sql` for SQL,
 * Lua scripts for Redis, a JSON layout for DynamoDB, a mongosh script for MongoDB.
 * @example storeArtifacts(plan).map((a) => a.path)
 */
export function storeArtifacts(plan: Plan): Artifact[] {
  const runtime = runtimeSchemaArtifacts(plan);
  if (runtime) return runtime;
  const store = plan.stack.store;
  if (isSqlStore(store)) {
    const options = schemaOptions(plan);
    return [
      { path: `db/${plan.table}.sql`, language: 'sql', content: sqlDdlFor(store, options), purpose: `Idempotency store DDL for ${plan.stack.storeName}, ready to run.` },
      {
        path: 'db/idempotency_queries.sql',
        language: 'sql',
        content: queriesFile(`Idempotency statements for ${plan.stack.storeName}`, sqlStatementsFor(store, plan.table, options.saga)),
        purpose: 'Every statement of the flow (claim, reclaim, complete, release, purge, runbook), named.',
      },
    ];
  }
  if (store === 'redis') {
    return redisScripts().map((script) => ({
      path: `db/redis/${script.name}.lua`,
      language: 'lua' as const,
      content: `${script.source}\n`,
      purpose: script.purpose,
    }));
  }
  if (store === 'dynamodb') {
    return [{ path: 'db/dynamodb-idempotency.json', language: 'json', content: dynamoDbLayout(plan.table), purpose: 'DynamoDB table definition and conditional-write templates.' }];
  }
  return [{ path: 'db/idempotency-mongodb.js', language: 'javascript', content: mongoSetupScript(plan.table), purpose: 'MongoDB collection, validator, indexes and the atomic claim (mongosh).' }];
}

/**
 * The PostgreSQL reference schema: the logical model every non-relational layout implements.
 * @example referenceDdl(plan).includes('PRIMARY KEY') // true
 */
export function referenceDdl(plan: Plan): string {
  return postgresDdl({ table: plan.table, partitioned: false, saga: false });
}
