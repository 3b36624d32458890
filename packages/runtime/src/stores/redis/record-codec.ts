/**
 * The record as a Redis hash: its field names, and the decoding of replies (bytes, strings or
 * numbers, depending on the client and protocol) back into an `IdempotencyRecord`.
 */
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../../core/record.js';
import type { RedisReply } from './client-port.js';

/**
 * Hash fields in the order the claim script and `get` read them (HMGET, so RESP3 map replies
 * never arise): key, scope, owner, fingerprint, status, lockVersion, lockedUntil, createdAt,
 * completedAt, expiresAt, statusCode, headers (JSON), encoding, body (bytes).
 */
export const RECORD_FIELDS = ['k', 'sp', 'o', 'fp', 's', 'v', 'lu', 'ca', 'cpa', 'ea', 'sc', 'hd', 'en', 'b'] as const;

const utf8 = new TextDecoder();
const STATUSES: readonly RecordStatus[] = ['PROCESSING', 'COMPLETED', 'FAILED'];

/** A reply as text: bytes are UTF-8 decoded, numbers printed, nil stays null. */
export function replyText(reply: RedisReply | undefined): string | null {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string') return reply;
  if (typeof reply === 'number') return String(reply);
  if (reply instanceof Uint8Array) return utf8.decode(reply);
  throw new TypeError('Expected a Redis string reply, got an array.');
}

/** A reply as an integer (clients may hand integers over as numbers or, with stringNumbers, as text). */
export function replyNumber(reply: RedisReply | undefined): number {
  const value = typeof reply === 'number' ? reply : Number(replyText(reply));
  if (!Number.isFinite(value)) throw new TypeError(`Expected a number from Redis, got ${String(replyText(reply))}.`);
  return value;
}

/** A reply as an array; anything else is a protocol surprise. */
export function replyArray(reply: RedisReply | undefined): readonly RedisReply[] {
  if (!Array.isArray(reply)) throw new TypeError('Expected an array reply from Redis.');
  return reply as readonly RedisReply[];
}

const optionalNumber = (reply: RedisReply | undefined) => (reply === null || reply === undefined ? null : replyNumber(reply));

/** Copies the body out of the client's read buffer: a slice of it would pin (and expose) the rest. */
function bodyBytes(reply: RedisReply | undefined): Uint8Array {
  if (reply instanceof Uint8Array) return new Uint8Array(reply);
  if (typeof reply === 'string') return new TextEncoder().encode(reply); // only a misconfigured client returns text
  return new Uint8Array(0);
}

/**
 * Decodes the HMGET values of `RECORD_FIELDS`; null when the hash does not exist.
 * @example decodeRecord(replyArray(await hmget(...RECORD_FIELDS)))
 */
export function decodeRecord(values: readonly RedisReply[]): IdempotencyRecord | null {
  const field = (name: (typeof RECORD_FIELDS)[number]) => values[RECORD_FIELDS.indexOf(name)];
  const status = replyText(field('s'));
  if (status === null) return null;
  if (!STATUSES.includes(status as RecordStatus)) throw new TypeError(`Unknown record status "${status}" in Redis.`);
  const encoding = replyText(field('en'));
  const headers = replyText(field('hd'));
  const response: StoredResponse | null =
    encoding === null
      ? null
      : {
          statusCode: optionalNumber(field('sc')),
          headers: headers === null ? null : (JSON.parse(headers) as Record<string, string>),
          body: bodyBytes(field('b')),
          encoding,
        };
  return {
    key: replyText(field('k')) ?? '',
    scope: replyText(field('sp')) ?? '',
    owner: replyText(field('o')),
    fingerprint: replyText(field('fp')) ?? '',
    status: status as RecordStatus,
    lockVersion: replyNumber(field('v')),
    lockedUntil: optionalNumber(field('lu')),
    response,
    createdAt: replyNumber(field('ca')),
    completedAt: optionalNumber(field('cpa')),
    expiresAt: replyNumber(field('ea')),
  };
}
