/**
 * The runtime subpaths generated TypeScript imports, and whether this installed version of
 * idempotency-builder exports them yet. What is missing is named in the document, not invented.
 */
import { createRequire } from 'node:module';
import type { StoreKind } from '../../design/plan/stack.js';

export interface StoreImport {
  /** e.g. `@idempotency-builder/runtime/postgres`; `./mongo-store.js` for the store generated into the project. */
  readonly module: string;
  /** True when `module` is generated into the user's project (MongoDB), not a runtime subpath. */
  readonly generated?: boolean;
  readonly factory: string;
  /** Driver import lines the setup needs. */
  readonly driverImports: readonly string[];
  /** The expression that creates the store. */
  readonly create: string;
  /** Lines before `create` (pool/client construction). */
  readonly setup: readonly string[];
  /** npm packages the user's project needs for this store. */
  readonly packages: readonly string[];
  /**
   * For files compiled to CommonJS: the driver imported by name. A default import of a CommonJS
   * driver (`import pg from 'pg'`) type-checks under allowSyntheticDefaultImports but is undefined
   * at run time without esModuleInterop — a stock NestJS tsconfig.
   */
  readonly commonjs?: { readonly driverImports: readonly string[]; readonly setup: readonly string[] };
}

export const STORE_IMPORTS: Record<StoreKind, StoreImport> = {
  postgresql: {
    module: '@idempotency-builder/runtime/postgres',
    factory: 'createPostgresStore',
    driverImports: ["import pg from 'pg';"],
    setup: ['const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });'],
    create: 'createPostgresStore({ db: pool })',
    packages: ['pg'],
    commonjs: {
      driverImports: ["import { Pool } from 'pg';"],
      setup: ['const pool = new Pool({ connectionString: process.env.DATABASE_URL });'],
    },
  },
  mysql: {
    module: '@idempotency-builder/runtime/mysql',
    factory: 'createMysqlStore',
    driverImports: ["import mysql from 'mysql2/promise';"],
    setup: ["const pool = mysql.createPool(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/app');"],
    create: 'createMysqlStore({ db: pool })',
    packages: ['mysql2'],
    commonjs: {
      driverImports: ["import { createPool } from 'mysql2/promise';"],
      setup: ["const pool = createPool(process.env.DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/app');"],
    },
  },
  sqlite: {
    module: '@idempotency-builder/runtime/sqlite',
    factory: 'createSqliteStore',
    driverImports: [],
    setup: [],
    create: "createSqliteStore({ filename: process.env.IDEMPOTENCY_DB ?? 'idempotency.db' })",
    packages: ['better-sqlite3'],
  },
  redis: {
    module: '@idempotency-builder/runtime/redis',
    factory: 'createRedisStore',
    driverImports: ["import { Redis } from 'ioredis';"],
    // lazyConnect: importing this module (e.g. from a unit test) opens no connection.
    setup: ["const client = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });"],
    // The default prefix (`idem:`), which the runbook's redis-cli snippets scan.
    create: 'createRedisStore({ client })',
    packages: ['ioredis'],
  },
  dynamodb: {
    module: '@idempotency-builder/runtime/dynamodb',
    factory: 'createDynamoDbStore',
    driverImports: ["import { DynamoDBClient } from '@aws-sdk/client-dynamodb';"],
    setup: ['const client = new DynamoDBClient({});'],
    create: "createDynamoDbStore({ client, table: 'idempotency_store' })",
    packages: ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'],
  },
  // The runtime ships no MongoDB store: mongo-store.ts is generated into the project (mongo-store-file.ts).
  mongodb: {
    module: './mongo-store.js',
    generated: true,
    factory: 'createMongoStore',
    driverImports: ["import { MongoClient } from 'mongodb';"],
    // MongoClient connects on first use: importing this module opens no connection.
    setup: ["const mongo = new MongoClient(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/app');"],
    create: 'createMongoStore({ db: mongo.db() })',
    packages: ['mongodb'],
  },
};

const require = createRequire(import.meta.url);
const available = new Map<string, boolean>();

/**
 * True when the installed runtime exports `module` (`@idempotency-builder/runtime/<name>`):
 * Node's own resolver answers, through the runtime's `exports` map. What is missing is named in
 * the document, never imported by generated code.
 * @example subpathAvailable('@idempotency-builder/runtime/postgres') // true
 */
export function subpathAvailable(module: string): boolean {
  let known = available.get(module);
  if (known === undefined) {
    try {
      require.resolve(module);
      known = true;
    } catch {
      known = false;
    }
    available.set(module, known);
  }
  return known;
}
