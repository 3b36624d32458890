/** Standard Webhooks: the `standardwebhooks` package's `Webhook.verify`; the key is `webhook-id`. */
import { InvalidOptionsError } from '../../core/errors.js';
import { bodyText, requiredHeader, toDate, WebhookPayloadError, WebhookVerificationError, type WebhookProvider } from '../webhook-event.js';

/** What is used of `new Webhook(secret)` from `standardwebhooks` (it parses the JSON it verified). */
export interface StandardWebhookLike {
  verify(payload: string, headers: Record<string, string>): unknown;
}

export interface StandardWebhooksProviderOptions {
  readonly webhook: StandardWebhookLike;
  /** The sender's account or your endpoint id: the scope. Required — one sender, one namespace. */
  readonly account: string;
  /** Provider name in keys and events. Default `standard-webhooks`; name the sender (`svix`, `resend`). */
  readonly name?: string;
}

/**
 * The Standard Webhooks provider (Svix, Resend, Clerk, …). The `webhook-id` header is the same on
 * every retry of a message; `createdAt` is the payload's `timestamp` (the event time — the
 * `webhook-timestamp` header is the attempt time and changes on every retry).
 * @example import { Webhook } from 'standardwebhooks'; standardWebhooksProvider({ webhook: new Webhook(secret), account: 'acme' })
 */
export function standardWebhooksProvider<P = unknown>({ webhook, account, name = 'standard-webhooks' }: StandardWebhooksProviderOptions): WebhookProvider<P> {
  if (typeof webhook?.verify !== 'function') throw new InvalidOptionsError('Option "webhook" must be new Webhook(secret) from standardwebhooks.');
  if (typeof account !== 'string' || account.length === 0) throw new InvalidOptionsError('Option "account" is required: the scope of this sender.');
  return {
    name,
    async verify(request) {
      const headers = {
        'webhook-id': requiredHeader(request, 'webhook-id'),
        'webhook-timestamp': requiredHeader(request, 'webhook-timestamp'),
        'webhook-signature': requiredHeader(request, 'webhook-signature'),
      };
      const payload = bodyText(request);
      let event: unknown;
      try {
        event = webhook.verify(payload, headers);
      } catch (error) {
        if ((error as Error)?.name === 'WebhookVerificationError' || (error as Error)?.constructor?.name === 'WebhookVerificationError') {
          throw new WebhookVerificationError('The webhook-signature does not verify.', { cause: error });
        }
        throw new WebhookPayloadError('The Standard Webhooks payload could not be read.', { cause: error });
      }
      const body = (event ?? {}) as { type?: unknown; timestamp?: unknown };
      return [
        {
          provider: name,
          id: headers['webhook-id'],
          type: typeof body.type === 'string' ? body.type : 'unknown',
          account,
          createdAt: toDate(body.timestamp),
          payload: event as P,
        },
      ];
    },
  };
}
