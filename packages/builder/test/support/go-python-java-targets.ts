/**
 * Fresh stores for the generated Go, Python and Java conformance runners: one schema, database,
 * file or key prefix per scenario (the scenarios' purge and listStuck counts count the whole store),
 * created with the runtime's own schema (MySQL: the builder's DDL, which is the runtime's migration), dropped afterwards.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createPartitionMaintenance, migrate } from '@idempotency-builder/runtime/postgres';
import { sqliteSchema } from '@idempotency-builder/runtime/sqlite';
import { mysqlDdl } from '../../src/emit/ddl/mysql.js';

/** The runtime's shared scenario list. */
export const SCENARIOS_FILE = resolve(import.meta.dirname, '../../../runtime/conformance/scenarios.json');

export const scenarioCount = (): number => (JSON.parse(readFileSync(SCENARIOS_FILE, 'utf8')) as { scenarios: unknown[] }).scenarios.length;

const TABLE = 'idempotency_store';

export interface Targets {
  /** Names for scenario n are `${base}_${n}` (schemas, databases, files) or `${base}:${n}:` (prefixes). */
  readonly base: string;
  readonly remove: () => Promise<void>;
}

/**
 * A PostgreSQL schema per scenario, migrated by the runtime itself.
 * @example const pg = await postgresTargets('ib_go_1234', 24, 'plain');
 */
export async function postgresTargets(base: string, count: number, layout: 'plain' | 'partitioned' = 'plain'): Promise<Targets> {
  const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' });
  await client.connect();
  try {
    for (let i = 0; i < count; i++) {
      await migrate(client, { schema: `${base}_${i}`, table: TABLE, layout });
      // The partitioned layout (range on created_at) needs today's partition before a claim.
      if (layout === 'partitioned') await createPartitionMaintenance({ db: client, schema: `${base}_${i}`, table: TABLE, retentionMs: 86_400_000, premake: 1 }).run();
    }
  } finally {
    await client.end();
  }
  return {
    base,
    remove: async () => {
      const cleanup = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' });
      await cleanup.connect();
      for (let i = 0; i < count; i++) await cleanup.query(`DROP SCHEMA IF EXISTS "${base}_${i}" CASCADE`);
      await cleanup.end();
    },
  };
}

/**
 * A MariaDB database per scenario with the builder's MySQL DDL (the runtime's table).
 * @example const my = await mysqlTargets('ib_go_1234', 24);
 */
export async function mysqlTargets(base: string, count: number): Promise<Targets> {
  const connection = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', multipleStatements: true });
  try {
    const ddl = mysqlDdl({ table: TABLE, partitioned: false, saga: false });
    for (let i = 0; i < count; i++) {
      await connection.query(`CREATE DATABASE \`${base}_${i}\``);
      await connection.query(`USE \`${base}_${i}\`; ${ddl}`);
    }
  } finally {
    await connection.end();
  }
  return {
    base,
    remove: async () => {
      const cleanup = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
      for (let i = 0; i < count; i++) await cleanup.query(`DROP DATABASE IF EXISTS \`${base}_${i}\``);
      await cleanup.end();
    },
  };
}

/**
 * A SQLite file per scenario (WAL) with the runtime's schema, under `dir`.
 * @example const lite = sqliteTargets(join(workspace.dir, 'sqlite'), 24);
 */
export function sqliteTargets(dir: string, count: number): Targets {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const db = new Database(join(dir, `idem_${i}.db`));
    db.pragma('journal_mode = WAL');
    db.exec(sqliteSchema(TABLE));
    db.close();
  }
  return { base: join(dir, 'idem'), remove: async () => {} };
}

/**
 * A key prefix per scenario; removal deletes every key under the base prefix.
 * @example const prefixes = redisTargets('ib-go-1234');
 */
export function redisTargets(base: string): Targets {
  return {
    base,
    remove: async () => {
      const redis = new Redis({ host: '127.0.0.1', port: 6379, lazyConnect: true });
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${base}:*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      redis.disconnect();
    },
  };
}

/** One scenario's result as a runner printed it (`PASS name` / `FAIL name: reason`). */
export interface ScenarioResult {
  readonly name: string;
  readonly passed: boolean;
  readonly reason: string;
}

/**
 * Reads a runner's PASS/FAIL lines.
 * @example parseResults('PASS fresh-claim\nFAIL x: boom\n') // [{ name: 'fresh-claim', passed: true, reason: '' }, …]
 */
export function parseResults(output: string): ScenarioResult[] {
  return [...output.matchAll(/^(PASS|FAIL) ([a-z0-9-]+)(?:: (.*))?$/gm)].map((m) => ({ name: m[2] as string, passed: m[1] === 'PASS', reason: m[3] ?? '' }));
}

/**
 * Scenarios the generated MySQL/MariaDB stores are known not to pass. Empty: they run the runtime's
 * own MySQL schema and statements (`mysqlContract`), and pass every scenario. A name listed here
 * must still fail (a pass means the list is stale).
 */
export const MYSQL_SCHEMA_GAPS: ReadonlySet<string> = new Set<string>([]);

/**
 * The verdict on a run: every scenario ran; all passed, except the MySQL schema gaps, which must
 * still fail (a pass means the list is stale). Returns the problems, empty when the run is right.
 * @example expect(verdict('postgresql', parseResults(stdout))).toEqual([]);
 */
export function verdict(store: string, results: readonly ScenarioResult[]): string[] {
  const problems: string[] = [];
  if (results.length !== scenarioCount()) problems.push(`${results.length} results for ${scenarioCount()} scenarios`);
  for (const result of results) {
    const gap = store === 'mysql' && MYSQL_SCHEMA_GAPS.has(result.name);
    if (!gap && !result.passed) problems.push(`${result.name}: ${result.reason}`);
    if (gap && result.passed) problems.push(`${result.name} now passes on MySQL: remove it from MYSQL_SCHEMA_GAPS`);
  }
  return problems;
}

/** How each language's runner is pointed at the prepared stores (`{n}` = the scenario's index). */
export interface RunnerTargets {
  /** Environment variables of the Go conformance test. */
  readonly go: Record<string, string>;
  /** The Python and Java runners' target argument. */
  readonly python: string;
  readonly java: string;
  readonly remove: () => Promise<void>;
}

/**
 * Prepares one fresh store per scenario for one language run and says how to reach them.
 * @example const targets = await prepareTargets('postgresql', 'go', { layout: 'plain', dir: workspace.dir });
 */
export async function prepareTargets(store: string, label: string, { layout = 'plain', dir }: { layout?: 'plain' | 'partitioned'; dir: string }): Promise<RunnerTargets> {
  const count = scenarioCount();
  const base = `ib_${label}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  if (store === 'postgresql') {
    const targets = await postgresTargets(base, count, layout);
    const schema = `${base}_{n}`;
    return {
      go: { IDEMPOTENCY_PG_DSN: `host=127.0.0.1 port=5432 user=postgres dbname=test sslmode=disable search_path=${schema}` },
      python: `host=127.0.0.1 port=5432 user=postgres dbname=test options='-csearch_path=${schema}'`,
      java: `jdbc:postgresql://127.0.0.1:5432/test?user=postgres&currentSchema=${schema}`,
      remove: targets.remove,
    };
  }
  if (store === 'mysql') {
    const targets = await mysqlTargets(base, count);
    return {
      go: { IDEMPOTENCY_MYSQL_DSN: `root@tcp(127.0.0.1:3306)/${base}_{n}` },
      python: `127.0.0.1:3306:root:${base}_{n}`,
      java: `jdbc:mariadb://127.0.0.1:3306/${base}_{n}?user=root`,
      remove: targets.remove,
    };
  }
  if (store === 'sqlite') {
    const targets = sqliteTargets(join(dir, base), count);
    return {
      go: { IDEMPOTENCY_SQLITE_DSN: `file:${targets.base}_{n}.db?_busy_timeout=10000&_journal_mode=WAL` },
      python: `${targets.base}_{n}.db`,
      java: `jdbc:sqlite:${targets.base}_{n}.db`,
      remove: targets.remove,
    };
  }
  const targets = redisTargets(base.replace(/_/g, '-'));
  const prefix = `${targets.base}:{n}:`;
  return {
    go: { IDEMPOTENCY_REDIS_ADDR: '127.0.0.1:6379', IDEMPOTENCY_REDIS_PREFIX: prefix },
    python: `127.0.0.1:6379/${prefix}`,
    java: `127.0.0.1:6379/${prefix}`,
    remove: targets.remove,
  };
}

/** The servers the scenarios run on, probed once per file (absent: skipped with a reason, except under CI=true). */
export const SERVERS = { postgresql: 5432, mysql: 3306, redis: 6379 } as const;
