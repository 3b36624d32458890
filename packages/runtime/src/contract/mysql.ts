/** The MySQL/MariaDB store's contract: its DDL, migrations and the statements it runs. */
import { MYSQL_MIGRATIONS, mysqlSchemaSql } from '../stores/mysql/migrations.js';
import { mysqlTableNames, mysqlTableSql } from '../stores/mysql/schema.js';
import { PURGE_ISOLATION } from '../stores/mysql/mysql-store.js';
import { msOf, MYSQL_NOW, mysqlStatements, purgeDelete, type MysqlStatement, type MysqlStatements } from '../stores/mysql/sql.js';

export { mysqlStatements, purgeDelete, type MysqlStatement, type MysqlStatements };


export interface MysqlContractTarget {
  /** Default: the connection's database (the table is unqualified). */
  readonly database?: string;
  /** Default `idempotency_store`. */
  readonly table?: string;
}

export interface MysqlContract {
  /** The qualified, quoted table name the statements use (`` `idempotency_store` ``). */
  readonly table: string;
  /** The table's CREATE TABLE IF NOT EXISTS (migration 1), without a trailing semicolon. */
  readonly tableSql: string;
  /** Every migration step as one idempotent script (`-- n: name` + DDL;), for the mysql client or your tooling. */
  readonly schemaSql: string;
  /** The append-only migration list `migrate()` applies under GET_LOCK, with each step's DDL for this table. */
  readonly migrations: readonly { readonly version: number; readonly name: string; readonly sql: string }[];
  /**
   * Each operation's statement, the same object createMysqlStore executes: `text` with `?`
   * placeholders and `params`, the value names bound to them in order. The claim is
   * `claimUpsert` (one atomic upsert carrying a random 32-hex `nonce`) then `claimRead`: the
   * caller won when the row's `claim_token` is `nonce` + one kind letter (N new, R reclaimed,
   * E replaced expired), otherwise the row is the existing record. Durations are µs (`leaseUs`).
   */
  readonly statements: MysqlStatements;
  /** The purge's second step for `count` candidates (`:key0 :scope0 …`), re-checking expiry. */
  readonly purgeDelete: (count: number) => MysqlStatement;
  /** Sent before each purge DELETE on the same connection, so it takes no gap locks. */
  readonly purgeIsolation: string;
  /** The store clock, and the expression that turns a DATETIME(3) column into ms since the epoch. */
  readonly storeNow: string;
  readonly msOf: (expression: string) => string;
}

/**
 * Everything a reader needs to describe or re-implement the MySQL/MariaDB store over one table.
 * @example
 * const my = mysqlContract({ table: 'idempotency_store' });
 * my.statements.claimUpsert.text.startsWith('INSERT INTO `idempotency_store`') // true
 */
export function mysqlContract({ database, table = 'idempotency_store' }: MysqlContractTarget = {}): MysqlContract {
  const names = mysqlTableNames(database, table);
  return {
    table: names.qualified,
    tableSql: mysqlTableSql(names),
    schemaSql: mysqlSchemaSql({ ...(database === undefined ? {} : { database }), table }),
    migrations: MYSQL_MIGRATIONS.map((step) => ({ version: step.version, name: step.name, sql: step.sql(names) })),
    statements: mysqlStatements(names.qualified),
    purgeDelete: (count) => purgeDelete(names.qualified, count),
    purgeIsolation: PURGE_ISOLATION,
    storeNow: MYSQL_NOW,
    msOf,
  };
}
