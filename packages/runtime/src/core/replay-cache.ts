/**
 * The optional in-process cache of COMPLETED records in front of the store, one per engine: a
 * replay of a key this process has already seen finished is answered without a store round trip.
 *
 * What it may serve, and for how long: only COMPLETED records (never PROCESSING: a lease changes
 * under us; never FAILED: rare, not worth the staleness), each for at most the cache's `ttlMs`
 * and never past the record's own `expiresAt`. It is not invalidated by the store: a record
 * purged or force-released there (another process, the ops CLI) may still be replayed from this
 * cache until its cache TTL ends — which is why that TTL is short (5 s by default).
 */
import type { IdempotencyRecord } from './record.js';

interface Entry {
  readonly record: IdempotencyRecord;
  /** The store clock when the record was read, and the local clock at the same moment. */
  readonly storeNow: number;
  readonly cachedAt: number;
  /** Local clock after which the entry is gone. */
  readonly until: number;
}

export interface ReplayCache {
  /** The cached record and the store clock now (estimated from the local clock), or null. */
  get(scope: string, key: string): { readonly record: IdempotencyRecord; readonly now: number } | null;
  /** Keeps a COMPLETED record read (or written) at store time `storeNow`; anything else is ignored. */
  put(record: IdempotencyRecord, storeNow: number): void;
  /** Forgets one key (this engine saw it change, e.g. an expired record replaced). */
  delete(scope: string, key: string): void;
  readonly size: number;
}

const slot = (scope: string, key: string) => `${scope.length}:${scope}\u0000${key}`;

/**
 * A bounded LRU with per-entry TTL. `clock` is the local clock (tests move it).
 * @example
 * const cache = createReplayCache({ maxEntries: 10_000, ttlMs: 5_000 });
 * cache.put(record, now);
 * cache.get(record.scope, record.key)?.record.status // 'COMPLETED'
 */
export function createReplayCache({ maxEntries, ttlMs, clock = Date.now }: { maxEntries: number; ttlMs: number; clock?: () => number }): ReplayCache {
  // A Map iterates in insertion order: deleting and re-inserting on a hit makes the first entry the least recently used.
  const entries = new Map<string, Entry>();
  return {
    get(scope, key) {
      const id = slot(scope, key);
      const entry = entries.get(id);
      if (entry === undefined) return null;
      const local = clock();
      if (local >= entry.until) {
        entries.delete(id);
        return null;
      }
      entries.delete(id);
      entries.set(id, entry);
      return { record: entry.record, now: entry.storeNow + (local - entry.cachedAt) };
    },
    put(record, storeNow) {
      if (record.status !== 'COMPLETED' || record.response === null) return;
      const remaining = record.expiresAt - storeNow;
      if (remaining <= 0) return;
      const local = clock();
      const id = slot(record.scope, record.key);
      entries.delete(id);
      entries.set(id, { record, storeNow, cachedAt: local, until: local + Math.min(ttlMs, remaining) });
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    delete(scope, key) {
      entries.delete(slot(scope, key));
    },
    get size() {
      return entries.size;
    },
  };
}
