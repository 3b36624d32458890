/** The SQLite store's contract: its schema and the statements it runs. */
import { sqliteSchema } from '../stores/sqlite/schema.js';
import { sqliteStatements, STORE_NOW } from '../stores/sqlite/sql.js';

export type SqliteStatements = ReturnType<typeof sqliteStatements>;

export interface SqliteContract {
  /** The table and its indexes, idempotent (`IF NOT EXISTS`); createSqliteStore runs it on open. */
  readonly schemaSql: string;
  /** Each operation's statement, the same text createSqliteStore prepares (`@name` parameters). */
  readonly statements: SqliteStatements;
  /** The store-clock expression (integer ms) the statements use. */
  readonly storeNow: string;
}

/**
 * The SQLite store's schema and statements over one table. The claim is two statements in one
 * IMMEDIATE transaction: `claimRead`, then `claimUpsert` with the `now` it read.
 * @example sqliteContract('idempotency_store').statements.claimUpsert.startsWith('INSERT') // true
 */
export function sqliteContract(table = 'idempotency_store'): SqliteContract {
  return { schemaSql: sqliteSchema(table), statements: sqliteStatements(table), storeNow: STORE_NOW };
}
