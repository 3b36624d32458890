/** Reconciliation's question to Stripe: which PaymentIntents carry this local intent in their metadata? */
import type { IdempotencyRecord } from '../core/record.js';
import type { ProviderLookup } from './reconcile.js';
import type { PaymentResult } from './payment-result.js';
import { stripeIdempotencyKey } from './provider-keys.js';
import { STRIPE_METADATA_KEY, STRIPE_METADATA_SCOPE, stripePaymentResult, type StripeLike } from './stripe.js';

/** Stripe search query syntax: a string value in single quotes, `'` and `\` escaped. */
const quote = (value: string) => `'${value.replace(/[\\']/g, '\\$&')}'`;

/**
 * A `lookup` for `reconcile()`: searches PaymentIntents by the metadata `createStripePayments`
 * writes. Stripe's search index lags writes by up to about a minute, so reconcile only records
 * whose lease ended well before (the default `olderThanMs` is 2 minutes). Canceled intents do
 * not count as charges.
 * @example await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe) });
 */
export function stripeLookup(stripe: StripeLike): ProviderLookup<PaymentResult> {
  return async (record: IdempotencyRecord) => {
    const query = `metadata[${quote(STRIPE_METADATA_KEY)}]:${quote(record.key)} AND metadata[${quote(STRIPE_METADATA_SCOPE)}]:${quote(record.scope)}`;
    const page = await stripe.paymentIntents.search({ query, limit: 10 });
    // Search matches loosely; only an exact metadata match is this intent.
    const found = page.data.filter(
      (intent) => intent.metadata?.[STRIPE_METADATA_KEY] === record.key && intent.metadata?.[STRIPE_METADATA_SCOPE] === record.scope && intent.status !== 'canceled',
    );
    const providerKey = stripeIdempotencyKey(record);
    const results = found.map((intent) => ({ ...stripePaymentResult(intent, providerKey, false), reconciled: true }));
    if (results.length === 0) return { outcome: 'not_found' };
    if (results.length === 1) return { outcome: 'found', result: results[0]! };
    return { outcome: 'split_brain', results };
  };
}
