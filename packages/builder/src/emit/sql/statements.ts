/**
 * Named SQL statements with `:name` parameters (the builder's own: MySQL, saga steps), rendered
 * into each driver's placeholder style. The runtime's statements keep their own form and are
 * never rewritten (emit/runtime-contract.ts).
 */

export interface NamedStatement {
  /** snake_case name, e.g. `claim_insert`. */
  readonly name: string;
  /** One line: what it does and what its result means. */
  readonly purpose: string;
  /** The statement with `:param` placeholders. */
  readonly sql: string;
}

export interface RenderedStatement {
  readonly text: string;
  /** Parameter names in placeholder order (repeated names appear once per use for `?`). */
  readonly params: readonly string[];
}

// `::type` casts must not be taken for parameters, hence the lookbehind and the letter start.
const PARAM = /(?<![:\w]):([a-z][a-z0-9_]*)/g;

/**
 * PostgreSQL style: `$1, $2 …`, one number per distinct name.
 * @example toDollar('SELECT :a, :b, :a').text // 'SELECT $1, $2, $1'
 */
export function toDollar(sql: string): RenderedStatement {
  const order: string[] = [];
  const text = sql.replace(PARAM, (_match, name: string) => {
    let index = order.indexOf(name);
    if (index < 0) index = order.push(name) - 1;
    return `$${index + 1}`;
  });
  return { text, params: order };
}

/**
 * JDBC / MySQL / SQLite style: `?` per use, names listed in use order.
 * @example toQuestion('SELECT :a, :b, :a').params // ['a', 'b', 'a']
 */
export function toQuestion(sql: string): RenderedStatement {
  const params: string[] = [];
  const text = sql.replace(PARAM, (_match, name: string) => {
    params.push(name);
    return '?';
  });
  return { text, params };
}

/**
 * Python DB-API `pyformat` (psycopg, PyMySQL): `%(name)s`. Literal `%` is doubled.
 * @example toPyformat("SELECT :a LIKE 'x%'").text // "SELECT %(a)s LIKE 'x%%'"
 */
export function toPyformat(sql: string): RenderedStatement {
  const params: string[] = [];
  const text = sql.replace(/%/g, '%%').replace(PARAM, (_match, name: string) => {
    if (!params.includes(name)) params.push(name);
    return `%(${name})s`;
  });
  return { text, params };
}

/**
 * Python sqlite3 `named` style: `:name` stays as is.
 * @example toNamed('SELECT :a').text // 'SELECT :a'
 */
export function toNamed(sql: string): RenderedStatement {
  const params: string[] = [];
  for (const match of sql.matchAll(PARAM)) if (!params.includes(match[1] as string)) params.push(match[1] as string);
  return { text: sql, params };
}

/**
 * The queries file: every statement under a `-- name:` header (the yesql/pgtyped convention).
 * @example queriesFile('MySQL', mysqlStatements('idempotency_store'))
 */
export function queriesFile(title: string, statements: readonly NamedStatement[]): string {
  const blocks = statements.map((statement) => `-- name: ${statement.name}\n-- ${statement.purpose}\n${statement.sql.trim()};\n`);
  return `-- ${title}\n-- Parameters are written :name; bind them with your driver's placeholder style.\n\n${blocks.join('\n')}`;
}

/**
 * Reads a queries file back into statements (used by tests and by anyone loading the file).
 * @example parseQueriesFile(text).find((s) => s.name === 'claim_insert')
 */
export function parseQueriesFile(text: string): NamedStatement[] {
  const out: NamedStatement[] = [];
  const parts = text.split(/^-- name: /m).slice(1);
  for (const part of parts) {
    const [header = '', ...rest] = part.split('\n');
    const purposeLine = rest[0]?.startsWith('-- ') ? rest.shift()!.slice(3) : '';
    const sql = rest.join('\n').trim().replace(/;\s*$/, '');
    out.push({ name: header.trim(), purpose: purposeLine, sql });
  }
  return out;
}
