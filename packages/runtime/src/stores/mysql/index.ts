/** `idempotency-builder/mysql`: the MySQL/MariaDB store, its migrations and transactional mode. */
export { createMysqlStore, type MysqlStore, type MysqlStoreOptions } from './mysql-store.js';
export { migrateMysql, mysqlSchemaSql, MYSQL_MIGRATIONS, type MysqlMigration, type MysqlMigrationTarget } from './migrations.js';
export { mysqlTableNames, mysqlTableSql, type MysqlTableNames } from './schema.js';
export { mysqlStatements, bindValues, type MysqlStatement, type MysqlStatements } from './sql.js';
export { quoteMysqlIdent, qualifyMysql } from './identifiers.js';
export {
  isMysqlConnectionError,
  mysqlErrno,
  type MysqlPoolConnectionLike,
  type MysqlPoolLike,
  type MysqlQueryable,
  type MysqlResultHeader,
} from './queryable.js';
export { knexMysqlQueryable, type KnexMysqlLike } from './knex-queryable.js';
export {
  createMysqlTransactionalIdempotency,
  type MysqlTransactionalContext,
  type MysqlTransactionalIdempotency,
  type MysqlTransactionalOptions,
} from './transactional.js';
