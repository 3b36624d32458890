/**
 * Idempotency keys: validation and builders. A key names one intent and must be stable across
 * retries, so nothing here ever reads a clock — expiry lives in the record (`expiresAt`).
 */
import { createHash, randomUUID } from 'node:crypto';
import { InvalidKeyError, InvalidScopeError } from './errors.js';

/** The spec's hard ceiling (Stripe's header limit is the same). */
export const MAX_KEY_LENGTH = 255;
/** Scopes are ids of users, accounts or tenants; the spec's `user_id VARCHAR(128)`. */
export const MAX_SCOPE_LENGTH = 128;
/** The explicit shared namespace; never a default. */
export const GLOBAL_SCOPE = 'global';

const KEY_CHARSET = /^[A-Za-z0-9_.:~-]+$/;

/**
 * Throws `InvalidKeyError` unless the key is 1..maxLength chars of `[A-Za-z0-9_.:~-]`.
 * @example validateKey('usr_7fQ9x_createOrder_a1b2c3d4') // ok
 */
export function validateKey(key: unknown, maxLength = MAX_KEY_LENGTH): asserts key is string {
  if (typeof key !== 'string' || key.length === 0) {
    throw new InvalidKeyError('The idempotency key is missing or empty.');
  }
  if (key.length > maxLength) {
    throw new InvalidKeyError(`The idempotency key is longer than ${maxLength} characters.`);
  }
  if (!KEY_CHARSET.test(key)) {
    throw new InvalidKeyError('The idempotency key may only contain A-Z, a-z, 0-9 and _ . : ~ -');
  }
}

/** Throws `InvalidScopeError` unless the scope is a non-empty string without control characters. */
export function validateScope(scope: unknown): asserts scope is string {
  if (typeof scope !== 'string' || scope.length === 0) {
    throw new InvalidScopeError('The idempotency scope (user, account or tenant id) is missing.');
  }
  if (scope.length > MAX_SCOPE_LENGTH) {
    throw new InvalidScopeError(`The idempotency scope is longer than ${MAX_SCOPE_LENGTH} characters.`);
  }
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\s]/.test(scope)) {
    throw new InvalidScopeError('The idempotency scope contains whitespace or control characters.');
  }
}

const PART = /^[A-Za-z0-9.:~-]+$/;

function checkPart(name: string, value: string): void {
  // Underscore separates the parts, so a part containing one would make the key ambiguous.
  if (!PART.test(value)) {
    throw new InvalidKeyError(`Key part "${name}" must be non-empty and use only A-Z a-z 0-9 . : ~ -`);
  }
}

/**
 * Builds a key in the spec's `{scope}_{action}_{intent}` format and validates it.
 * @example buildKey({ scope: 'usr-7fQ9x', action: 'createOrder', intent: 'a1b2c3d4' })
 *   // 'usr-7fQ9x_createOrder_a1b2c3d4'
 */
export function buildKey(parts: { scope: string; action: string; intent: string }): string {
  checkPart('scope', parts.scope);
  checkPart('action', parts.action);
  checkPart('intent', parts.intent);
  const key = `${parts.scope}_${parts.action}_${parts.intent}`;
  validateKey(key);
  return key;
}

/**
 * A client-side intent id: a random UUIDv4 (122 random bits — collisions are negligible at any
 * practical volume). Generate it once per user intent and reuse it on every retry.
 * @example const intent = newClientIntent(); // keep it with the form or the outgoing message
 */
export function newClientIntent(): string {
  return randomUUID();
}

/**
 * An intent id derived from the stable fields of the intent (e.g. cart id + items hash), as
 * SHA-256 hex of their unambiguous encoding. Same fields, same id; no clock involved.
 * @example deriveIntent(['cart_42', itemsHash]) // '9c1f…' (64 hex chars)
 */
export function deriveIntent(fields: readonly (string | number | bigint | boolean)[]): string {
  const hash = createHash('sha256');
  for (const field of fields) {
    const text = String(field);
    // Length-prefixing each field keeps ('a|b','c') and ('a','b|c') apart.
    hash.update(`${Buffer.byteLength(text)}:${text};`);
  }
  return hash.digest('hex');
}
