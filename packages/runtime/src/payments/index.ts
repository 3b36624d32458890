/**
 * `@idempotency-builder/runtime/payments`: provider keys derived from the local key, retention
 * checks, thin Stripe/Adyen/PayPal integrations (SDK types structural; the SDKs are optional
 * peers) and reconciliation of orphans against the provider.
 */
export * from './provider-keys.js';
export { uuidV5, isUuid } from './uuid-v5.js';
export * from './retention.js';
export type * from './payment-result.js';
export * from './stripe.js';
export { stripeLookup } from './stripe-lookup.js';
export * from './adyen.js';
export * from './paypal.js';
export * from './reconcile.js';
