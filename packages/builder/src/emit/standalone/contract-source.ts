/**
 * The runtime's contract as the standalone languages need it: the SQL statements, Lua scripts and
 * problem table the runtime itself runs, from `@idempotency-builder/runtime/contract`, never
 * retyped here.
 */
import {
  DEFAULT_PROBLEM_TYPE_BASE,
  mysqlContract,
  postgresContract,
  PROBLEMS,
  REDIS_DEFAULT_KEEP_EXPIRED_MS,
  REDIS_DEFAULT_PREFIX,
  REDIS_SCRIPTS,
  sqliteContract,
} from '@idempotency-builder/runtime/contract';

/** A statement with its parameters: positional (`$1` = names[0]) or named (`@name`, `:name`). */
export interface ContractStatement {
  readonly text: string;
  readonly style: 'positional' | 'named';
  /** Positional: the name of each `$n`, in order. */
  readonly names?: readonly string[];
}

/** The PostgreSQL operations a standalone store runs. */
const PG_OPERATIONS = ['claim', 'finish', 'release', 'extend', 'get', 'purgeExpired', 'listStuck', 'forceRelease', 'now'] as const;

/** The SQLite operations a standalone store runs. */
const SQLITE_OPERATIONS = ['claimRead', 'claimUpsert', 'finish', 'release', 'extend', 'get', 'purgeExpired', 'listStuck', 'forceRelease', 'now'] as const;

/**
 * The MySQL operations a standalone store runs. The purge is the runtime's two steps: a lock-free
 * read of candidates, then a primary-key DELETE that re-checks expiry (`purgeDelete`, one row).
 */
const MYSQL_OPERATIONS = ['claimUpsert', 'claimRead', 'finish', 'release', 'extend', 'get', 'purgeCandidates', 'listStuck', 'forceRelease', 'now'] as const;

/**
 * A runtime MySQL statement (`?` text, parameter names in order) written with `:name` holes, the
 * form every standalone driver style is rendered from. The statements hold no other `?`.
 * @example namedMysql({ text: 'SELECT ?', params: ['key'] }) // 'SELECT :key'
 */
export function namedMysql(statement: { readonly text: string; readonly params: readonly string[] }): string {
  let index = 0;
  const text = statement.text.replace(/\?/g, () => `:${statement.params[index++] as string}`);
  if (index !== statement.params.length) throw new Error(`A MySQL statement has ${index} placeholders for ${statement.params.length} parameters.`);
  return text;
}

/**
 * SQLite before 3.42 has no `unixepoch('subsec')`, and Debian 12's libsqlite3 and the xerial JDBC
 * driver bundle 3.40: the same clock in ms through julianday(), which is fixed per statement step
 * the same way. The generated stores run the runtime's text with this one expression swapped.
 */
export const SQLITE_NOW_COMPAT = `CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)`;

/**
 * The statements a standalone store runs, by name. PostgreSQL's are unqualified (the runtime
 * qualifies them with "public"): the connection's search_path picks the schema.
 * @example contractStatements('postgresql', 'idempotency_store', 'plain').claim.text.includes('clock_timestamp()') // true
 */
export function contractStatements(store: 'postgresql' | 'mysql' | 'sqlite', table: string, layout: 'plain' | 'partitioned' = 'plain'): Record<string, ContractStatement> {
  if (store === 'postgresql') {
    const pg = postgresContract({ schema: 'public', table, layout });
    const unqualified = (text: string) => text.split('"public".').join('');
    return Object.fromEntries(PG_OPERATIONS.map((name) => [name, { text: unqualified(pg.statements[name]), style: 'positional', names: pg.params[name] }]));
  }
  if (store === 'sqlite') {
    const lite = sqliteContract(table);
    return Object.fromEntries(SQLITE_OPERATIONS.map((name) => [name, { text: lite.statements[name].split(lite.storeNow).join(SQLITE_NOW_COMPAT), style: 'named' }]));
  }
  const my = mysqlContract({ table });
  const named: Record<string, ContractStatement> = Object.fromEntries(MYSQL_OPERATIONS.map((name) => [name, { text: namedMysql(my.statements[name]), style: 'named' as const }]));
  named.purgeDelete = { text: namedMysql(my.purgeDelete(1)), style: 'named' };
  return named;
}

/** The Redis operations a standalone store runs. */
const REDIS_OPERATIONS = ['claim', 'complete', 'fail', 'release', 'extend', 'forceRelease', 'purge'] as const;

/**
 * The runtime's Lua scripts by operation, each with its versioned header.
 * @example contractScripts().claim.startsWith('--[[ idempotency-builder:claim@1') // true
 */
export function contractScripts(): Record<(typeof REDIS_OPERATIONS)[number], string> {
  return Object.fromEntries(REDIS_OPERATIONS.map((name) => [name, REDIS_SCRIPTS[name].source])) as Record<(typeof REDIS_OPERATIONS)[number], string>;
}

/** The runtime's HTTP problem table and store defaults. */
export const CONTRACT = {
  problems: PROBLEMS as Readonly<Record<string, { readonly status: number; readonly title: string }>>,
  problemTypeBase: DEFAULT_PROBLEM_TYPE_BASE,
  keyPrefix: REDIS_DEFAULT_PREFIX,
  keepExpiredMs: REDIS_DEFAULT_KEEP_EXPIRED_MS,
};
