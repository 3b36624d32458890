/**
 * Payment providers' native deduplication, and the deterministic derivation of their keys from
 * the local idempotency key. A retry must never mint a fresh provider reference: both layers have
 * to deduplicate the same logical request.
 */
import { createHash } from 'node:crypto';
import {
  ADYEN_KEY_MAX_LENGTH,
  ADYEN_REFERENCE_MAX_LENGTH,
  adyenIdempotencyKey,
  adyenReference as runtimeAdyenReference,
  intentMaterial,
  PROVIDER_RETENTION_MS,
  paypalRequestId,
  STRIPE_KEY_MAX_LENGTH,
  stripeIdempotencyKey,
} from '@idempotency-builder/runtime/payments';
import { v5 as uuidv5 } from 'uuid';
import { DAY } from './durations.js';

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
    maxKeyLength: STRIPE_KEY_MAX_LENGTH,
    windowMs: PROVIDER_RETENTION_MS.stripe,
    windowText: 'keys are kept for at least 24 hours, then may be pruned; a reused key with different parameters is rejected',
  },
  adyen: {
    name: 'Adyen',
    mechanism: '`Idempotency-Key` request header (max 64 characters) plus the merchant `reference` field (max 80 characters)',
    maxKeyLength: ADYEN_KEY_MAX_LENGTH,
    windowMs: PROVIDER_RETENTION_MS.adyen,
    windowText: 'keys are valid for at least 31 days after first submission, per company account and per region',
  },
  paypal: {
    name: 'PayPal',
    mechanism: '`PayPal-Request-Id` request header (max 108 characters)',
    maxKeyLength: 108,
    windowMs: Math.max(PROVIDER_RETENTION_MS.paypalPayments, PROVIDER_RETENTION_MS.paypalOrders),
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
export const ADYEN_REFERENCE_MAX = ADYEN_REFERENCE_MAX_LENGTH;

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The namespace for PayPal-Request-Id UUIDv5s. Fixed per service: changing it would change every
 * derived id and defeat PayPal's deduplication for in-flight retries.
 * @example paypalNamespace('payments-api') // 'a stable UUID'
 */
export function paypalNamespace(projectName: string): string {
  return uuidv5(`idempotency-builder:${projectName}`, uuidv5.DNS);
}

/** The local intent a provider key stands for: the stored key within its scope. */
export interface ProviderIntent {
  readonly key: string;
  readonly scope: string;
}

/**
 * The provider-side key for one local intent, by the runtime's own derivation
 * (`@idempotency-builder/runtime/payments`), so the document shows what the generated code sends.
 * Bank transfers, which the runtime does not cover, take the first 35 hex characters of SHA-256.
 * @example providerKey('stripe', { key: 'createPayment_4b9e…', scope: 'usr-7fQ9x' }, ns) // 'usr-7fQ9x:createPayment_4b9e…'
 */
export function providerKey(provider: Provider, intent: ProviderIntent, namespace: string): string {
  switch (provider) {
    case 'stripe':
      return stripeIdempotencyKey(intent);
    case 'adyen':
      return adyenIdempotencyKey(intent);
    case 'paypal':
      return paypalRequestId(intent, namespace);
    case 'bank-transfer':
      return sha256Hex(intentMaterial(intent)).slice(0, 35);
  }
}

/**
 * Adyen's `reference` for one step, by the runtime's derivation (`{scope:key}_{step}`, fitted to 80).
 * @example adyenReference({ key: 'refund_4b9e', scope: 'usr-7fQ9x' }, 1) // 'usr-7fQ9x:refund_4b9e_1'
 */
export function adyenReference(intent: ProviderIntent, step: number): string {
  return runtimeAdyenReference(intent, String(step));
}
