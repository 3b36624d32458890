/**
 * Provider idempotency keys derived deterministically from the local (scope, key): a retry can
 * never mint a fresh provider reference, so the provider and the local store dedupe ONE intent
 * (spec §6, "Critical invariant").
 *
 * Derivation (stable across versions — changing it would re-charge every in-flight retry):
 *   material   = key                      when scope is 'global'
 *              = `${scope}:${key}`        otherwise (one provider account serves every user)
 *              + `:${step}`               when a step is given (several provider calls per intent)
 *   fit(m, max) = m                       when m.length <= max and m only has [A-Za-z0-9_.:-]
 *              = `${safe(m).slice(0, max - 45)}~h${base64url(sha256(m))}`   otherwise
 * A fitted value always contains `~`, an untouched one never does, so the two never collide.
 */
import { createHash } from 'node:crypto';
import { InvalidOptionsError } from '../core/errors.js';
import { GLOBAL_SCOPE, validateKey, validateScope } from '../core/key.js';
import { isUuid, uuidV5 } from './uuid-v5.js';

/** Stripe `Idempotency-Key`: at most 255 characters. */
export const STRIPE_KEY_MAX_LENGTH = 255;
/** Adyen `Idempotency-Key` header: at most 64 characters. */
export const ADYEN_KEY_MAX_LENGTH = 64;
/** Adyen `reference` (merchant reference): at most 80 characters. */
export const ADYEN_REFERENCE_MAX_LENGTH = 80;
/**
 * The default UUIDv5 namespace of `PayPal-Request-Id`: UUIDv5('idempotency-builder/paypal-request-id',
 * the RFC 4122 URL namespace). Pass your own (any UUID) to keep ids apart between applications
 * sharing one PayPal account; never change it while records or provider ids are alive.
 */
export const DEFAULT_PAYPAL_NAMESPACE = '97eb7e92-bc53-5706-a4b4-92e00f240ad7';

const SAFE = /^[A-Za-z0-9_.:-]+$/;
const STEP = /^[A-Za-z0-9.-]{1,32}$/;
/** `~h` + 43 base64url characters of SHA-256. */
const HASH_SUFFIX_LENGTH = 45;

/** The local intent a provider key stands for. */
export interface IntentId {
  readonly key: string;
  readonly scope: string;
  /** A sub-operation of the intent (`charge`, `capture`, a saga step): one provider key each. */
  readonly step?: string;
}

function checkStep(step: string): void {
  if (!STEP.test(step)) throw new InvalidOptionsError(`Provider step must match ${STEP}; got ${JSON.stringify(step)}.`);
}

/** The scope-qualified string every provider key is derived from (see the header). */
export function intentMaterial({ key, scope, step }: IntentId): string {
  validateKey(key);
  validateScope(scope);
  if (step !== undefined) checkStep(step);
  const base = scope === GLOBAL_SCOPE ? key : `${scope}:${key}`;
  return step === undefined ? base : `${base}:${step}`;
}

/**
 * `value` itself when it fits `max` and is plain; otherwise a readable prefix plus a SHA-256 of
 * the whole value (the header's `fit`).
 * @example fitProviderKey('a'.repeat(300), 255).length // 255
 */
export function fitProviderKey(value: string, max: number): string {
  if (max < HASH_SUFFIX_LENGTH + 1) throw new InvalidOptionsError(`A provider key limit must be at least ${HASH_SUFFIX_LENGTH + 1}.`);
  if (value.length <= max && SAFE.test(value)) return value;
  const hash = createHash('sha256').update(value, 'utf8').digest('base64url');
  return `${value.replace(/[^A-Za-z0-9_.:-]/g, '-').slice(0, max - HASH_SUFFIX_LENGTH)}~h${hash}`;
}

/**
 * Stripe's `Idempotency-Key` for an intent (≤ 255 chars).
 * @example stripeIdempotencyKey({ key: 'order-7', scope: 'user_42' }) // 'user_42:order-7'
 */
export function stripeIdempotencyKey(intent: IntentId): string {
  return fitProviderKey(intentMaterial(intent), STRIPE_KEY_MAX_LENGTH);
}

/**
 * Adyen's `Idempotency-Key` header for an intent (≤ 64 chars).
 * @example adyenIdempotencyKey({ key: 'order-7', scope: 'user_42', step: 'charge' }) // 'user_42:order-7:charge'
 */
export function adyenIdempotencyKey(intent: IntentId): string {
  return fitProviderKey(intentMaterial(intent), ADYEN_KEY_MAX_LENGTH);
}

/**
 * Adyen's merchant `reference`: `{key}_{step}` (scope-qualified), the step kept readable at the
 * end, within 80 characters.
 * @example adyenReference({ key: 'order-7', scope: 'user_42' }, 'charge') // 'user_42:order-7_charge'
 */
export function adyenReference(intent: Omit<IntentId, 'step'>, step: string): string {
  checkStep(step);
  const base = intentMaterial({ key: intent.key, scope: intent.scope });
  return `${fitProviderKey(base, ADYEN_REFERENCE_MAX_LENGTH - step.length - 1)}_${step}`;
}

/**
 * PayPal's `PayPal-Request-Id`: UUIDv5(namespace, material).
 * @example paypalRequestId({ key: 'order-7', scope: 'user_42' }) // a fixed UUID, the same on every retry
 */
export function paypalRequestId(intent: IntentId, namespace: string = DEFAULT_PAYPAL_NAMESPACE): string {
  if (!isUuid(namespace)) throw new InvalidOptionsError(`PayPal namespace must be a UUID; got ${String(namespace)}.`);
  return uuidV5(intentMaterial(intent), namespace.toLowerCase());
}
