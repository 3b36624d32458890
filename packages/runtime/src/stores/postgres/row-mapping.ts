/** Between table rows and records: times in ms, the response's columns, driver value shapes. */
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../../core/record.js';

/** A row selected with `recordSelect()` (sql.ts). Drivers differ in value shapes, hence `unknown`. */
export type RecordRow = Record<string, unknown>;

/** A number from int4/float8 (number), int8/numeric (string) or bigint. */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' || typeof value === 'bigint') return Number(value);
  throw new TypeError(`Expected a number from PostgreSQL, got ${typeof value}.`);
}

const toNumberOrNull = (value: unknown) => (value === null || value === undefined ? null : toNumber(value));

/** BYTEA as bytes: node-postgres gives a Buffer, PGlite a Uint8Array, raw text drivers `\x..` hex. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string' && value.startsWith('\\x')) return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
  throw new TypeError('Expected BYTEA from PostgreSQL.');
}

/** JSONB headers: parsed by the driver, or JSON text when a driver leaves it as a string. */
function toHeaders(value: unknown): Readonly<Record<string, string>> | null {
  if (value === null || value === undefined) return null;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, string>;
}

function toResponse(row: RecordRow): StoredResponse | null {
  if (row.response_encoding === null || row.response_encoding === undefined) return null;
  return {
    statusCode: toNumberOrNull(row.response_code),
    headers: toHeaders(row.response_headers),
    body: toBytes(row.response_bytes),
    encoding: String(row.response_encoding),
  };
}

/**
 * The record a row holds.
 * @example const record = toRecord((await db.query(sql.get, [key, scope])).rows[0]);
 */
export function toRecord(row: RecordRow): IdempotencyRecord {
  return {
    key: String(row.idempotency_key),
    scope: String(row.user_id),
    owner: row.owner_id === null || row.owner_id === undefined ? null : String(row.owner_id),
    fingerprint: String(row.fingerprint),
    status: row.status as RecordStatus,
    lockVersion: toNumber(row.lock_version),
    lockedUntil: toNumberOrNull(row.locked_until_ms),
    response: toResponse(row),
    createdAt: toNumber(row.created_at_ms),
    completedAt: toNumberOrNull(row.completed_at_ms),
    expiresAt: toNumber(row.expires_at_ms),
  };
}

/**
 * Encodings whose body is plain JSON text. Exactly these two: a codec's output names its wrapper
 * (`aes-256-gcm-bound:k1:json`, `sha256:json`), so with encryption or hash-only storage on, the
 * readable copy is NULL and nothing about the response is written in plaintext (issue 11 #10).
 */
const JSON_ENCODINGS = new Set(['json', 'error+json']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The spec's `response_body JSONB`: a readable copy of a plain JSON body, or null. The exact bytes
 * always live in `response_bytes` (JSONB reorders keys and drops whitespace, so it cannot give the
 * original bytes back). Null too when JSONB would refuse the text: `\u0000` and lone surrogates.
 */
export function jsonCopy(response: StoredResponse): string | null {
  if (!JSON_ENCODINGS.has(response.encoding) || response.body.byteLength === 0) return null;
  try {
    const normalised = JSON.stringify(JSON.parse(utf8.decode(response.body)));
    return /\\u(0000|d[89a-f])/i.test(normalised) ? null : normalised;
  } catch {
    return null;
  }
}

/**
 * The finish statement's response parameters ($5..$9 of `finish`, sql.ts).
 * @example db.query(sql.finish, [key, scope, v, 'COMPLETED', ...responseParams(response, true), ttlMs]);
 */
export function responseParams(response: StoredResponse, copyJson: boolean): unknown[] {
  const body = response.body;
  return [
    response.statusCode,
    response.headers === null ? null : JSON.stringify(response.headers),
    response.encoding,
    Buffer.from(body.buffer, body.byteOffset, body.byteLength),
    copyJson ? jsonCopy(response) : null,
  ];
}
