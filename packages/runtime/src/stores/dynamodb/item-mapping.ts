/**
 * Between DynamoDB items and records. Attribute names are fixed here; the partition key is
 * `<scope>#<key>` (keys cannot contain `#`, so the split at the last `#` is unambiguous and the
 * scope is part of every item's identity). Times are ms since the epoch (app clock); `ttl` is
 * the native TTL attribute in epoch SECONDS, as DynamoDB requires — the only seconds value.
 */
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../../core/record.js';
import type { DynamoItem } from './document-port.js';

/** Attribute names, in one place (the store builds its expressions from these). */
export const ATTR = {
  pk: 'pk',
  key: 'idempotencyKey',
  scope: 'scope',
  owner: 'ownerId',
  fingerprint: 'fingerprint',
  status: 'status',
  lockVersion: 'lockVersion',
  lockedUntil: 'lockedUntil',
  createdAt: 'createdAt',
  completedAt: 'completedAt',
  expiresAt: 'expiresAt',
  ttl: 'ttl',
  code: 'responseCode',
  headers: 'responseHeaders',
  encoding: 'responseEncoding',
  body: 'responseBody',
  chunks: 'responseChunks',
  chunkOf: 'chunkOf',
  claimToken: 'claimToken',
  finishToken: 'finishToken',
} as const;

/**
 * The partition key of a record.
 * @example partitionKey({ key: 'order-1', scope: 'user-9' }) // 'user-9#order-1'
 */
export const partitionKey = (id: { readonly key: string; readonly scope: string }) => `${id.scope}#${id.key}`;

/** The partition key of one body chunk of a record's response, tied to its lockVersion. */
export const chunkKey = (pk: string, lockVersion: number, index: number) => `${pk}#body#${lockVersion}#${index}`;

const num = (value: unknown) => (value === undefined || value === null ? null : Number(value));

/** The response stored on an item; `body` from chunk items when the body did not fit inline. */
function toResponse(item: DynamoItem, chunkBody: Uint8Array | undefined): StoredResponse | null {
  if (item[ATTR.encoding] === undefined || item[ATTR.encoding] === null) return null;
  const headers = item[ATTR.headers];
  const inline = item[ATTR.body];
  return {
    statusCode: num(item[ATTR.code]),
    headers: typeof headers === 'string' ? (JSON.parse(headers) as Record<string, string>) : null,
    body: chunkBody ?? (inline instanceof Uint8Array ? inline : new Uint8Array(0)),
    encoding: String(item[ATTR.encoding]),
  };
}

/**
 * The record an item holds.
 * @example const record = toDynamoRecord(item);
 */
export function toDynamoRecord(item: DynamoItem, chunkBody?: Uint8Array): IdempotencyRecord {
  return {
    key: String(item[ATTR.key]),
    scope: String(item[ATTR.scope]),
    owner: typeof item[ATTR.owner] === 'string' ? (item[ATTR.owner] as string) : null,
    fingerprint: String(item[ATTR.fingerprint]),
    status: String(item[ATTR.status]) as RecordStatus,
    lockVersion: Number(item[ATTR.lockVersion]),
    lockedUntil: num(item[ATTR.lockedUntil]),
    response: toResponse(item, chunkBody),
    createdAt: Number(item[ATTR.createdAt]),
    completedAt: num(item[ATTR.completedAt]),
    expiresAt: Number(item[ATTR.expiresAt]),
  };
}

/** How many chunk items hold the item's response body (0: inline or none). */
export const chunkCount = (item: DynamoItem) => Number(item[ATTR.chunks] ?? 0);

/**
 * Splits a body into chunks of at most `size` bytes (no copies: views of the same buffer).
 * @example splitBody(new Uint8Array(10), 4).length // 3
 */
export function splitBody(body: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < body.byteLength; offset += size) chunks.push(body.subarray(offset, Math.min(offset + size, body.byteLength)));
  return chunks;
}
