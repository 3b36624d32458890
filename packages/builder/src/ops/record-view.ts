/**
 * How an ops command shows a record: times in ISO and relative to the store clock, the
 * fingerprint shortened (a full one helps nobody and is sensitive), the body only on request.
 */
import type { IdempotencyRecord } from '@idempotency-builder/runtime';

export interface RecordView {
  readonly key: string;
  readonly scope: string;
  readonly owner: string | null;
  readonly status: string;
  readonly lockVersion: number;
  readonly fingerprintPrefix: string;
  readonly lockedUntil: string | null;
  /** Positive: the lease ends in this many ms; negative: it ended this long ago. */
  readonly leaseRemainingMs: number | null;
  readonly createdAt: string;
  readonly completedAt: string | null;
  readonly expiresAt: string;
  readonly response?: {
    readonly statusCode: number | null;
    readonly encoding: string;
    readonly headers: Readonly<Record<string, string>> | null;
    /** UTF-8 text when the bytes are text, else base64 (see `bodyEncoding`). */
    readonly body: string;
    readonly bodyEncoding: 'utf8' | 'base64';
    readonly bytes: number;
  } | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function bodyText(body: Uint8Array): { body: string; bodyEncoding: 'utf8' | 'base64' } {
  try {
    return { body: new TextDecoder('utf-8', { fatal: true }).decode(body), bodyEncoding: 'utf8' };
  } catch {
    return { body: Buffer.from(body).toString('base64'), bodyEncoding: 'base64' };
  }
}

/**
 * The record as printed; `showBody` adds the stored response (still encrypted if a codec wrote it).
 * @example viewRecord(record, await store.now(), { showBody: false }).status // 'PROCESSING'
 */
export function viewRecord(record: IdempotencyRecord, now: number, { showBody }: { showBody: boolean }): RecordView {
  const response = record.response;
  return {
    key: record.key,
    scope: record.scope,
    owner: record.owner,
    status: record.status,
    lockVersion: record.lockVersion,
    fingerprintPrefix: `${record.fingerprint.slice(0, 12)}…`,
    lockedUntil: iso(record.lockedUntil),
    leaseRemainingMs: record.status === 'PROCESSING' && record.lockedUntil !== null ? record.lockedUntil - now : null,
    createdAt: iso(record.createdAt)!,
    completedAt: iso(record.completedAt),
    expiresAt: iso(record.expiresAt)!,
    ...(showBody
      ? {
          response:
            response === null
              ? null
              : { statusCode: response.statusCode, encoding: response.encoding, headers: response.headers, bytes: response.body.byteLength, ...bodyText(response.body) },
        }
      : {}),
  };
}

/**
 * "in 3 s" / "12 s ago", for lease ends.
 * @example relative(-12_400) // '12.4 s ago'
 */
export function relative(ms: number): string {
  const seconds = Math.abs(ms) / 1000;
  const amount = seconds >= 120 ? `${(seconds / 60).toFixed(1)} min` : `${seconds.toFixed(1)} s`;
  return ms >= 0 ? `in ${amount}` : `${amount} ago`;
}
