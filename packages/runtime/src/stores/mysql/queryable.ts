/**
 * The one-method database port the MySQL store talks to, and the driver errors it recognises.
 * Structural: a mysql2/promise Pool, a PoolConnection inside the caller's transaction, or a knex
 * transaction (through `knexMysqlQueryable`) all fit without this package importing any of them.
 */

/**
 * Anything that runs SQL with `?` placeholders and answers like mysql2/promise: `[result, fields]`,
 * where `result` is the rows of a SELECT, a result header (`affectedRows`) for a write, or an array
 * of both for a multi-statement call.
 * @example
 * import mysql from 'mysql2/promise';
 * const db: MysqlQueryable = mysql.createPool({ host: '127.0.0.1', user: 'app', database: 'app' });
 */
export interface MysqlQueryable {
  query(sql: string, values?: unknown[]): Promise<readonly [unknown, unknown?]>;
}

/** A connection checked out of a pool: what `migrate()` needs to hold a GET_LOCK across statements. */
export interface MysqlPoolConnectionLike extends MysqlQueryable {
  release(): void;
}

/** A pool that can hand out one connection (mysql2/promise `Pool.getConnection`). */
export interface MysqlPoolLike extends MysqlQueryable {
  getConnection(): Promise<MysqlPoolConnectionLike>;
}

/** A write's result header, as mysql2 reports it. */
export interface MysqlResultHeader {
  readonly affectedRows: number;
}

export type MysqlRow = Record<string, unknown>;

/** MySQL error number of a driver error (`errno`), when it carries one. */
export function mysqlErrno(error: unknown): number | undefined {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' ? errno : undefined;
}

/** ER_LOCK_DEADLOCK: InnoDB rolled the statement's transaction back to break a lock cycle. */
export const ER_LOCK_DEADLOCK = 1213;
/** ER_LOCK_WAIT_TIMEOUT: a row lock wait ran past innodb_lock_wait_timeout. */
export const ER_LOCK_WAIT_TIMEOUT = 1205;

/**
 * True when the error says the connection (not the statement) failed.
 * @example if (isMysqlConnectionError(error)) connection.destroy();
 */
export function isMysqlConnectionError(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (/^(PROTOCOL_CONNECTION_LOST|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|ER_SERVER_SHUTDOWN|ER_CON_COUNT_ERROR)$/.test(code)) return true;
  return /connection.*(closed|lost)|Can't add new command when connection is in closed state/i.test(error instanceof Error ? error.message : String(error));
}
