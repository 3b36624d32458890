/**
 * The store artifacts for the plan's database. PostgreSQL, SQLite and Redis: the runtime's own
 * schema, statements and Lua scripts (emit/runtime-contract.ts), for TypeScript and standalone
 * stacks alike; MySQL/MariaDB too (the runtime's schema and statements, plus the builder's
 * partitioning and saga additions). DynamoDB: the runtime's table description. MongoDB: the
 * builder's layout (the runtime ships no MongoDB store; see emit/typescript/mongo-store-file.ts).
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import type { StoreKind } from '../../design/plan/stack.js';
import { postgresFor, runtimeQueriesFile, runtimeSchema, runtimeScripts } from '../runtime-contract.js';
import { queriesFile } from '../sql/statements.js';
import { dynamoDbLayout } from './dynamodb.js';
import { MONGO_UNTESTED } from '../typescript/mongo-store-file.js';
import { mongoSetupScript } from './mongodb.js';
import { mysqlDdl, mysqlStatements, type SqlSchemaOptions } from './mysql.js';
import { sagaDdl, sagaStatements } from './saga-sql.js';

export type SqlStore = 'postgresql' | 'mysql' | 'sqlite';

export const isSqlStore = (store: StoreKind): store is SqlStore => store === 'postgresql' || store === 'mysql' || store === 'sqlite';

export const hasSaga = (plan: Plan) => plan.actions.some((a) => a.saga !== undefined);

/**
 * Whether the store needs the builder's saga step table: only the generated Go/Python/Java saga
 * code uses it. TypeScript sagas run on the runtime's defineSaga, which keeps every step as a
 * record of the idempotency table itself (sub-key {key}:{step}).
 */
export const needsSagaTable = (plan: Plan) => hasSaga(plan) && plan.stack.language !== 'typescript';

/**
 * Schema options for the plan.
 * @example schemaOptions(plan).partitioned
 */
export function schemaOptions(plan: Plan): SqlSchemaOptions {
  return { table: plan.table, partitioned: plan.partitioned && plan.stack.store !== 'sqlite', saga: needsSagaTable(plan) };
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
    const saga = needsSagaTable(plan);
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
          content: queriesFile('Saga step statements (builder-written, for the generated Go/Python/Java saga code)', sagaStatements(store, plan.table)),
          purpose: 'Record and read saga steps, fenced by the outer key’s lock_version.',
        },
      );
    }
    return files;
  }
  if (store === 'mysql') {
    const options = schemaOptions(plan);
    const files: Artifact[] = [
      { path: `db/${plan.table}.sql`, language: 'sql', content: mysqlDdl(options), purpose: `Idempotency store DDL for ${plan.stack.storeName}: the runtime's own schema, ready to run.` },
      {
        path: 'db/idempotency_queries.sql',
        language: 'sql',
        content: runtimeQueriesFile('mysql', target(plan)),
        purpose: `Every statement the runtime's MySQL/MariaDB store executes (claim upsert and read-back, finish, release, extend, purge, runbook), named.`,
      },
    ];
    if (options.saga) {
      const mark = mysqlStatements(plan.table, true).filter((s) => s.name === 'saga_step_mark');
      files.push({
        path: 'db/saga_queries.sql',
        language: 'sql',
        content: queriesFile('Saga step statements (builder-written, for the generated Go/Python/Java saga code)', mark),
        purpose: 'Record saga steps, fenced by the outer key’s lock_version.',
      });
    }
    return files;
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
    return [{ path: 'db/dynamodb-idempotency.json', language: 'json', content: dynamoDbLayout(plan.table), purpose: "The runtime's DynamoDB table definition and the conditional expressions createDynamoDbStore sends." }];
  }
  return [{ path: 'db/idempotency-mongodb.js', language: 'javascript', content: mongoSetupScript(plan.table), purpose: `MongoDB collection, validator and indexes of the generated mongo-store.ts (mongosh). ${MONGO_UNTESTED}` }];
}

/**
 * The logical model every non-relational layout implements: the runtime's plain PostgreSQL schema.
 * @example referenceDdl(plan).includes('PRIMARY KEY') // true
 */
export function referenceDdl(plan: Plan): string {
  return postgresFor({ table: plan.table, partitioned: false }).schemaSql;
}
