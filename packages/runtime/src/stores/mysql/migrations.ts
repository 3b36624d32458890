/**
 * Migrations: an append-only list, applied only when asked (`migrate()`), under the named lock
 * GET_LOCK so that app instances starting together apply each step once. MySQL commits DDL
 * implicitly, so the steps cannot share one transaction as in PostgreSQL; each step is
 * idempotent (IF NOT EXISTS) and recorded in a ledger, and the lock keeps runs from interleaving.
 * GET_LOCK belongs to a session: all of it runs on one connection.
 */
import type { MysqlPoolConnectionLike, MysqlPoolLike, MysqlQueryable } from './queryable.js';
import { mysqlTableNames, mysqlTableSql, type MysqlTableNames } from './schema.js';

export interface MysqlMigration {
  /** 1, 2, 3 … in order; never renumbered, never edited once released. */
  readonly version: number;
  readonly name: string;
  readonly sql: (names: MysqlTableNames) => string;
}

/** Append only: a released step is never edited; a change is a new step. */
export const MYSQL_MIGRATIONS: readonly MysqlMigration[] = [{ version: 1, name: 'create idempotency_store', sql: mysqlTableSql }];

export interface MysqlMigrationTarget {
  /** Default: the connection's database. */
  readonly database?: string;
  /** Default `idempotency_store`. */
  readonly table?: string;
  /** How long to wait for another instance's migration, in ms. Default 30 000. */
  readonly lockTimeoutMs?: number;
}

const ledgerSql = (names: MysqlTableNames) => `CREATE TABLE IF NOT EXISTS ${names.migrations} (
  version    INT NOT NULL PRIMARY KEY,
  name       VARCHAR(200) NOT NULL,
  applied_at DATETIME(3) NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

/**
 * The DDL of every step, as one script for your own tooling (mysql client, Flyway, Liquibase):
 * idempotent, so safe to run again.
 * @example fs.writeFileSync('migrations/001_idempotency.sql', mysqlSchemaSql({ table: 'idempotency_store' }));
 */
export function mysqlSchemaSql({ database, table = 'idempotency_store' }: MysqlMigrationTarget = {}): string {
  const names = mysqlTableNames(database, table);
  return `${MYSQL_MIGRATIONS.map((step) => `-- ${step.version}: ${step.name}\n${step.sql(names)};`).join('\n\n')}\n`;
}

/**
 * Applies the missing steps under GET_LOCK on one connection: checked out of the pool when `db`
 * has `getConnection()` (a mysql2 Pool), else `db` itself must be a single connection.
 * @example await migrateMysql(pool, { table: 'idempotency_store' });
 */
export async function migrateMysql(db: MysqlQueryable | MysqlPoolLike, target: MysqlMigrationTarget = {}): Promise<void> {
  const names = mysqlTableNames(target.database, target.table ?? 'idempotency_store');
  const timeoutS = Math.max(1, Math.ceil((target.lockTimeoutMs ?? 30_000) / 1000));
  const pooled = 'getConnection' in db && typeof db.getConnection === 'function';
  const connection = pooled ? await (db as MysqlPoolLike).getConnection() : db;
  try {
    const [locked] = await connection.query('SELECT GET_LOCK(?, ?) AS got', [names.migrationLock, timeoutS]);
    if ((locked as { got: unknown }[])[0]?.got !== 1) throw new Error(`Timed out after ${timeoutS} s waiting for the migration lock ${names.migrationLock}.`);
    try {
      await connection.query(ledgerSql(names));
      const [rows] = await connection.query(`SELECT version FROM ${names.migrations}`);
      const applied = new Set((rows as { version: unknown }[]).map((row) => Number(row.version)));
      for (const step of MYSQL_MIGRATIONS) {
        if (applied.has(step.version)) continue;
        await connection.query(step.sql(names));
        await connection.query(`INSERT INTO ${names.migrations} (version, name, applied_at) VALUES (?, ?, UTC_TIMESTAMP(3))`, [step.version, step.name]);
      }
    } finally {
      await connection.query('DO RELEASE_LOCK(?)', [names.migrationLock]);
    }
  } finally {
    if (pooled) (connection as MysqlPoolConnectionLike).release();
  }
}
