/** `idempotency-builder/sqlite`: the embedded SQLite store (optional peer: better-sqlite3 ~12). */
export {
  createSqliteStore,
  type SqliteStore,
  type SqliteStoreOptions,
  type SqliteDatabaseLike,
  type SqliteStatementLike,
} from './sqlite-store.js';
export { sqliteSchema } from './schema.js';
export { sqliteStatements, quoteIdentifier, STORE_NOW, MAX_TABLE_NAME_LENGTH } from './sql.js';
