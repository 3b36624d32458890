/** Stripe: `stripe.webhooks.constructEvent` verifies; the key is `event.id`; scope the Connect account. */
import { InvalidOptionsError } from '../../core/errors.js';
import { bodyText, requiredHeader, toDate, WebhookPayloadError, WebhookVerificationError, type WebhookProvider } from '../webhook-event.js';

/** What is used of a `new Stripe(key)` instance (structural: the SDK stays an optional peer). */
export interface StripeLike {
  readonly webhooks: {
    constructEvent(payload: string | Uint8Array, header: string, secret: string, tolerance?: number): StripeEventLike;
  };
}

/** The fields of a Stripe `Event` the runtime reads; the whole event is the payload. */
export interface StripeEventLike {
  readonly id: string;
  readonly type: string;
  readonly created: number;
  readonly account?: string | null;
  readonly livemode?: boolean;
}

export interface StripeProviderOptions {
  readonly stripe: StripeLike;
  /** The endpoint's signing secret, `whsec_…`. */
  readonly secret: string;
  /** Signature timestamp tolerance in seconds (Stripe's default 300). */
  readonly toleranceSeconds?: number;
  /** Scope of platform events (those without `event.account`). Default `stripe`. */
  readonly account?: string;
}

/**
 * The Stripe provider. Needs the raw body: Stripe signs the exact bytes.
 * @example stripeProvider({ stripe: new Stripe(process.env.STRIPE_KEY!), secret: process.env.STRIPE_WEBHOOK_SECRET! })
 */
export function stripeProvider<E extends StripeEventLike = StripeEventLike>({
  stripe,
  secret,
  toleranceSeconds,
  account = 'stripe',
}: StripeProviderOptions): WebhookProvider<E> {
  if (typeof stripe?.webhooks?.constructEvent !== 'function') throw new InvalidOptionsError('Option "stripe" must be a Stripe client (new Stripe(key)).');
  if (typeof secret !== 'string' || secret.length === 0) throw new InvalidOptionsError('Option "secret" must be the endpoint signing secret (whsec_…).');
  return {
    name: 'stripe',
    async verify(request) {
      const header = requiredHeader(request, 'stripe-signature');
      const payload = bodyText(request);
      let event: StripeEventLike;
      try {
        event = stripe.webhooks.constructEvent(payload, header, secret, toleranceSeconds);
      } catch (error) {
        if ((error as { type?: unknown })?.type === 'StripeSignatureVerificationError') {
          throw new WebhookVerificationError('The Stripe-Signature does not verify.', { cause: error });
        }
        throw new WebhookPayloadError('The Stripe event could not be read.', { cause: error });
      }
      if (typeof event?.id !== 'string' || event.id.length === 0) throw new WebhookPayloadError('The Stripe event has no id.');
      return [
        { provider: 'stripe', id: event.id, type: String(event.type), account: event.account ?? account, createdAt: toDate(event.created), payload: event as E },
      ];
    },
  };
}
