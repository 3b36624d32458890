/**
 * Payment providers' native deduplication, and the deterministic derivation of their keys from
 * the local idempotency key. A retry must never mint a fresh provider reference: both layers have
 * to deduplicate the same logical request.
 */
import { createHash } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import { DAY, HOUR } from './durations.js';

export type Provider = 'stripe' | 'adyen' | 'paypal' | 'bank-transfer';

export interface ProviderFacts {
  readonly name: string;
  /** The request header or field that carries the provider-side key. */
  readonly mechanism: string;
  readonly maxKeyLength: number;
  /** How long the provider deduplicates; local retention must be at least this. */
  readonly windowMs: number;
  readonly windowText: string;
}

export const PROVIDER_FACTS: Record<Provider, ProviderFacts> = {
  stripe: {
    name: 'Stripe',
    mechanism: '`Idempotency-Key` request header',
    maxKeyLength: 255,
    windowMs: 24 * HOUR,
    windowText: 'keys are kept for at least 24 hours, then may be pruned; a reused key with different parameters is rejected',
  },
  adyen: {
    name: 'Adyen',
    mechanism: '`Idempotency-Key` request header (max 64 characters) plus the merchant `reference` field (max 80 characters)',
    maxKeyLength: 64,
    windowMs: 31 * DAY,
    windowText: 'keys are valid for at least 31 days after first submission, per company account and per region',
  },
  paypal: {
    name: 'PayPal',
    mechanism: '`PayPal-Request-Id` request header (max 108 characters)',
    maxKeyLength: 108,
    windowMs: 45 * DAY,
    windowText: 'Payments v2 (capture, refund) keeps request ids for 45 days; Orders v2 keeps them for 6 hours (up to 72 hours on request) — we size for the longest',
  },
  'bank-transfer': {
    name: 'Bank transfer',
    mechanism: 'ISO 20022 `EndToEndId` (max 35 characters) in the payment file or API call',
    maxKeyLength: 35,
    windowMs: 35 * DAY,
    windowText: 'banks differ and few promise a window; we keep keys for 35 days, one monthly statement cycle plus settlement lag, so a resubmitted file is still recognised locally',
  },
};

/** Adyen `reference` limit. */
export const ADYEN_REFERENCE_MAX = 80;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const sha256Base64Url = (value: string) => createHash('sha256').update(value).digest('base64url');

/**
 * The namespace for PayPal-Request-Id UUIDv5s. Fixed per service: changing it would change every
 * derived id and defeat PayPal's deduplication for in-flight retries.
 * @example paypalNamespace('payments-api') // 'a stable UUID'
 */
export function paypalNamespace(projectName: string): string {
  return uuidv5(`idempotency-builder:${projectName}`, uuidv5.DNS);
}

/**
 * The provider-side key for one local key (the full `{scope}_{action}_{intent}` string).
 * @example providerKey('stripe', 'usr-7fQ9x_createPayment_4b9e…') // the same string (≤ 255 chars)
 */
export function providerKey(provider: Provider, fullKey: string, namespace: string): string {
  switch (provider) {
    case 'stripe':
      return fullKey.length <= 255 ? fullKey : `sha256-${sha256Hex(fullKey)}`;
    case 'adyen':
      // SHA-256 hex is exactly 64 characters: Adyen's limit, and still deterministic.
      return fullKey.length <= 64 ? fullKey : sha256Hex(fullKey);
    case 'paypal':
      return uuidv5(fullKey, namespace);
    case 'bank-transfer':
      return sha256Hex(fullKey).slice(0, 35);
  }
}

/**
 * Adyen's `reference` for one step: `{key}_{step}` when it fits in 80 characters, otherwise the
 * base64url SHA-256 of the key (43 characters) with the step suffix.
 * @example adyenReference('usr-7fQ9x_refund_4b9e', 1) // 'usr-7fQ9x_refund_4b9e_1'
 */
export function adyenReference(fullKey: string, step: number): string {
  const direct = `${fullKey}_${step}`;
  return direct.length <= ADYEN_REFERENCE_MAX ? direct : `${sha256Base64Url(fullKey)}_${step}`;
}
