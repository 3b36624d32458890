/**
 * PayPal: verification is an API call (POST /v1/notifications/verify-webhook-signature), so it is
 * an injected verifier; the key is the event id. `createPayPalVerifier` is the real call.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { bodyText, parseJson, requiredHeader, toDate, WebhookPayloadError, WebhookVerificationError, type WebhookProvider } from '../webhook-event.js';

/**
 * The body of PayPal's verify-webhook-signature request. @paypal/paypal-server-sdk 2.5 has no
 * webhooks controller or types, so these mirror the REST API reference field by field.
 */
export interface PayPalVerifyWebhookSignatureRequest {
  readonly auth_algo: string;
  readonly cert_url: string;
  readonly transmission_id: string;
  readonly transmission_sig: string;
  readonly transmission_time: string;
  readonly webhook_id: string;
  readonly webhook_event: unknown;
}

/** True when PayPal answers `verification_status: SUCCESS`. Throwing means "could not ask". */
export type PayPalVerifier = (request: PayPalVerifyWebhookSignatureRequest) => Promise<boolean>;

/** The fields of a PayPal webhook event the runtime reads. */
export interface PayPalEventLike {
  readonly id: string;
  readonly event_type: string;
  readonly create_time?: string;
}

export interface PayPalProviderOptions {
  readonly verify: PayPalVerifier;
  /** The id of the webhook subscription (from the developer dashboard). */
  readonly webhookId: string;
  /** Scope: your PayPal merchant / app. Default `paypal`. */
  readonly account?: string;
}

/**
 * The PayPal provider. A verifier that cannot reach PayPal makes the delivery fail with 500
 * (`handler_failed`) so PayPal redelivers; a FAILURE answer is a 400.
 * @example paypalProvider({ verify: createPayPalVerifier({ clientId, clientSecret }), webhookId: process.env.PAYPAL_WEBHOOK_ID! })
 */
export function paypalProvider<E extends PayPalEventLike = PayPalEventLike>({ verify, webhookId, account = 'paypal' }: PayPalProviderOptions): WebhookProvider<E> {
  if (typeof verify !== 'function') throw new InvalidOptionsError('Option "verify" must be a PayPal verifier such as createPayPalVerifier({...}).');
  if (typeof webhookId !== 'string' || webhookId.length === 0) throw new InvalidOptionsError('Option "webhookId" is required.');
  return {
    name: 'paypal',
    async verify(request) {
      const signed = {
        auth_algo: requiredHeader(request, 'paypal-auth-algo'),
        cert_url: requiredHeader(request, 'paypal-cert-url'),
        transmission_id: requiredHeader(request, 'paypal-transmission-id'),
        transmission_sig: requiredHeader(request, 'paypal-transmission-sig'),
        transmission_time: requiredHeader(request, 'paypal-transmission-time'),
      };
      const event = parseJson(bodyText(request)) as E;
      if (!(await verify({ ...signed, webhook_id: webhookId, webhook_event: event }))) {
        throw new WebhookVerificationError('PayPal did not verify the webhook signature.');
      }
      if (typeof event?.id !== 'string' || event.id.length === 0) throw new WebhookPayloadError('The PayPal event has no id.');
      return [{ provider: 'paypal', id: event.id, type: String(event.event_type), account, createdAt: toDate(event.create_time), payload: event }];
    },
  };
}
