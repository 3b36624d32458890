/**
 * Which live store an ops command talks to: a URL (`sqlite:./idem.db`, `postgres://…`,
 * `redis://…`), from `--store`, the IDEMPOTENCY_STORE_URL variable or a JSON config file, plus the
 * table/prefix the application's store was created with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type StoreKind = 'sqlite' | 'postgres' | 'redis';

export interface StoreTarget {
  readonly kind: StoreKind;
  /** The URL as given (printed with its password masked). */
  readonly url: string;
  /** SQLite file path; unset for server stores. */
  readonly filename?: string;
  /** PostgreSQL schema and table, SQLite table. */
  readonly schema?: string;
  readonly table?: string;
  /** Redis key prefix. */
  readonly prefix?: string;
}

export interface StoreTargetInput {
  readonly store?: string;
  readonly config?: string;
  readonly table?: string;
  readonly schema?: string;
  readonly prefix?: string;
}

/** A problem with the target the user named: printed as one line, exit code 2. */
export class StoreTargetError extends Error {}

interface ConfigFile {
  readonly store?: unknown;
  readonly table?: unknown;
  readonly schema?: unknown;
  readonly prefix?: unknown;
}

function readConfig(path: string): ConfigFile {
  const file = resolve(path);
  if (!existsSync(file)) throw new StoreTargetError(`Config file ${path} does not exist.`);
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as ConfigFile;
  } catch (error) {
    throw new StoreTargetError(`Config file ${path} is not a JSON object (${(error as Error).message}).`);
  }
}

const optionalString = (field: string, value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new StoreTargetError(`"${field}" must be a non-empty string.`);
  return value;
};

/**
 * Resolves flags, then the config file, then IDEMPOTENCY_STORE_URL.
 * @example resolveStoreTarget({ store: 'sqlite:./idempotency.db' }) // { kind: 'sqlite', filename: './idempotency.db', … }
 */
export function resolveStoreTarget(input: StoreTargetInput, env: NodeJS.ProcessEnv = process.env): StoreTarget {
  const config = input.config ? readConfig(input.config) : {};
  const url = input.store ?? optionalString('store', config.store) ?? env.IDEMPOTENCY_STORE_URL;
  if (!url) {
    throw new StoreTargetError('Name the store: --store <url>, "store" in --config <file>, or IDEMPOTENCY_STORE_URL (sqlite:<file>, postgres://…, redis://…).');
  }
  const table = input.table ?? optionalString('table', config.table);
  const schema = input.schema ?? optionalString('schema', config.schema);
  const prefix = input.prefix ?? optionalString('prefix', config.prefix);
  const scheme = /^([a-z0-9+]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'sqlite' || scheme === 'file') {
    const filename = url.replace(/^(sqlite|file):(\/\/)?/i, '');
    if (!filename) throw new StoreTargetError('A sqlite: URL needs a file path, e.g. sqlite:./idempotency.db');
    return { kind: 'sqlite', url, filename, ...(table ? { table } : {}) };
  }
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url, ...(schema ? { schema } : {}), ...(table ? { table } : {}) };
  if (scheme === 'redis' || scheme === 'rediss') return { kind: 'redis', url, ...(prefix ? { prefix } : {}) };
  throw new StoreTargetError(`Unsupported store URL scheme "${scheme ?? url}": use sqlite:, postgres:// or redis://.`);
}

/**
 * The URL with any password replaced, for messages.
 * @example maskUrl('postgres://app:secret@db/app') // 'postgres://app:***@db/app'
 */
export function maskUrl(url: string): string {
  return url.replace(/^([a-z0-9+]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}
