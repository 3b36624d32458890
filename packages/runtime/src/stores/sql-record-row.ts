/**
 * Between a row of the spec's table and a record, for the SQL stores that keep its columns
 * (PostgreSQL, MySQL): one mapping of column to field, times read as `<name>_ms`. Each store
 * passes how its driver shapes numbers, bytes and JSON.
 */
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../core/record.js';

/** A selected row; drivers differ in value shapes, hence `unknown`. */
export type SqlRecordRow = Record<string, unknown>;

/** How one driver's values become numbers, bytes and headers. */
export interface RowDecoders {
  number(value: unknown): number;
  bytes(value: unknown): Uint8Array;
  headers(value: unknown): Readonly<Record<string, string>> | null;
}

/**
 * Reads a number from a driver that gives int4/float8/INT as `number` and int8/BIGINT/DECIMAL as
 * string or bigint; named after the database in its error.
 * @example export const toNumber = numberReader('PostgreSQL');
 */
export function numberReader(database: string): (value: unknown) => number {
  return (value) => {
    if (typeof value === 'number') return value;
    if (typeof value === 'string' || typeof value === 'bigint') return Number(value);
    throw new TypeError(`Expected a number from ${database}, got ${typeof value}.`);
  };
}

/**
 * The record a row holds (a row selected with the store's record select list).
 * @example const record = recordFromRow(rows[0], { number: toNumber, bytes: toBytes, headers: toHeaders });
 */
export function recordFromRow(row: SqlRecordRow, decode: RowDecoders): IdempotencyRecord {
  const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : decode.number(value));
  return {
    key: String(row.idempotency_key),
    scope: String(row.user_id),
    owner: row.owner_id === null || row.owner_id === undefined ? null : String(row.owner_id),
    fingerprint: String(row.fingerprint),
    status: String(row.status) as RecordStatus,
    lockVersion: decode.number(row.lock_version),
    lockedUntil: numberOrNull(row.locked_until_ms),
    response: responseFromRow(row, decode, numberOrNull),
    createdAt: decode.number(row.created_at_ms),
    completedAt: numberOrNull(row.completed_at_ms),
    expiresAt: decode.number(row.expires_at_ms),
  };
}

function responseFromRow(row: SqlRecordRow, decode: RowDecoders, numberOrNull: (value: unknown) => number | null): StoredResponse | null {
  if (row.response_encoding === null || row.response_encoding === undefined) return null;
  return {
    statusCode: numberOrNull(row.response_code),
    headers: decode.headers(row.response_headers),
    body: decode.bytes(row.response_bytes),
    encoding: String(row.response_encoding),
  };
}
