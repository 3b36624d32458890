/**
 * The one-method database port the PostgreSQL store talks to, and the driver errors it
 * recognises. Structural: a `pg.Pool`, a `pg.Client` inside the caller's transaction, a PGlite
 * instance or an ORM's raw connection all fit without this package importing any of them.
 */
import { createHash } from 'node:crypto';

/** What a query answers: the rows, in order. Other fields a driver returns are ignored. */
export interface PgQueryResult {
  readonly rows: readonly Record<string, unknown>[];
}

/**
 * Anything that runs one SQL statement with `$1..$n` parameters. `values` is omitted for
 * parameterless multi-statement scripts (migrations), which drivers run over the simple
 * protocol.
 * @example
 * import pg from 'pg';
 * const db: PgQueryable = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
}

/**
 * A queryable that also takes node-postgres' query config with a statement `name`: the server
 * then parses and plans each statement once per connection instead of on every call. pg's Pool
 * and Client fit; PGlite and knex do not (leave `preparedStatements` off for them).
 */
export interface PgPreparingQueryable extends PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<PgQueryResult>;
  query(text: string, values?: unknown[]): Promise<PgQueryResult>;
}

/**
 * The name a statement is prepared under: derived from its text, because a name is bound to one
 * text per connection and the text names the table (another table or version, another name).
 * @example db.query({ name: statementName(sql.get), text: sql.get, values: [key, scope] })
 */
export const statementName = (text: string) => `idem_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;

/** SQLSTATE of a driver error, when it carries one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** `lock_not_available`: a lock wait ran past `lock_timeout`. */
export const LOCK_NOT_AVAILABLE = '55P03';

/**
 * True when the error says the connection (not the statement) failed: the server closed or
 * terminated it (class 08, 57P01..57P03 — `pg_terminate_backend` gives 57P01), or the socket broke.
 * @example if (isConnectionError(error)) pool.release(client, true);
 */
export function isConnectionError(error: unknown): boolean {
  const state = sqlState(error);
  if (state) return state.startsWith('08') || /^57P0[1-3]$/.test(state);
  const text = error instanceof Error ? `${(error as { code?: unknown }).code ?? ''} ${error.message}` : String(error);
  return /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|Connection terminated|connection.*closed|Client has encountered a connection error/i.test(text);
}
