/**
 * A checkout saga on SQLite: reserve inventory → charge with Stripe's SDK (against a local fake)
 * → confirm the order. Shows a completed order replayed on retry, and a declined card rolled back
 * (the reservation released once), with the stored state machine after each.
 * Run: npx tsx examples/checkout/checkout.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { createIdempotency, fingerprintFields } from '@idempotency-builder/runtime';
import { isPermanentStripeError, stripeIdempotencyKey } from '@idempotency-builder/runtime/payments';
import { defineSaga } from '@idempotency-builder/runtime/saga';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { startFakeStripe } from './fake-stripe.js';
import { openShop } from './shop.js';

interface Checkout {
  readonly orderId: string;
  readonly sku: string;
  readonly amount: number;
  readonly paymentMethod: string;
}

const dir = mkdtempSync(join(tmpdir(), 'checkout-example-'));
const fake = await startFakeStripe();
const stripe = new Stripe('sk_test_example', { host: '127.0.0.1', port: fake.port, protocol: 'http', maxNetworkRetries: 2 });
const shop = openShop(join(dir, 'shop.db'));
const store = createSqliteStore({ filename: join(dir, 'shop.db') });
// A declined card is final (stored, replayed, compensated); a network error is not (released, retried).
const idempotency = createIdempotency({ store, leaseMs: 10_000, isPermanent: isPermanentStripeError });

const checkout = defineSaga<Checkout>(
  'checkout',
  [
    {
      name: 'reserve',
      run: ({ input }) => shop.reserve(input.orderId, input.sku, 1),
      compensate: ({ result }) => shop.release((result as { reservationId: string }).reservationId),
    },
    {
      name: 'charge',
      // The step's sub-key `{key}:charge` gives the Stripe key: a resumed saga re-sends the same one.
      run: async ({ input, key, scope }) => {
        const intent = await stripe.paymentIntents.create(
          { amount: input.amount, currency: 'eur', payment_method: input.paymentMethod, confirm: true, metadata: { idempotency_key: key, idempotency_scope: scope } },
          { idempotencyKey: stripeIdempotencyKey({ key, scope }) },
        );
        return { paymentId: intent.id, status: intent.status };
      },
    },
    {
      name: 'confirm',
      run: ({ input, results }) => shop.confirm(input.orderId, (results.charge as { paymentId: string }).paymentId),
    },
  ],
  { idempotency },
);

async function order(orderId: string, paymentMethod: string) {
  const input: Checkout = { orderId, sku: 'sku-42', amount: 4200, paymentMethod };
  const request = { key: `checkout-${orderId}`, scope: 'user_42', fingerprint: fingerprintFields([orderId, input.sku, input.amount, paymentMethod]) };
  const outcome = await checkout.run(request, input);
  const status = await checkout.status(request.key, request.scope);
  console.log(`${orderId}: ${outcome.state}${outcome.replayed ? ' (replayed)' : ''} — stored state ${status?.state}, stock now ${shop.stock('sku-42')}`);
  return outcome;
}

try {
  await order('order-1', 'pm_card_visa');
  await order('order-1', 'pm_card_visa'); // the client retries: replayed, nothing runs again
  const declined = await order('order-2', 'pm_card_chargeDeclined');
  if (declined.state === 'ROLLED_BACK') console.log(`order-2 failed at "${declined.failedStep}": ${declined.error.message}; reservation released`);
  await order('order-2', 'pm_card_chargeDeclined'); // retry: ROLLED_BACK replayed
  console.log(`Stripe charges: ${fake.charges.length} (one per successful order), stock ${shop.stock('sku-42')} of 10`);
} finally {
  await store.close();
  shop.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
}
