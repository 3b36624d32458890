/** `idempotency-builder/postgres`: the PostgreSQL store, its migrations, transactional mode and cleanup. */
export { createPostgresStore, type PostgresStore, type PostgresStoreOptions, type WithDbOptions } from './postgres-store.js';
export { migrate, migrationSql, schemaSql, MIGRATIONS, type Migration, type MigrationTarget } from './migrations.js';
export { tableNames, type PostgresLayout, type TableNames } from './schema.js';
export { quoteIdent, qualify } from './identifiers.js';
export { isConnectionError, sqlState, type PgPreparingQueryable, type PgQueryable, type PgQueryResult } from './queryable.js';
export { knexQueryable, type KnexLike } from './knex-queryable.js';
export { pgliteQueryable, type PGliteLike } from './pglite-queryable.js';
export {
  createPartitionMaintenance,
  type PartitionMaintenance,
  type PartitionMaintenanceOptions,
  type PartitionMaintenanceResult,
} from './partitions.js';
export {
  createTransactionalIdempotency,
  type TransactionalContext,
  type TransactionalIdempotency,
  type TransactionalOptions,
} from './transactional.js';
export { DEFAULT_PAUSE_RATIO, startPostgresCleanup, type PostgresCleanupJob, type PostgresCleanupOptions } from './cleanup.js';
