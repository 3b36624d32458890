/** Shared test fixtures: an engine on the memory store, a counting handler, and signed deliveries. */
import { sign as octokitSign } from '@octokit/webhooks-methods';
import { hmacValidator } from '@adyen/api-library';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import type { WebhookEvent, WebhookRequest } from '../../src/webhooks/index.js';

export const STRIPE_SECRET = 'whsec_test_secret';
export const ADYEN_HMAC_KEY = '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
export const STANDARD_SECRET = `whsec_${Buffer.from('standard-webhooks-test-secret-32b').toString('base64')}`;
export const GITHUB_SECRET = 'It\'s a Secret to Everybody';

export const stripe = new Stripe('sk_test_not_used_for_network');
export const adyenValidator = new hmacValidator();
export const standardWebhook = new Webhook(STANDARD_SECRET);

export function engine(options: { leaseMs?: number } = {}) {
  const store = createMemoryStore();
  return { store, idempotency: createIdempotency({ store, leaseMs: options.leaseMs ?? 2_000 }) };
}

/** Counts handler runs per event id and keeps the order they ran in. */
export function countingHandler(delayMs = 0) {
  const runs = new Map<string, number>();
  const order: string[] = [];
  let gate: Promise<void> | undefined;
  let open: (() => void) | undefined;
  return {
    runs,
    order,
    total: () => [...runs.values()].reduce((sum, n) => sum + n, 0),
    /** Holds every run started from now on until `release()`. */
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open?.(),
    handler: async (event: WebhookEvent) => {
      runs.set(event.id, (runs.get(event.id) ?? 0) + 1);
      order.push(event.id);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (gate) await gate;
    },
  };
}

const utf8 = new TextEncoder();
const request = (body: string, headers: Record<string, string>): WebhookRequest => ({ rawBody: utf8.encode(body), headers });

export function stripeDelivery(id: string, created: number, extra: Record<string, unknown> = {}, secret = STRIPE_SECRET) {
  const body = JSON.stringify({ id, object: 'event', type: 'payment_intent.succeeded', created, data: { object: { id: `pi_${id}` } }, ...extra });
  return request(body, { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret }) });
}

export function adyenItem(psp: string, eventCode: string, success = 'true', eventDate = '2026-12-01T10:00:00+01:00', key = ADYEN_HMAC_KEY) {
  const item = {
    amount: { currency: 'EUR', value: 4999 },
    eventCode,
    eventDate,
    merchantAccountCode: 'AcmeECOM',
    merchantReference: `order-${psp}`,
    pspReference: psp,
    success,
    additionalData: {} as Record<string, string>,
  };
  item.additionalData.hmacSignature = adyenValidator.calculateHmac(item as never, key);
  return item;
}

export function adyenDelivery(items: ReturnType<typeof adyenItem>[]) {
  const body = JSON.stringify({ live: 'false', notificationItems: items.map((NotificationRequestItem) => ({ NotificationRequestItem })) });
  return request(body, { 'content-type': 'application/json' });
}

export function standardDelivery(msgId: string, timestamp: string, signer = standardWebhook) {
  const body = JSON.stringify({ type: 'invoice.paid', timestamp, data: { invoice: msgId } });
  const now = new Date();
  return request(body, {
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signer.sign(msgId, now, body),
  });
}

export async function githubDelivery(delivery: string, event = 'push', secret = GITHUB_SECRET) {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: delivery });
  return request(body, {
    'x-github-delivery': delivery,
    'x-github-event': event,
    'x-hub-signature-256': await octokitSign(secret, body),
    'x-github-hook-installation-target-id': '42',
    'x-github-hook-installation-target-type': 'repository',
  });
}

export function paypalDelivery(id: string, createTime: string, signature = 'valid-signature') {
  const body = JSON.stringify({ id, event_type: 'PAYMENT.CAPTURE.COMPLETED', create_time: createTime, resource: { id: `cap-${id}` } });
  return request(body, {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42',
    'paypal-transmission-id': `tx-${Math.random().toString(16).slice(2)}`,
    'paypal-transmission-sig': signature,
    'paypal-transmission-time': new Date().toISOString(),
  });
}

export const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
