/**
 * Where a record lives in Redis: its key names, built so that every key of one record shares a
 * Redis Cluster hash slot (one hash tag over scope and key) and no two records ever collide.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { RecordId } from '../../core/store-contract.js';

/** The default key prefix; every key the store writes starts with it. */
export const DEFAULT_PREFIX = 'idem:';

/** Key names of one record. Both share the hash tag, hence the slot. */
export interface RecordKeys {
  /** The record hash. */
  readonly record: string;
  /** The lockVersion of a released record, so the next claim continues after it. */
  readonly fence: string;
}

export interface KeyLayout {
  readonly prefix: string;
  keysOf(id: RecordId): RecordKeys;
  /** SCAN MATCH pattern for every record hash (never the fences). */
  readonly recordPattern: string;
}

/**
 * Scope may hold any non-space character, including the braces that delimit a hash tag; keys
 * cannot hold `{`, `}`, `%` or `|` (their charset is `[A-Za-z0-9_.:~-]`). Escaping those four in
 * the scope and joining with `|` keeps the tag unambiguous and inside one pair of braces.
 */
const escapeScope = (scope: string) => scope.replace(/[%{}|]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/** Glob characters of SCAN MATCH, escaped so a prefix like `app[1]:` matches only itself. */
const escapeGlob = (text: string) => text.replace(/[*?[\]\\]/g, (char) => `\\${char}`);

/**
 * Validates the prefix once and returns the key builder.
 * @example
 * const layout = createKeyLayout('shop:idem:');
 * layout.keysOf({ scope: 'user-1', key: 'order-42' }).record // 'shop:idem:r:{user-1|order-42}'
 */
export function createKeyLayout(prefix: string = DEFAULT_PREFIX): KeyLayout {
  if (typeof prefix !== 'string' || prefix.length === 0) {
    throw new InvalidOptionsError('Option "prefix" must be a non-empty string (it keeps the store apart from other Redis data).');
  }
  if (/[{}]/.test(prefix)) {
    // A brace in the prefix would become the hash tag and put every record in one slot.
    throw new InvalidOptionsError('Option "prefix" must not contain "{" or "}": they would become the Redis Cluster hash tag.');
  }
  return {
    prefix,
    keysOf({ scope, key }) {
      const tag = `{${escapeScope(scope)}|${key}}`;
      return { record: `${prefix}r:${tag}`, fence: `${prefix}f:${tag}` };
    },
    recordPattern: `${escapeGlob(prefix)}r:{*`,
  };
}
