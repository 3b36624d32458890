/**
 * Adyen standard webhooks: each NotificationRequestItem is verified with @adyen/api-library's
 * `HmacValidator`; the key per item is `pspReference:eventCode:success`; the answer is `[accepted]`.
 */
import { timingSafeEqual } from 'node:crypto';
import { InvalidOptionsError } from '../../core/errors.js';
import { bodyText, parseJson, toDate, WebhookPayloadError, WebhookVerificationError, type WebhookProvider } from '../webhook-event.js';

/** The fields of an Adyen `NotificationRequestItem` the runtime reads (the SDK's class fits). */
export interface AdyenNotificationItemLike {
  readonly pspReference: string;
  readonly eventCode: string;
  readonly success: string;
  readonly merchantAccountCode: string;
  readonly eventDate?: string;
  readonly additionalData?: Readonly<Record<string, string | undefined>>;
}

/** What is used of `new hmacValidator()` from `@adyen/api-library`. */
export interface AdyenHmacValidatorLike {
  validateHMAC(item: never, key: string): boolean;
}

export interface AdyenProviderOptions {
  readonly validator: AdyenHmacValidatorLike;
  /** The HMAC key (hex) from the Customer Area webhook settings. */
  readonly hmacKey: string;
  /** Optional Basic authentication the webhook is configured with; checked before the HMAC. */
  readonly basicAuth?: { readonly username: string; readonly password: string };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The Adyen provider. One delivery carries a batch of items: all are verified before any runs,
 * and a delivery is answered `[accepted]` only when every item was processed (or already was).
 * @example import { hmacValidator } from '@adyen/api-library'; adyenProvider({ validator: new hmacValidator(), hmacKey })
 */
export function adyenProvider<I extends AdyenNotificationItemLike = AdyenNotificationItemLike>({
  validator,
  hmacKey,
  basicAuth,
}: AdyenProviderOptions): WebhookProvider<I> {
  if (typeof validator?.validateHMAC !== 'function') throw new InvalidOptionsError('Option "validator" must be new hmacValidator() from @adyen/api-library.');
  if (typeof hmacKey !== 'string' || !/^[0-9a-fA-F]+$/.test(hmacKey)) throw new InvalidOptionsError('Option "hmacKey" must be the hex HMAC key.');
  const expectedAuth = basicAuth ? `Basic ${Buffer.from(`${basicAuth.username}:${basicAuth.password}`).toString('base64')}` : undefined;
  return {
    name: 'adyen',
    accepted: { contentType: 'text/plain', body: '[accepted]' },
    async verify(request) {
      if (expectedAuth !== undefined && !sameText(request.headers.authorization ?? '', expectedAuth)) {
        throw new WebhookVerificationError('The Basic authentication does not match.');
      }
      const body = parseJson(bodyText(request)) as { notificationItems?: { NotificationRequestItem?: I }[] };
      const wrapped = body?.notificationItems;
      if (!Array.isArray(wrapped) || wrapped.length === 0) throw new WebhookPayloadError('The Adyen notification has no notificationItems.');
      const items = wrapped.map((entry) => entry?.NotificationRequestItem);
      for (const item of items) {
        if (!item || typeof item.pspReference !== 'string' || typeof item.eventCode !== 'string') {
          throw new WebhookPayloadError('An Adyen notification item lacks pspReference or eventCode.');
        }
        let valid: boolean;
        try {
          valid = validator.validateHMAC(item as never, hmacKey);
        } catch (error) {
          throw new WebhookVerificationError('An Adyen notification item has no hmacSignature.', { cause: error });
        }
        if (!valid) throw new WebhookVerificationError('An Adyen notification item has an invalid hmacSignature.');
      }
      return (items as I[]).map((item) => ({
        provider: 'adyen',
        id: `${item.pspReference}:${item.eventCode}:${item.success}`,
        type: item.eventCode,
        account: item.merchantAccountCode,
        createdAt: toDate(item.eventDate),
        payload: item,
      }));
    },
  };
}
