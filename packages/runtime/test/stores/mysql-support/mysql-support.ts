/** Shared helpers of the MySQL/MariaDB store tests: connection, availability, per-test tables. */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { probeTcp, serviceAvailable } from '../../support/services.js';
import { createMysqlStore, type MysqlStore, type MysqlStoreOptions } from '../../../src/stores/mysql/index.js';

export const MYSQL_CONFIG = { host: '127.0.0.1', port: 3306, user: 'root', password: '', database: 'test' } as const;

export const mysqlAvailable = () => serviceAvailable('MariaDB/MySQL', () => probeTcp(MYSQL_CONFIG.port));

/** A pool; `multipleStatements` only where the test needs it. */
export function newMysqlPool(connectionLimit: number, extra: Partial<mysql.PoolOptions> = {}): mysql.Pool {
  return mysql.createPool({ ...MYSQL_CONFIG, connectionLimit, waitForConnections: true, queueLimit: 0, ...extra });
}

/** Opens `count` connections up front, so races are between server sessions, not handshakes. */
export async function warmMysqlPool(pool: mysql.Pool, count: number): Promise<void> {
  const connections = await Promise.all(Array.from({ length: count }, () => pool.getConnection()));
  for (const connection of connections) connection.release();
}

/** A table-name prefix unique to the test file and process. */
export function tablePrefixFor(fileUrl: string): string {
  const base = basename(fileURLToPath(fileUrl)).replace(/\.test\.ts$/, '').replace(/[^a-z0-9]+/g, '_');
  return `t_${base.slice(0, 24)}_${process.pid}`;
}

/** Creates a store over a fresh table and migrates it; `drop` removes the table and its ledger. */
export function tableFactory(pool: mysql.Pool, fileUrl: string) {
  const prefix = tablePrefixFor(fileUrl);
  let n = 0;
  const created: string[] = [];
  return {
    async fresh(options: Partial<MysqlStoreOptions> = {}): Promise<MysqlStore> {
      const table = `${prefix}_${++n}`;
      created.push(table);
      const store = createMysqlStore({ db: pool, table, ...options });
      await store.migrate();
      return store;
    },
    async drop(store: MysqlStore): Promise<void> {
      await pool.query(`DROP TABLE IF EXISTS ${store.table}, \`${store.names.table}_migrations\``);
    },
    async dropAll(): Promise<void> {
      for (const table of created) await pool.query(`DROP TABLE IF EXISTS \`${table}\`, \`${table}_migrations\``);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
