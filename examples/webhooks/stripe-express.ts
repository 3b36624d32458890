/**
 * A Stripe webhook on Express: `express.raw()` keeps the signed bytes, `stripe.webhooks.constructEvent`
 * verifies, the event id dedupes. The script signs events with Stripe's own test helper and sends
 * a delivery, its redelivery and a forgery. Run: npx tsx examples/webhooks/stripe-express.ts
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import Stripe from 'stripe';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createWebhookHandler, expressWebhook, stripeProvider } from '@idempotency-builder/runtime/webhooks';

const secret = process.env.STRIPE_WEBHOOK_SECRET ?? 'whsec_example';
const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? 'sk_test_example');
const idempotency = createIdempotency({ store: createMemoryStore(), ttlMs: 4 * 24 * 3600_000 }); // > Stripe's 3-day retries
let fulfilled = 0;

const webhook = createWebhookHandler({
  idempotency,
  provider: stripeProvider({ stripe, secret }),
  handler: async (event) => {
    fulfilled++;
    console.log(`  handler: ${event.type} ${event.id} created ${event.createdAt?.toISOString()}`);
  },
});

const app = express();
// raw body for this route only; express.json() elsewhere is fine
app.post('/webhooks/stripe', express.raw({ type: 'application/json' }), expressWebhook(webhook));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;

async function deliver(label: string, payload: string, signingSecret = secret) {
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: signingSecret });
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  console.log(`${label}: ${response.status} ${response.headers.get('idempotent-replayed') ? '(replayed) ' : ''}${await response.text()}`);
}

const event = JSON.stringify({ id: 'evt_example_1', object: 'event', type: 'checkout.session.completed', created: 1764748800, data: { object: {} } });
await deliver('delivery   ', event);
await deliver('redelivery ', event);
await deliver('forged     ', event, 'whsec_attacker');
server.close();
console.log(`handler runs: ${fulfilled}`);
if (fulfilled !== 1) process.exit(1);
