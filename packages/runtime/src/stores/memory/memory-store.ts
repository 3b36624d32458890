/**
 * The in-memory store. ONE PROCESS ONLY: two processes (or two app instances) each have their own
 * map and will both run a duplicate. Use it for tests, demos and single-process tools; use SQLite,
 * PostgreSQL, Redis, MySQL or DynamoDB anywhere a duplicate can reach another process.
 *
 * Every method runs synchronously between awaits, which makes each one atomic on Node's single
 * thread. The clock is injectable so tests can move time.
 */
import type { IdempotencyRecord } from '../../core/record.js';
import type {
  ClaimInput,
  ClaimResult,
  ExtendInput,
  FencedInput,
  FencedResult,
  FinishInput,
  IdempotencyStore,
  ListStuckInput,
  RecordId,
} from '../../core/store-contract.js';

export interface MemoryStoreOptions {
  /** The store clock in ms since the epoch. Default `Date.now`. */
  readonly clock?: () => number;
}

export interface MemoryStore extends IdempotencyStore {
  /** Every record, expired or not — for tests and debugging. */
  readonly records: ReadonlyMap<string, IdempotencyRecord>;
}

/** Scope and key joined by a character the key charset forbids, so ids never collide. */
const idOf = ({ key, scope }: RecordId) => `${scope}\u0000${key}`;

/**
 * Creates the one-process memory store.
 * @example const store = createMemoryStore(); const idempotency = createIdempotency({ store });
 */
export function createMemoryStore({ clock = Date.now }: MemoryStoreOptions = {}): MemoryStore {
  const records = new Map<string, IdempotencyRecord>();
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new Error('The memory store is closed.');
  };

  function claimNow(input: ClaimInput): ClaimResult {
    const now = clock();
    const id = idOf(input);
    const existing = records.get(id);
    const fresh = (lockVersion: number): IdempotencyRecord => ({
      key: input.key,
      scope: input.scope,
      owner: input.owner,
      fingerprint: input.fingerprint,
      status: 'PROCESSING',
      lockVersion,
      lockedUntil: now + input.leaseMs,
      response: null,
      createdAt: now,
      completedAt: null,
      expiresAt: now + input.ttlMs,
    });
    if (!existing) {
      const record = fresh(now);
      records.set(id, record);
      return { outcome: 'claimed', lockVersion: record.lockVersion, reclaimed: false, replacedExpired: false, lockedUntil: record.lockedUntil! };
    }
    if (existing.status !== 'PROCESSING' && existing.expiresAt <= now && input.replaceExpired) {
      const record = fresh(Math.max(existing.lockVersion + 1, now));
      records.set(id, record);
      return { outcome: 'claimed', lockVersion: record.lockVersion, reclaimed: false, replacedExpired: true, lockedUntil: record.lockedUntil! };
    }
    if (
      existing.status === 'PROCESSING' &&
      (existing.lockedUntil ?? 0) <= now &&
      existing.fingerprint === input.fingerprint &&
      existing.owner === input.owner
    ) {
      const record: IdempotencyRecord = {
        ...existing,
        lockVersion: existing.lockVersion + 1,
        lockedUntil: now + input.leaseMs,
        expiresAt: now + input.ttlMs,
      };
      records.set(id, record);
      return { outcome: 'claimed', lockVersion: record.lockVersion, reclaimed: true, replacedExpired: false, lockedUntil: record.lockedUntil! };
    }
    return { outcome: 'existing', record: existing, now };
  }

  /** Applies `change` only to a PROCESSING record still fenced by `lockVersion`. */
  function fenced(input: FencedInput, change: (record: IdempotencyRecord, now: number) => IdempotencyRecord | null): FencedResult {
    ensureOpen();
    const id = idOf(input);
    const record = records.get(id);
    if (!record || record.status !== 'PROCESSING' || record.lockVersion !== input.lockVersion) return 'lost';
    const next = change(record, clock());
    if (next) records.set(id, next);
    else records.delete(id);
    return 'applied';
  }

  const finishAs =
    (status: 'COMPLETED' | 'FAILED') =>
    async (input: FinishInput): Promise<FencedResult> =>
      fenced(input, (record, now) => ({
        ...record,
        status,
        lockedUntil: null,
        response: { ...input.response, body: new Uint8Array(input.response.body) },
        completedAt: now,
        expiresAt: now + input.ttlMs,
      }));

  return {
    records,
    async claim(input) {
      ensureOpen();
      return claimNow(input);
    },
    complete: finishAs('COMPLETED'),
    fail: finishAs('FAILED'),
    async release(input) {
      return fenced(input, () => null);
    },
    async extend(input: ExtendInput) {
      return fenced(input, (record, now) => ({ ...record, lockedUntil: now + input.leaseMs }));
    },
    async get(id) {
      ensureOpen();
      return records.get(idOf(id)) ?? null;
    },
    async purgeExpired(batchSize) {
      ensureOpen();
      const now = clock();
      let removed = 0;
      for (const [id, record] of records) {
        if (removed >= batchSize) break;
        if (record.status !== 'PROCESSING' && record.expiresAt <= now) {
          records.delete(id);
          removed++;
        }
      }
      return removed;
    },
    async listStuck({ olderThanMs, limit }: ListStuckInput) {
      ensureOpen();
      const cutoff = clock() - olderThanMs;
      return [...records.values()]
        .filter((record) => record.status === 'PROCESSING' && (record.lockedUntil ?? 0) <= cutoff)
        .sort((a, b) => (a.lockedUntil ?? 0) - (b.lockedUntil ?? 0))
        .slice(0, limit);
    },
    async forceRelease(id) {
      ensureOpen();
      const record = records.get(idOf(id));
      if (!record || record.status !== 'PROCESSING') return false;
      records.set(idOf(id), { ...record, lockVersion: record.lockVersion + 1, lockedUntil: clock() });
      return true;
    },
    async size() {
      ensureOpen();
      return records.size;
    },
    async now() {
      return clock();
    },
    async close() {
      closed = true;
    },
  };
}
