/** Between table rows and records: times in ms, the response's columns, driver value shapes. */
import type { IdempotencyRecord, StoredResponse } from '../../core/record.js';
import { numberReader, recordFromRow, type SqlRecordRow } from '../sql-record-row.js';

/** A row selected with `recordSelect()` (sql.ts). Drivers differ in value shapes, hence `unknown`. */
export type RecordRow = SqlRecordRow;

/** A number from int4/float8 (number), int8/numeric (string) or bigint. */
export const toNumber = numberReader('PostgreSQL');

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

const DECODERS = { number: toNumber, bytes: toBytes, headers: toHeaders };

/**
 * The record a row holds.
 * @example const record = toRecord((await db.query(sql.get, [key, scope])).rows[0]);
 */
export const toRecord = (row: RecordRow): IdempotencyRecord => recordFromRow(row, DECODERS);

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
