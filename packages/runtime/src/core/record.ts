/** The idempotency record and the stored response, as every store keeps them. */

export type RecordStatus = 'PROCESSING' | 'COMPLETED' | 'FAILED';

/**
 * A response as kept at rest. `body` is opaque bytes whose meaning `encoding` names
 * (`json`, `bytes`, `error+json`, `sha256`, or a codec's wrapper such as `aes-256-gcm:json`).
 */
export interface StoredResponse {
  /** HTTP status or application result code; null outside HTTP. */
  readonly statusCode: number | null;
  /** Only allow-listed headers are ever stored. */
  readonly headers: Readonly<Record<string, string>> | null;
  readonly body: Uint8Array;
  readonly encoding: string;
}

export interface IdempotencyRecord {
  readonly key: string;
  /** The authenticated user, account or tenant; `global` only by explicit choice. */
  readonly scope: string;
  /** Who created the record when scope is a shared namespace; null otherwise. */
  readonly owner: string | null;
  /** SHA-256 hex of the significant request fields. */
  readonly fingerprint: string;
  readonly status: RecordStatus;
  /** Fencing token: +1 on every claim or reclaim. */
  readonly lockVersion: number;
  /** Lease end (store clock, ms); null once the record is finished. */
  readonly lockedUntil: number | null;
  readonly response: StoredResponse | null;
  readonly createdAt: number;
  readonly completedAt: number | null;
  readonly expiresAt: number;
}
