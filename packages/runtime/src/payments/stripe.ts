/**
 * Stripe through its own SDK (stripe ≥ 23), inside a protected action: the local record and the
 * PaymentIntent share one intent — the derived `Idempotency-Key` — and the local key rides in
 * metadata so reconciliation can find the charge. The SDK type stays structural (`StripeLike`).
 */
import type { Idempotency, RunRequest } from '../core/engine.js';
import type { PaymentOutcome, PaymentResult } from './payment-result.js';
import { stripeIdempotencyKey } from './provider-keys.js';
import { assertRetention, type RetentionOverride } from './retention.js';

/** Metadata fields carrying the local intent on the PaymentIntent (searchable in Stripe). */
export const STRIPE_METADATA_KEY = 'idempotency_key';
export const STRIPE_METADATA_SCOPE = 'idempotency_scope';

export interface StripeResponseLike {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface StripePaymentIntentLike {
  readonly id: string;
  readonly status: string;
  readonly amount: number;
  readonly currency: string;
  readonly metadata?: Readonly<Record<string, string>> | null;
  /** Set by the SDK on every returned object: the raw response's headers. */
  readonly lastResponse?: StripeResponseLike;
}

/** The part of a `Stripe` client this module calls. */
export interface StripeLike {
  readonly paymentIntents: {
    create(params: never, options?: { idempotencyKey?: string }): Promise<StripePaymentIntentLike>;
    search(params: { query: string; limit?: number }): Promise<{ readonly data: readonly StripePaymentIntentLike[] }>;
  };
}

export interface StripePaymentsOptions {
  readonly stripe: StripeLike;
  readonly idempotency: Idempotency;
  /** Accept a local ttlMs shorter than Stripe's 24 h, with the reason why. */
  readonly retentionOverride?: RetentionOverride;
}

export interface StripePayments {
  /**
   * Creates (and, with `confirm: true`, charges) a PaymentIntent at most once per local intent.
   * @example
   * const { payment } = await payments.createPaymentIntent(
   *   { key, scope: user.id, fingerprint: fingerprintFields([4200, 'eur', cartId]) },
   *   { amount: 4200, currency: 'eur', payment_method: 'pm_card_visa', confirm: true },
   * );
   */
  createPaymentIntent(request: RunRequest, params: Readonly<Record<string, unknown>>): Promise<PaymentOutcome>;
}

/**
 * An `isPermanent` for the engine: a declined card (`StripeCardError`) or a request Stripe rejects
 * as invalid is final — stored and replayed; connection errors, 5xx, 409 (key in use) and 429 are
 * transient — the claim is released and a retry sends the same key again.
 * @example createIdempotency({ store, isPermanent: isPermanentStripeError })
 */
export function isPermanentStripeError(error: unknown): boolean {
  const { type, statusCode } = (error ?? {}) as { type?: unknown; statusCode?: unknown };
  if (type === 'StripeCardError') return true;
  return type === 'StripeInvalidRequestError' && statusCode !== 409 && statusCode !== 429;
}

/** True when the SDK's raw response says Stripe answered from its idempotency cache. */
export function isStripeReplay(intent: StripePaymentIntentLike): boolean {
  const value = intent.lastResponse?.headers?.['idempotent-replayed'];
  return (Array.isArray(value) ? value[0] : value) === 'true';
}

/** The stored value of a PaymentIntent. */
export function stripePaymentResult(intent: StripePaymentIntentLike, providerKey: string, providerReplayed: boolean): PaymentResult {
  return { provider: 'stripe', id: intent.id, status: intent.status, amount: intent.amount, currency: intent.currency, providerKey, providerReplayed };
}

/**
 * Binds Stripe to an engine. Refuses (InvalidOptionsError) an engine whose ttlMs is under 24 h
 * unless `retentionOverride` says why.
 * @example
 * import Stripe from 'stripe';
 * const payments = createStripePayments({ stripe: new Stripe(process.env.STRIPE_KEY!), idempotency });
 */
export function createStripePayments({ stripe, idempotency, retentionOverride }: StripePaymentsOptions): StripePayments {
  assertRetention('stripe', idempotency.options.ttlMs, retentionOverride);
  return {
    async createPaymentIntent(request, params) {
      const providerKey = stripeIdempotencyKey(request);
      const metadata = { ...((params.metadata as Record<string, string> | undefined) ?? {}), [STRIPE_METADATA_KEY]: request.key, [STRIPE_METADATA_SCOPE]: request.scope };
      const { value, replayed } = await idempotency.run<PaymentResult>(request, async () => {
        // The same derived key on every attempt: a timed-out first call is answered by Stripe's cache, not charged twice.
        const intent = await stripe.paymentIntents.create({ ...params, metadata } as never, { idempotencyKey: providerKey });
        return stripePaymentResult(intent, providerKey, isStripeReplay(intent));
      });
      return { payment: value, replayed };
    },
  };
}
