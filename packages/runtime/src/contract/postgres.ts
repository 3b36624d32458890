/** The PostgreSQL store's contract: its DDL, migration script and the statements it runs. */
import { migrationSql, schemaSql } from '../stores/postgres/migrations.js';
import { tableNames, type PostgresLayout } from '../stores/postgres/schema.js';
import { POSTGRES_STATEMENT_PARAMS, postgresStatements, storeStatements, type PostgresStatements } from '../stores/postgres/sql.js';

/**
 * The statement renderer itself, for readers that need another table spelling than the store's
 * qualified one (e.g. an unqualified `"idempotency_store"` resolved through search_path). The
 * partitioned layout passes its claim function as the second argument.
 */
export { postgresStatements, POSTGRES_STATEMENT_PARAMS, type PostgresStatements, type PostgresLayout };

export interface PostgresContractTarget {
  /** Default `public`. */
  readonly schema?: string;
  /** Default `idempotency_store`. */
  readonly table?: string;
  /** `plain` (default) or `partitioned` (range on created_at; the claim is a server-side function). */
  readonly layout?: PostgresLayout;
}

export interface PostgresContract {
  readonly layout: PostgresLayout;
  /** The qualified, quoted table name the statements use. */
  readonly table: string;
  /** The DDL of every migration step, without ledger or locks (for reading). */
  readonly schemaSql: string;
  /** The idempotent, ledgered script `migrate()` runs, wrapped in BEGIN/COMMIT (for psql -f). */
  readonly migrationSql: string;
  /** Each operation's statement, the same text createPostgresStore executes (`$n` parameters). */
  readonly statements: PostgresStatements;
  /** What each statement's `$n` stands for, in order. */
  readonly params: typeof POSTGRES_STATEMENT_PARAMS;
}

/**
 * Everything a reader needs to describe or re-implement the PostgreSQL store over one table.
 * @example
 * const pg = postgresContract({ table: 'idempotency_store', layout: 'plain' });
 * pg.statements.claim.includes('clock_timestamp()') // true
 */
export function postgresContract({ schema = 'public', table = 'idempotency_store', layout = 'plain' }: PostgresContractTarget = {}): PostgresContract {
  const names = tableNames(schema, table);
  return {
    layout,
    table: names.qualified,
    schemaSql: schemaSql({ schema, table, layout }),
    migrationSql: migrationSql({ schema, table, layout }),
    statements: storeStatements(names, layout),
    params: POSTGRES_STATEMENT_PARAMS,
  };
}
