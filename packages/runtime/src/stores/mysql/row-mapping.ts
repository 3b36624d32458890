/** Between MySQL rows and records: times in ms, the response's columns, driver value shapes. */
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../../core/record.js';
import type { MysqlRow } from './queryable.js';

/** A number from INT/BIGINT (number, or string/bigint with supportBigNumbers) or DECIMAL (string). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || typeof value === 'bigint') return Number(value);
  throw new TypeError(`Expected a number from MySQL, got ${typeof value}.`);
}

const toNumberOrNull = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

/** LONGBLOB as bytes: mysql2 gives a Buffer. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError('Expected a BLOB (Buffer) from MySQL.');
}

function toResponse(row: MysqlRow): StoredResponse | null {
  if (row.response_encoding === null || row.response_encoding === undefined) return null;
  const headers = row.response_headers;
  return {
    statusCode: toNumberOrNull(row.response_code),
    headers: headers === null || headers === undefined ? null : (JSON.parse(String(headers)) as Record<string, string>),
    body: toBytes(row.response_bytes),
    encoding: String(row.response_encoding),
  };
}

/**
 * The record a row holds (a row selected with the statements' record list).
 * @example const record = toMysqlRecord(rows[0]);
 */
export function toMysqlRecord(row: MysqlRow): IdempotencyRecord {
  return {
    key: String(row.idempotency_key),
    scope: String(row.user_id),
    owner: row.owner_id === null || row.owner_id === undefined ? null : String(row.owner_id),
    fingerprint: String(row.fingerprint),
    status: String(row.status) as RecordStatus,
    lockVersion: toNumber(row.lock_version),
    lockedUntil: toNumberOrNull(row.locked_until_ms),
    response: toResponse(row),
    createdAt: toNumber(row.created_at_ms),
    completedAt: toNumberOrNull(row.completed_at_ms),
    expiresAt: toNumber(row.expires_at_ms),
  };
}

/**
 * The finish statement's response parameters.
 * @example bindValues(sql.finish, { ...responseValues(response), status: 'COMPLETED', ... });
 */
export function responseValues(response: StoredResponse): Record<string, unknown> {
  const body = response.body;
  return {
    code: response.statusCode,
    headers: response.headers === null ? null : JSON.stringify(response.headers),
    encoding: response.encoding,
    bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
  };
}
