/**
 * The store artifacts for the plan's database. PostgreSQL, SQLite and Redis: the runtime's own
 * schema, statements and Lua scripts (emit/runtime-contract.ts), for TypeScript and standalone
 * stacks alike. MySQL, DynamoDB and MongoDB: the builder's layouts — the runtime ships no store
 * for them yet, and nothing says it runs them.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import type { StoreKind } from '../../design/plan/stack.js';
import { postgresFor, runtimeQueriesFile, runtimeSchema, runtimeScripts } from '../runtime-contract.js';
import { queriesFile } from '../sql/statements.js';
import { dynamoDbLayout } from './dynamodb.js';
import { mongoSetupScript } from './mongodb.js';
import { mysqlDdl, mysqlStatements, type SqlSchemaOptions } from './mysql.js';
import { sagaDdl, sagaStatements } from './saga-sql.js';

export type SqlStore = 'postgresql' | 'mysql' | 'sqlite';

export const isSqlStore = (store: StoreKind): store is SqlStore => store === 'postgresql' || store === 'mysql' || store === 'sqlite';

export const hasSaga = (plan: Plan) => plan.actions.some((a) => a.saga !== undefined);

/**
 * Schema options for the plan.
 * @example schemaOptions(plan).partitioned
 */
export function schemaOptions(plan: Plan): SqlSchemaOptions {
  return { table: plan.table, partitioned: plan.partitioned && plan.stack.store !== 'sqlite', saga: hasSaga(plan) };
}

/** The runtime target (table, layout) of the plan. */
const target = (plan: Plan) => ({ table: plan.table, partitioned: plan.partitioned && plan.stack.store === 'postgresql' });

/**
 * Files for the store: `db/<table>.sql` + `db/idempotency_queries.sql` for SQL, Lua scripts for
 * Redis, a JSON layout for DynamoDB, a mongosh script for MongoDB.
 * @example storeArtifacts(plan).map((a) => a.path)
 */
export function storeArtifacts(plan: Plan): Artifact[] {
  const store = plan.stack.store;
  if (store === 'postgresql' || store === 'sqlite') {
    const saga = hasSaga(plan);
    const name = store === 'postgresql' ? 'PostgreSQL' : 'SQLite';
    const layout = store === 'postgresql' ? ` (${plan.partitioned ? 'partitioned' : 'plain'} layout)` : '';
    const header = store === 'postgresql'
      ? `-- The idempotency-builder runtime's migration${layout}: idempotent and ledgered. Run it with psql -f,\n-- or call store.migrate(), which runs the same script.\n`
      : `-- The idempotency-builder runtime's SQLite schema (createSqliteStore runs it when it opens the file).\n`;
    const files: Artifact[] = [
      { path: `db/${plan.table}.sql`, language: 'sql', content: `${header}${runtimeSchema(store, target(plan))}`, purpose: `Idempotency store DDL for ${name}${layout}: the runtime's own schema, ready to run.` },
      {
        path: 'db/idempotency_queries.sql',
        language: 'sql',
        content: runtimeQueriesFile(store, target(plan)),
        purpose: `Every statement the runtime's ${name} store executes (claim, finish, release, extend, purge, runbook), named.`,
      },
    ];
    if (saga) {
      files.push(
        { path: `db/${plan.table}_saga_step.sql`, language: 'sql', content: sagaDdl(store, plan.table, target(plan).partitioned), purpose: 'Saga step table, beside the runtime’s table.' },
        {
          path: 'db/saga_queries.sql',
          language: 'sql',
          content: queriesFile('Saga step statements (builder-written: the runtime has no saga store yet)', sagaStatements(store, plan.table)),
          purpose: 'Record and read saga steps, fenced by the outer key’s lock_version.',
        },
      );
    }
    return files;
  }
  if (store === 'mysql') {
    const options = schemaOptions(plan);
    return [
      { path: `db/${plan.table}.sql`, language: 'sql', content: mysqlDdl(options), purpose: `Idempotency store DDL for ${plan.stack.storeName}, ready to run.` },
      {
        path: 'db/idempotency_queries.sql',
        language: 'sql',
        content: queriesFile(`Idempotency statements for ${plan.stack.storeName} (builder-written: the runtime has no MySQL store yet)`, mysqlStatements(plan.table, options.saga)),
        purpose: 'Every statement of the flow (claim, reclaim, complete, release, purge, runbook), named.',
      },
    ];
  }
  if (store === 'redis') {
    return runtimeScripts().map((script) => ({
      path: `db/redis/${script.file}`,
      language: 'lua' as const,
      content: `${script.source}\n`,
      purpose: `The runtime's ${script.operation} script (SHA-1 ${script.sha1}), as createRedisStore loads it.`,
    }));
  }
  if (store === 'dynamodb') {
    return [{ path: 'db/dynamodb-idempotency.json', language: 'json', content: dynamoDbLayout(plan.table), purpose: 'DynamoDB table definition and conditional-write templates.' }];
  }
  return [{ path: 'db/idempotency-mongodb.js', language: 'javascript', content: mongoSetupScript(plan.table), purpose: 'MongoDB collection, validator, indexes and the atomic claim (mongosh).' }];
}

/**
 * The logical model every non-relational layout implements: the runtime's plain PostgreSQL schema.
 * @example referenceDdl(plan).includes('PRIMARY KEY') // true
 */
export function referenceDdl(plan: Plan): string {
  return postgresFor({ table: plan.table, partitioned: false }).schemaSql;
}
