/** Between MySQL rows and records: times in ms, the response's columns, driver value shapes. */
import type { IdempotencyRecord, StoredResponse } from '../../core/record.js';
import { numberReader, recordFromRow } from '../sql-record-row.js';
import type { MysqlRow } from './queryable.js';

/** A number from INT/BIGINT (number, or string/bigint with supportBigNumbers) or DECIMAL (string). */
export const toNumber = numberReader('MySQL');

/** LONGBLOB as bytes: mysql2 gives a Buffer. */
function toBytes(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  throw new TypeError('Expected a BLOB (Buffer) from MySQL.');
}

/** JSON headers, stored as text. */
const toHeaders = (value: unknown) => (value === null || value === undefined ? null : (JSON.parse(String(value)) as Record<string, string>));

const DECODERS = { number: toNumber, bytes: toBytes, headers: toHeaders };

/**
 * The record a row holds (a row selected with the statements' record list).
 * @example const record = toMysqlRecord(rows[0]);
 */
export const toMysqlRecord = (row: MysqlRow): IdempotencyRecord => recordFromRow(row, DECODERS);

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
