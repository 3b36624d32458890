/**
 * The store contract: what every idempotency store promises, whatever its backend.
 *
 * Every method is ONE atomic operation on the backend. Times are milliseconds since the epoch
 * taken from the store's own clock (SQL `now()`, Redis `TIME`, SQLite `unixepoch`), never from the
 * application server, so that app servers with skewed clocks agree on who holds a lease.
 *
 * Fencing tokens: a fresh record's lockVersion is the store clock in ms, and every reclaim,
 * replacement or force-release adds 1. A released key's next incarnation therefore starts above
 * every token the previous one handed out (a reclaim needs a lapsed lease, so a key cannot gain
 * more than one version per millisecond — bar operator force-releases), and a stalled holder can
 * never match a newer record. A store clock stepped backwards could reissue a recent token; a
 * store that can (Redis) keeps a small release fence and starts at max(now, fence + 1).
 * Starting every record at 1 would let A(v1) stall, B(v2) reclaim and release, C claim v1 again —
 * and A's late write land in C's record. Columns holding it need 64 bits.
 *
 * State machine (ARCHITECTURE.md):
 *   absent                      --claim-->            PROCESSING(v = store-now in ms)
 *   PROCESSING(v)               --complete/fail(v)--> COMPLETED | FAILED
 *   PROCESSING(v)               --release(v)-->       absent          (transient error)
 *   PROCESSING(v), lease over   --claim-->            PROCESSING(v+1) (orphan reclaim, same fingerprint and owner)
 *   COMPLETED|FAILED, expired   --claim-->            PROCESSING(v+1) (treated as new, any fingerprint)
 *   COMPLETED|FAILED, expired   --purgeExpired-->     absent
 */
import type { IdempotencyRecord, StoredResponse } from '../core/record.js';

/** Identity of one record: the key is only unique inside its scope (user, account or tenant). */
export interface RecordId {
  readonly key: string;
  readonly scope: string;
}

export interface ClaimInput extends RecordId {
  /** SHA-256 hex of the request's significant fields. */
  readonly fingerprint: string;
  /**
   * Who made the request, when keys share one namespace (`scope: 'global'`); null otherwise.
   * The store records it and requires it to match for an orphan takeover; the engine answers
   * `key_not_found` when it differs.
   */
  readonly owner: string | null;
  /** Lease length: the claim is held until store-now + leaseMs unless extended. */
  readonly leaseMs: number;
  /** Retention: the record expires at store-now + ttlMs and is then never replayed. */
  readonly ttlMs: number;
  /**
   * What to do with a COMPLETED/FAILED record whose expiresAt has passed:
   * `true` replaces it with a fresh claim (the request is new); `false` returns it as `existing`
   * so the engine can reject the request (`onExpired: 'reject'`).
   */
  readonly replaceExpired: boolean;
}

export type ClaimResult =
  | {
      readonly outcome: 'claimed';
      /** Fencing token of this holder; every later write must present it. */
      readonly lockVersion: number;
      /** True when an orphaned PROCESSING record (lease over) was taken over. */
      readonly reclaimed: boolean;
      /** True when an expired COMPLETED/FAILED record was replaced. */
      readonly replacedExpired: boolean;
      /** Store-clock lease end of this claim. */
      readonly lockedUntil: number;
    }
  | {
      readonly outcome: 'existing';
      readonly record: IdempotencyRecord;
      /** The store clock at the moment of the claim, for lease and expiry decisions. */
      readonly now: number;
    };

/** A fenced write either applied, or found a newer holder (or no record) and changed nothing. */
export type FencedResult = 'applied' | 'lost';

export interface FencedInput extends RecordId {
  readonly lockVersion: number;
}

export interface FinishInput extends FencedInput {
  readonly response: StoredResponse;
  /** Retention from completion: expiresAt = store-now + ttlMs. */
  readonly ttlMs: number;
}

export interface ExtendInput extends FencedInput {
  readonly leaseMs: number;
}

export interface ListStuckInput {
  /** Only PROCESSING records whose lease ended at least this long ago (0 = any ended lease). */
  readonly olderThanMs: number;
  readonly limit: number;
}

export interface IdempotencyStore {
  /**
   * Claim the key, or return what holds it. Inserts when absent, replaces when expired (see
   * `replaceExpired`), takes over a PROCESSING record whose lease is over when the fingerprint AND
   * the owner are the same (status, lease and version checked in the same atomic write). Never
   * answers "not found" under contention.
   *
   * Orphans (PROCESSING, lease over) are never replaced by another intent and never purged: an
   * orphan may stand for a half-done side effect (a charge without its local record), so it stays
   * visible to `listStuck` until the same intent retries or an operator reconciles it and calls
   * `forceRelease`.
   */
  claim(input: ClaimInput): Promise<ClaimResult>;
  /** PROCESSING(v) -> COMPLETED, only while `lockVersion` is still v. */
  complete(input: FinishInput): Promise<FencedResult>;
  /** PROCESSING(v) -> FAILED (a permanent error, replayed later), only while still v. */
  fail(input: FinishInput): Promise<FencedResult>;
  /** PROCESSING(v) -> absent: a transient error; the key is claimable again at once. */
  release(input: FencedInput): Promise<FencedResult>;
  /** Heartbeat: lockedUntil = store-now + leaseMs, only while still v and PROCESSING. */
  extend(input: ExtendInput): Promise<FencedResult>;
  /**
   * The record as stored (expired or not), or null. A finished record stays readable after its
   * expiresAt until purged (stores with native expiry keep a grace period): `onExpired: 'reject'`
   * can only recognise an expired key while its record is still there. A PROCESSING record never
   * expires by itself, whatever ttlMs says.
   */
  get(id: RecordId): Promise<IdempotencyRecord | null>;
  /** Delete up to `batchSize` expired COMPLETED/FAILED records; returns how many went. */
  purgeExpired(batchSize: number): Promise<number>;
  /** PROCESSING records whose lease is over: the runbook's identification query. */
  listStuck(input: ListStuckInput): Promise<IdempotencyRecord[]>;
  /**
   * Runbook manual release of a PROCESSING record: ends its lease now and bumps lockVersion so
   * the old holder is fenced out. Returns false when there was no PROCESSING record.
   */
  forceRelease(id: RecordId): Promise<boolean>;
  /** Number of records held (exact or a documented estimate): the store_size gauge. */
  size(): Promise<number>;
  /** The store clock, ms since the epoch. */
  now(): Promise<number>;
  close(): Promise<void>;
}
