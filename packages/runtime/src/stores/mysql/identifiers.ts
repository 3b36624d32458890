/** Checked MySQL identifiers: the only way a database or table name reaches a statement. */
import { InvalidOptionsError } from '../../core/errors.js';

/**
 * Plain lower-case names only, at most the 64 characters MySQL allows. Anything that would need
 * escaping is refused rather than escaped, so no caller string can change a statement's meaning.
 * Lower case also sidesteps `lower_case_table_names`, which differs between Linux, macOS and Windows.
 */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,63}$/;

/**
 * Returns `name` in backticks after checking it is a plain name; throws InvalidOptionsError otherwise.
 * @example quoteMysqlIdent('idempotency_store') // '`idempotency_store`'
 */
export function quoteMysqlIdent(name: string, field = 'identifier'): string {
  if (typeof name !== 'string' || !PLAIN_NAME.test(name)) {
    throw new InvalidOptionsError(
      `Option "${field}" must be a plain SQL name (lower-case letters, digits, _; at most 64 characters, not starting with a digit); got ${JSON.stringify(name)}.`,
    );
  }
  return `\`${name}\``;
}

/**
 * `` `database`.`table` `` when a database is given, else `` `table` `` (the connection's default database).
 * @example qualifyMysql('billing', 'idempotency_store') // '`billing`.`idempotency_store`'
 */
export function qualifyMysql(database: string | undefined, table: string): string {
  const t = quoteMysqlIdent(table, 'table');
  return database === undefined ? t : `${quoteMysqlIdent(database, 'database')}.${t}`;
}
