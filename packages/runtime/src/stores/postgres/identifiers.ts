/** Checked SQL identifiers: the only way a schema, table or partition name reaches a statement. */
import { InvalidOptionsError } from '../../core/errors.js';

/**
 * Plain lower-case SQL names only. Anything else (quotes, dots, upper case, more than the 63
 * bytes PostgreSQL keeps) is refused instead of escaped: a name that needs escaping is almost
 * always a mistake, and refusing it means no caller string can ever change a statement's meaning.
 */
const PLAIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * True when `name` is a plain SQL name that quoteIdent accepts.
 * @example isPlainName('idempotency_store_p20250101t000000') // true
 */
export const isPlainName = (name: string): boolean => typeof name === 'string' && PLAIN_NAME.test(name);

/**
 * Returns `name` double-quoted, after checking it is a plain SQL name; throws InvalidOptionsError otherwise.
 * @example quoteIdent('idempotency_store') // '"idempotency_store"'
 */
export function quoteIdent(name: string, field = 'identifier'): string {
  if (!isPlainName(name)) {
    throw new InvalidOptionsError(
      `Option "${field}" must be a plain SQL name (lower-case letters, digits, _; at most 63 characters, not starting with a digit); got ${JSON.stringify(name)}.`,
    );
  }
  return `"${name}"`;
}

/**
 * Returns `"schema"."name"`, both parts checked by quoteIdent.
 * @example qualify('billing', 'idempotency_store') // '"billing"."idempotency_store"'
 */
export function qualify(schema: string, name: string): string {
  return `${quoteIdent(schema, 'schema')}.${quoteIdent(name, 'table')}`;
}

/**
 * A single-quoted SQL string literal for values that cannot be bound as parameters (DDL such
 * as partition bounds, DO blocks). Only for strings this package generates; refuses quotes and
 * backslashes rather than escaping them.
 * @example literal('2025-01-01T00:00:00.000Z') // "'2025-01-01T00:00:00.000Z'"
 */
export function literal(value: string): string {
  if (!/^[A-Za-z0-9_.:+\- ]*$/.test(value)) {
    throw new InvalidOptionsError(`Refusing to inline ${JSON.stringify(value)} into SQL.`);
  }
  return `'${value}'`;
}
