/**
 * The runtime subpaths generated TypeScript imports, and whether this installed version of
 * idempotency-builder exports them yet. What is missing is named in the document, not invented.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StoreKind } from '../../design/plan/stack.js';

export interface StoreImport {
  /** e.g. `idempotency-builder/postgres`. */
  readonly module: string;
  readonly factory: string;
  /** Driver import lines the setup needs. */
  readonly driverImports: readonly string[];
  /** The expression that creates the store. */
  readonly create: string;
  /** Lines before `create` (pool/client construction). */
  readonly setup: readonly string[];
  /** npm packages the user's project needs for this store. */
  readonly packages: readonly string[];
}

export const STORE_IMPORTS: Record<StoreKind, StoreImport> = {
  postgresql: {
    module: 'idempotency-builder/postgres',
    factory: 'createPostgresStore',
    driverImports: ["import pg from 'pg';"],
    setup: ['const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });'],
    create: 'createPostgresStore({ db: pool })',
    packages: ['pg'],
  },
  mysql: {
    module: 'idempotency-builder/mysql',
    factory: 'createMysqlStore',
    driverImports: ["import mysql from 'mysql2/promise';"],
    setup: ["const pool = mysql.createPool(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/app');"],
    create: 'createMysqlStore({ db: pool })',
    packages: ['mysql2'],
  },
  sqlite: {
    module: 'idempotency-builder/sqlite',
    factory: 'createSqliteStore',
    driverImports: [],
    setup: [],
    create: "createSqliteStore({ filename: process.env.IDEMPOTENCY_DB ?? 'idempotency.db' })",
    packages: ['better-sqlite3'],
  },
  redis: {
    module: 'idempotency-builder/redis',
    factory: 'createRedisStore',
    driverImports: ["import { Redis } from 'ioredis';"],
    // lazyConnect: importing this module (e.g. from a unit test) opens no connection.
    setup: ["const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });"],
    create: "createRedisStore({ client, prefix: 'idem' })",
    packages: ['ioredis'],
  },
  dynamodb: {
    module: 'idempotency-builder/dynamodb',
    factory: 'createDynamoDbStore',
    driverImports: ["import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
    setup: ['const client = new DynamoDBClient({});'],
    create: "createDynamoDbStore({ client, table: 'idempotency_store' })",
    packages: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  },
  mongodb: {
    module: 'idempotency-builder/mongodb',
    factory: 'createMongoStore',
    driverImports: ["import { MongoClient } from 'mongodb';"],
    setup: ["const mongo = new MongoClient(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017');"],
    create: "createMongoStore({ collection: mongo.db().collection('idempotency_store') })",
    packages: ['mongodb'],
  },
};

let cached: ReadonlySet<string> | undefined;

/**
 * The subpaths (`.`, `./postgres`, …) the installed package exports, read from its own
 * package.json; an empty set when it cannot be found (then nothing is claimed to exist).
 * @example runtimeSubpaths().has('./postgres')
 */
export function runtimeSubpaths(): ReadonlySet<string> {
  if (cached) return cached;
  let found = new Set<string>();
  try {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let depth = 0; depth < 8; depth++) {
      const candidate = join(dir, 'package.json');
      if (existsSync(candidate)) {
        const manifest = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; exports?: Record<string, unknown> };
        if (manifest.name === 'idempotency-builder') {
          found = new Set(Object.keys(manifest.exports ?? {}));
          break;
        }
      }
      dir = dirname(dir);
    }
  } catch {
    // Bundled without import.meta (CJS) or unreadable: report nothing as available.
  }
  cached = found;
  return found;
}

/**
 * True when `idempotency-builder/<name>` is exported by the installed version.
 * @example subpathAvailable('idempotency-builder/postgres')
 */
export function subpathAvailable(module: string): boolean {
  const subpath = module === 'idempotency-builder' ? '.' : `./${module.slice('idempotency-builder/'.length)}`;
  return runtimeSubpaths().has(subpath);
}
