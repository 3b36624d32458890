/** The Redis store's contract: the Lua scripts it loads (one per operation) and its key defaults. */
import { DEFAULT_PREFIX } from '../stores/redis/key-layout.js';
import { LUA_SCRIPTS } from '../stores/redis/lua/scripts.generated.js';
import { RECORD_FIELDS } from '../stores/redis/record-codec.js';
import { DEFAULT_KEEP_EXPIRED_MS } from '../stores/redis/redis-store.js';

export interface RedisScript {
  /** Versioned name, e.g. `idempotency-builder:claim@1`: two library versions never collide. */
  readonly name: string;
  /** SHA-1 of `source`: what EVALSHA and SCRIPT EXISTS see. */
  readonly sha1: string;
  /** The script as the store loads it; its header lists KEYS, ARGV and replies. */
  readonly source: string;
}

export type RedisScriptName = keyof typeof LUA_SCRIPTS;

/**
 * The store's Lua scripts by operation, exactly as createRedisStore runs them.
 * @example REDIS_SCRIPTS.claim.source.startsWith('--[[ idempotency-builder:claim@1') // true
 */
export const REDIS_SCRIPTS: Readonly<Record<RedisScriptName, RedisScript>> = LUA_SCRIPTS;

/** Key prefix of every key (`<prefix>r:{<scope>|<key>}` record, `<prefix>f:{…}` release fence; hash-tagged for Redis Cluster). */
export const REDIS_DEFAULT_PREFIX = DEFAULT_PREFIX;

/** How long a finished record stays readable after its expiresAt before Redis drops it. */
export const REDIS_DEFAULT_KEEP_EXPIRED_MS = DEFAULT_KEEP_EXPIRED_MS;

/**
 * The record hash's fields, in the order the scripts read them: key, scope, owner, fingerprint,
 * status, lockVersion, lockedUntil, createdAt, completedAt, expiresAt, statusCode, headers (JSON),
 * encoding, body (bytes). Times are ms on the Redis clock (TIME).
 * @example REDIS_RECORD_FIELDS.status // 's'
 */
export const REDIS_RECORD_FIELDS = {
  key: RECORD_FIELDS[0],
  scope: RECORD_FIELDS[1],
  owner: RECORD_FIELDS[2],
  fingerprint: RECORD_FIELDS[3],
  status: RECORD_FIELDS[4],
  lockVersion: RECORD_FIELDS[5],
  lockedUntil: RECORD_FIELDS[6],
  createdAt: RECORD_FIELDS[7],
  completedAt: RECORD_FIELDS[8],
  expiresAt: RECORD_FIELDS[9],
  statusCode: RECORD_FIELDS[10],
  headers: RECORD_FIELDS[11],
  encoding: RECORD_FIELDS[12],
  body: RECORD_FIELDS[13],
} as const;
