/**
 * The DynamoDB store's expressions: one builder per operation, each naming its attributes
 * (`#name`) and values (`:value`) so that no caller string ever becomes part of an expression,
 * and including only the names and values it uses (DynamoDB rejects unused ones).
 *
 * Lease ends are written as app-now + leaseMs + clockSkewMs and compared with app-now: the skew
 * buffer sits in the stored lease end, so any app server whose clock is at most clockSkewMs
 * ahead of the holder's still sees the lease as live for its full leaseMs.
 */
import { ATTR } from './item-mapping.js';

export interface Expression {
  readonly UpdateExpression?: string;
  readonly ConditionExpression?: string;
  readonly FilterExpression?: string;
  readonly ExpressionAttributeNames: Record<string, string>;
  readonly ExpressionAttributeValues?: Record<string, unknown>;
}

/** `#alias` → attribute name for the aliases that occur in `texts`. */
function namesIn(...texts: string[]): Record<string, string> {
  const names: Record<string, string> = {};
  const all = Object.entries(ATTR) as [keyof typeof ATTR, string][];
  for (const [alias, attribute] of all) if (texts.some((t) => new RegExp(`#${alias}\\b`).test(t))) names[`#${alias}`] = attribute;
  return names;
}

export interface ClaimValues {
  readonly key: string;
  readonly scope: string;
  readonly owner: string | null;
  readonly fingerprint: string;
  readonly now: number;
  readonly lockedUntil: number;
  readonly expiresAt: number;
  readonly replaceExpired: boolean;
  /** A random nonce naming this claim: after a lost response, the claimer recognises its own win. */
  readonly nonce: string;
}

/**
 * claim — ONE conditional update for insert, orphan reclaim and expired replacement (the
 * Powertools shape): the item is absent, OR a PROCESSING item whose lease is over with the same
 * fingerprint and owner, OR (when replacing is allowed) an expired COMPLETED/FAILED item.
 * lockVersion = if_not_exists(lockVersion, now - 1) + 1: the clock in ms for a fresh item, +1 on
 * a reclaim or replacement. createdAt is kept by a reclaim and a replacement (one expression
 * cannot branch). ReturnValues ALL_OLD tells which case won; on failure the old item comes back
 * with ReturnValuesOnConditionCheckFailure (or is read, where the server ignores that).
 */
export function claimExpression(v: ClaimValues): Expression {
  const ownerSet = v.owner === null ? '' : ', #owner = :owner';
  const removes = ['#completedAt', '#code', '#headers', '#encoding', '#body', '#chunks', '#ttl', '#finishToken', ...(v.owner === null ? ['#owner'] : [])];
  const update = `SET #lockVersion = if_not_exists(#lockVersion, :nowMinusOne) + :one, #status = :processing, #fingerprint = :fingerprint${ownerSet},
    #lockedUntil = :lockedUntil, #expiresAt = :expiresAt, #createdAt = if_not_exists(#createdAt, :now), #key = :key, #scope = :scope, #claimToken = :nonce
    REMOVE ${removes.join(', ')}`;
  const sameOwner = v.owner === null ? 'attribute_not_exists(#owner)' : '#owner = :owner';
  const condition =
    `attribute_not_exists(#pk) OR (#status = :processing AND #lockedUntil <= :now AND #fingerprint = :fingerprint AND ${sameOwner})` +
    (v.replaceExpired ? ' OR (#status <> :processing AND #expiresAt <= :now)' : '');
  return {
    UpdateExpression: update,
    ConditionExpression: condition,
    ExpressionAttributeNames: namesIn(update, condition),
    ExpressionAttributeValues: {
      ':nowMinusOne': v.now - 1,
      ':one': 1,
      ':now': v.now,
      ':processing': 'PROCESSING',
      ':fingerprint': v.fingerprint,
      ...(v.owner === null ? {} : { ':owner': v.owner }),
      ':lockedUntil': v.lockedUntil,
      ':expiresAt': v.expiresAt,
      ':key': v.key,
      ':scope': v.scope,
      ':nonce': v.nonce,
    },
  };
}

/** The fence of every holder write: still this lockVersion, still PROCESSING. */
const FENCE = '#lockVersion = :lockVersion AND #status = :processing';

export interface FinishValues {
  readonly lockVersion: number;
  readonly status: 'COMPLETED' | 'FAILED';
  readonly code: number | null;
  readonly headers: string | null;
  readonly encoding: string;
  /** Inline body, or null when it is empty or lives in chunks. */
  readonly body: Uint8Array | null;
  /** Number of chunk items, 0 when inline. */
  readonly chunks: number;
  readonly now: number;
  readonly expiresAt: number;
  /** Native TTL, epoch seconds: expiresAt plus the grace period. */
  readonly ttl: number;
  /** A random nonce naming this write: after a lost response, the writer recognises its own write. */
  readonly nonce: string;
}

/** finish — PROCESSING(v) → COMPLETED | FAILED with the response, fenced by v. */
export function finishExpression(v: FinishValues): Expression {
  const sets = ['#status = :status', '#encoding = :encoding', '#completedAt = :now', '#expiresAt = :expiresAt', '#ttl = :ttl', '#finishToken = :nonce'];
  const removes = ['#lockedUntil'];
  const values: Record<string, unknown> = { ':lockVersion': v.lockVersion, ':processing': 'PROCESSING', ':status': v.status, ':encoding': v.encoding, ':now': v.now, ':expiresAt': v.expiresAt, ':ttl': v.ttl, ':nonce': v.nonce };
  const optional = (alias: string, value: unknown) => {
    if (value === null) removes.push(`#${alias}`);
    else {
      sets.push(`#${alias} = :${alias}`);
      values[`:${alias}`] = value;
    }
  };
  optional('code', v.code);
  optional('headers', v.headers);
  optional('body', v.body);
  optional('chunks', v.chunks > 0 ? v.chunks : null);
  const update = `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`;
  return { UpdateExpression: update, ConditionExpression: FENCE, ExpressionAttributeNames: namesIn(update, FENCE), ExpressionAttributeValues: values };
}

/** release — fenced delete (DeleteItem condition). */
export const releaseExpression = (lockVersion: number): Expression => ({
  ConditionExpression: FENCE,
  ExpressionAttributeNames: namesIn(FENCE),
  ExpressionAttributeValues: { ':lockVersion': lockVersion, ':processing': 'PROCESSING' },
});

/** extend — fenced heartbeat: a new lease end (app-now + leaseMs + skew). */
export const extendExpression = (lockVersion: number, lockedUntil: number): Expression => ({
  UpdateExpression: 'SET #lockedUntil = :lockedUntil',
  ConditionExpression: FENCE,
  ExpressionAttributeNames: namesIn('#lockedUntil', FENCE),
  ExpressionAttributeValues: { ':lockVersion': lockVersion, ':processing': 'PROCESSING', ':lockedUntil': lockedUntil },
});

/** forceRelease — the runbook's release: lease over now, lockVersion + 1 (old holder fenced out). */
export const forceReleaseExpression = (now: number): Expression => ({
  UpdateExpression: 'SET #lockVersion = #lockVersion + :one, #lockedUntil = :now',
  ConditionExpression: '#status = :processing',
  ExpressionAttributeNames: namesIn('#lockVersion #lockedUntil #status'),
  ExpressionAttributeValues: { ':one': 1, ':now': now, ':processing': 'PROCESSING' },
});

/** Scan filter: expired finished records (never chunk items, never PROCESSING). */
export const purgeFilter = (now: number): Expression => ({
  FilterExpression: '#status IN (:completed, :failed) AND #expiresAt <= :now AND attribute_not_exists(#chunkOf)',
  ExpressionAttributeNames: namesIn('#status #expiresAt #chunkOf'),
  ExpressionAttributeValues: { ':completed': 'COMPLETED', ':failed': 'FAILED', ':now': now },
});

/** purge delete — only while the item is still that expired version (a claim may have replaced it). */
export const purgeDeleteExpression = (lockVersion: number, status: string, now: number): Expression => ({
  ConditionExpression: '#lockVersion = :lockVersion AND #status = :status AND #expiresAt <= :now',
  ExpressionAttributeNames: namesIn('#lockVersion #status #expiresAt'),
  ExpressionAttributeValues: { ':lockVersion': lockVersion, ':status': status, ':now': now },
});

/** Scan filter: PROCESSING records whose (skew-buffered) lease ended at or before `threshold`. */
export const stuckFilter = (threshold: number): Expression => ({
  FilterExpression: '#status = :processing AND #lockedUntil <= :threshold AND attribute_not_exists(#chunkOf)',
  ExpressionAttributeNames: namesIn('#status #lockedUntil #chunkOf'),
  ExpressionAttributeValues: { ':processing': 'PROCESSING', ':threshold': threshold },
});

/** Scan filter: records only, not body chunks. */
export const recordsFilter = (): Expression => ({
  FilterExpression: 'attribute_not_exists(#chunkOf)',
  ExpressionAttributeNames: namesIn('#chunkOf'),
});
