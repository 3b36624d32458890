/**
 * An Adyen standard webhook on Fastify: a Buffer body parser in the route's own context, one
 * HMAC check per NotificationRequestItem with @adyen/api-library, `[accepted]` as the answer.
 * Run: npx tsx examples/webhooks/adyen-fastify.ts
 */
import { hmacValidator } from '@adyen/api-library';
import Fastify from 'fastify';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { adyenProvider, createWebhookHandler, fastifyWebhook, rawBodyParser } from '@idempotency-builder/runtime/webhooks';

const hmacKey = process.env.ADYEN_HMAC_KEY ?? '44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056';
const validator = new hmacValidator();
const idempotency = createIdempotency({ store: createMemoryStore() });
const handled: string[] = [];

const webhook = createWebhookHandler({
  idempotency,
  provider: adyenProvider({ validator, hmacKey }),
  handler: (event) => void handled.push(event.id), // pspReference:eventCode:success
});

const app = Fastify();
await app.register(async (hooks) => {
  rawBodyParser(hooks); // only this plugin context gets Buffers
  hooks.post('/webhooks/adyen', fastifyWebhook(webhook));
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };

function item(pspReference: string, eventCode: string) {
  const notification = {
    amount: { currency: 'EUR', value: 4999 },
    eventCode,
    eventDate: '2026-12-03T09:00:00+01:00',
    merchantAccountCode: 'AcmeECOM',
    merchantReference: `order-${pspReference}`,
    pspReference,
    success: 'true',
    additionalData: {} as Record<string, string>,
  };
  notification.additionalData.hmacSignature = validator.calculateHmac(notification as never, hmacKey);
  return { NotificationRequestItem: notification };
}

async function deliver(label: string, items: ReturnType<typeof item>[]) {
  const response = await fetch(`http://127.0.0.1:${port}/webhooks/adyen`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ live: 'false', notificationItems: items }),
  });
  console.log(`${label}: ${response.status} ${await response.text()}`);
}

await deliver('batch      ', [item('8815329842815468', 'AUTHORISATION'), item('8815329842815468', 'CAPTURE')]);
await deliver('redelivery ', [item('8815329842815468', 'AUTHORISATION'), item('8815329842815468', 'CAPTURE')]);
await app.close();
console.log('handled:', handled);
if (handled.length !== 2) process.exit(1);
