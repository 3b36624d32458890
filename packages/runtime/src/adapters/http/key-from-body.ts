/**
 * The idempotency key taken from the request body by path (`key: { fromBody: 'order.id' }`), for
 * APIs whose clients already send a unique id in the payload instead of an Idempotency-Key header.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { checkedKey, type ParsedKey } from './key-header.js';
import { problemResponse, type HttpProfile } from './problem.js';
import type { HttpResponse } from './http-response.js';

/** Where the key comes from: the header (default) or a body field by dotted path. */
export interface KeySource {
  /** Dotted path into a JSON or form body, e.g. `order.id`; own properties only. */
  readonly fromBody: string;
}

const PATH = /^[A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*$/;
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Validates a body path once, at creation, and splits it into segments.
 * @example resolveKeySource({ fromBody: 'order.id' }) // ['order', 'id']
 */
export function resolveKeySource(value: unknown): readonly string[] {
  const path = (value as KeySource | null)?.fromBody;
  if (value === null || typeof value !== 'object' || typeof path !== 'string' || !PATH.test(path)) {
    throw new InvalidOptionsError('Option "key" must be { fromBody: "dotted.path" } (letters, digits, _ $ - between dots).');
  }
  const segments = path.split('.');
  if (segments.some((segment) => FORBIDDEN_SEGMENTS.has(segment))) {
    throw new InvalidOptionsError(`Option "key.fromBody" may not walk through ${[...FORBIDDEN_SEGMENTS].join(', ')}.`);
  }
  return segments;
}

/**
 * Reads the key at `segments` from a parsed body. A string or an integer is a key (validated like
 * a header's); absent, null or '' is `missing`; anything else (an object, a float) is `invalid`.
 * @example keyFromBody({ order: { id: 'ord_1' } }, ['order', 'id'], 255) // { kind: 'key', key: 'ord_1' }
 */
export function keyFromBody(body: unknown, segments: readonly string[], maxKeyLength: number): ParsedKey {
  let value: unknown = body;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array || !Object.hasOwn(value, segment)) return { kind: 'missing' };
    value = (value as Record<string, unknown>)[segment];
  }
  if (value === undefined || value === null || value === '') return { kind: 'missing' };
  let key: string;
  if (typeof value === 'string') key = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) key = String(value);
  else return { kind: 'invalid', reason: 'The idempotency key in the body is not a string or an integer.' };
  return checkedKey(key, maxKeyLength);
}

const utf8 = new TextEncoder();

/**
 * The 400 for a body without its key: the `key_required` problem, its title naming the field
 * (configuration, never request data).
 * @example bodyKeyRequired('order.id', 'spec', 'urn:idempotency-builder:problem:').status // 400
 */
export function bodyKeyRequired(path: string, profile: HttpProfile, typeBase: string): HttpResponse {
  const base = problemResponse({ code: 'key_required', profile, typeBase });
  const body = { type: `${typeBase}key_required`, title: `This request needs an idempotency key in its body at "${path}".`, status: base.status, code: 'key_required' };
  return { ...base, body: utf8.encode(JSON.stringify(body)) };
}
