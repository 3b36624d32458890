/** RFC 4122 (RFC 9562 §5.5) name-based UUID version 5, on node:crypto: no ESM-only dependency in the CJS build. */
import { createHash } from 'node:crypto';
import { InvalidOptionsError } from '../core/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in canonical 8-4-4-4-12 hex form (any version). */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * UUIDv5 of `name` (UTF-8) in `namespace`: SHA-1(namespace bytes ‖ name), version 5, RFC variant.
 * Same output as `uuid`'s `v5(name, namespace)`.
 * @example uuidV5('hello', '6ba7b811-9dad-11d1-80b4-00c04fd430c8') // '074171de-bc84-5ea4-b636-1135477620e1'
 */
export function uuidV5(name: string, namespace: string): string {
  if (!isUuid(namespace)) throw new InvalidOptionsError(`UUIDv5 namespace must be a UUID; got ${String(namespace)}.`);
  const digest = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  const bytes = digest.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
