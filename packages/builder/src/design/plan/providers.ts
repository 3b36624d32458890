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
  fitProviderKey,
  intentMaterial,
  PROVIDER_RETENTION_MS,
  paypalRequestId,
  STRIPE_KEY_MAX_LENGTH,
  stripeIdempotencyKey,
} from '@idempotency-builder/runtime/payments';
import { v5 as uuidv5 } from 'uuid';
import { DAY } from './durations.js';

export type Provider = 'stripe' | 'adyen' | 'paypal' | 'braintree' | 'bank-transfer';

export interface ProviderFacts {
  readonly name: string;
  /** The request header or field that carries the provider-side key. */
  readonly mechanism: string;
  readonly maxKeyLength: number;
  /** How long the provider deduplicates; local retention must be at least this. */
  readonly windowMs: number;
  readonly windowText: string;
}

/**
 * Braintree's `orderId` (and `apiRequestKey`) limit, 255 characters. The runtime has no Braintree
 * constant: this is the builder's, used by every language's derivation (project.json).
 */
export const BRAINTREE_ORDER_ID_MAX_LENGTH = 255;

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
  braintree: {
    name: 'Braintree',
    mechanism: '`orderId` on the transaction (max 255 characters), derived from the local key: searchable, and part of duplicate transaction checking; `apiRequestKey` only where Braintree has enabled At-Most-Once Processing',
    maxKeyLength: BRAINTREE_ORDER_ID_MAX_LENGTH,
    windowMs: 30 * DAY,
    windowText: 'for most accounts none: duplicate transaction checking rejects an equal transaction (amount, card, `orderId`) for 30 s by default; At-Most-Once Processing (`apiRequestKey`, selected merchants) answers a repeated key for 30 days, the window we keep',
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
    case 'braintree':
      // Only a sale carries an orderId: the example is the one its fix sends (step `charge`).
      return braintreeOrderId({ ...intent, step: 'charge' });
    case 'bank-transfer':
      return sha256Hex(intentMaterial(intent)).slice(0, 35);
  }
}

/**
 * Braintree's `orderId` for an intent: the runtime's intent material fitted to 255 characters, as
 * the generated `braintreeOrderId` / `braintree_order_id` compute it.
 * @example braintreeOrderId({ key: 'checkout_4b9e', scope: 'usr-7fQ9x', step: 'charge' }) // 'usr-7fQ9x:checkout_4b9e:charge'
 */
export function braintreeOrderId(intent: ProviderIntent & { readonly step?: string }): string {
  return fitProviderKey(intentMaterial(intent), BRAINTREE_ORDER_ID_MAX_LENGTH);
}

/**
 * Adyen's `reference` for one step, by the runtime's derivation (`{scope:key}_{step}`, fitted to 80).
 * @example adyenReference({ key: 'refund_4b9e', scope: 'usr-7fQ9x' }, 1) // 'usr-7fQ9x:refund_4b9e_1'
 */
export function adyenReference(intent: ProviderIntent, step: number): string {
  return runtimeAdyenReference(intent, String(step));
}
