// The three integrations through the REAL SDKs (stripe 23, @adyen/api-library 32,
// @paypal/paypal-server-sdk 2.5) against the fake provider: every attempt of one intent carries the
// same derived key, a timed-out Stripe call retried later is answered by Stripe's cache (recognised
// from `Idempotent-Replayed`, completed locally with it) and charges once.
import { CheckoutAPI, Client as AdyenClient } from '@adyen/api-library';
import { Client as PayPalClient, Environment, OrdersController } from '@paypal/paypal-server-sdk';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createAdyenPayments } from '../../src/payments/adyen.js';
import { createPayPalPayments } from '../../src/payments/paypal.js';
import { adyenIdempotencyKey, adyenReference, paypalRequestId, stripeIdempotencyKey } from '../../src/payments/provider-keys.js';
import { createStripePayments } from '../../src/payments/stripe.js';
import { startFakeProvider, type FakeProvider } from './support/fake-provider.js';

let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());

/** The real Stripe SDK pointed at the fake: host/port/protocol are its documented options. */
export const stripeAt = (port: number, timeout = 2_000) =>
  new Stripe('sk_test_fake', { host: '127.0.0.1', port, protocol: 'http', timeout, maxNetworkRetries: 0 });

describe('stripe', () => {
  it('a retry after a client timeout sends the same Idempotency-Key; Stripe replays, the local record completes with it, one charge', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore(), leaseMs: 5_000 });
    const payments = createStripePayments({ stripe: stripeAt(fake.port, 300), idempotency });
    const request = { key: 'order-timeout-1', scope: 'user_42', fingerprint: fingerprintFields([4200, 'eur']) };
    fake.delayNextStripeCreates(1, 1_000);
    const before = fake.charges.length;

    await expect(payments.createPaymentIntent(request, { amount: 4200, currency: 'eur' })).rejects.toThrow();
    const second = await payments.createPaymentIntent(request, { amount: 4200, currency: 'eur' });
    const third = await payments.createPaymentIntent(request, { amount: 4200, currency: 'eur' });

    const sent = fake.requests.filter((r) => r.provider === 'stripe' && r.idempotencyKey === stripeIdempotencyKey(request));
    expect(sent).toHaveLength(2); // the timed-out attempt and the retry; the third was answered locally
    expect(fake.charges.length - before).toBe(1);
    expect(second).toMatchObject({ replayed: false, payment: { provider: 'stripe', providerReplayed: true, amount: 4200, currency: 'eur' } });
    expect(second.payment.id).toBe(fake.charges.at(-1)!.id);
    expect(third).toEqual({ ...second, replayed: true });
    expect(fake.charges.at(-1)!.metadata).toEqual({ idempotency_key: request.key, idempotency_scope: request.scope });
  });

  it('two intents of two users with the same key are two charges with two provider keys', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    const payments = createStripePayments({ stripe: stripeAt(fake.port), idempotency });
    const fp = fingerprintFields([100, 'usd']);
    const a = await payments.createPaymentIntent({ key: 'shared-key', scope: 'user_a', fingerprint: fp }, { amount: 100, currency: 'usd' });
    const b = await payments.createPaymentIntent({ key: 'shared-key', scope: 'user_b', fingerprint: fp }, { amount: 100, currency: 'usd' });
    expect(a.payment.id).not.toBe(b.payment.id);
    expect(a.payment.providerKey).not.toBe(b.payment.providerKey);
    expect(a.payment.providerReplayed).toBe(false);
  });
});

describe('adyen', () => {
  it('every attempt carries reference {key}_{step} and the derived Idempotency-Key; one payment', async () => {
    // `certificatePath` is the SDK's pinned-certificate option (https only); the fake's cert fits its CN check.
    const client = new AdyenClient({ apiKey: 'fake', environment: 'TEST' as never, certificatePath: fake.certificatePath });
    const api = new CheckoutAPI(client).PaymentsApi;
    // The SDK builds its URL from a fixed base; the field is private in its types but plain at runtime.
    (api as unknown as { baseUrl: string }).baseUrl = `https://127.0.0.1:${fake.tlsPort}/v72`;
    const idempotency = createIdempotency({ store: createMemoryStore(), ttlMs: 31 * 24 * 3600 * 1000 });
    const adyen = createAdyenPayments({ payments: api, idempotency });
    const request = { key: 'order-adyen-1', scope: 'shopper_9', fingerprint: fingerprintFields([990, 'EUR']) };
    const body = { amount: { value: 990, currency: 'EUR' }, merchantAccount: 'TestMerchant', paymentMethod: { type: 'scheme' } };
    const before = fake.charges.length;

    const first = await adyen.makePayment(request, body);
    // A second engine (another process, no local record) retrying the same intent: the provider dedupes it.
    const other = createAdyenPayments({ payments: api, idempotency: createIdempotency({ store: createMemoryStore(), ttlMs: 31 * 24 * 3600 * 1000 }) });
    const again = await other.makePayment(request, body);

    const sent = fake.requests.filter((r) => r.provider === 'adyen');
    expect(sent.slice(-2).map((r) => [r.idempotencyKey, r.reference])).toEqual([
      [adyenIdempotencyKey({ ...request, step: 'charge' }), adyenReference(request, 'charge')],
      [adyenIdempotencyKey({ ...request, step: 'charge' }), adyenReference(request, 'charge')],
    ]);
    expect(fake.charges.length - before).toBe(1);
    expect(again.payment.id).toBe(first.payment.id);
    expect(first.payment).toMatchObject({ provider: 'adyen', status: 'Authorised', amount: 990, currency: 'EUR' });
  });
});

describe('paypal', () => {
  it('every attempt carries PayPal-Request-Id = UUIDv5(namespace, intent); one order', async () => {
    // The SDK has no base-URL option: its public `httpsAgent` option carries an agent that connects
    // to the fake's TLS port (the certificate is valid for api-m.sandbox.paypal.com).
    const client = new PayPalClient({
      environment: Environment.Sandbox,
      clientCredentialsAuthCredentials: { oAuthClientId: 'id', oAuthClientSecret: 'secret' },
      timeout: 5_000,
      httpClientOptions: { httpsAgent: fake.redirectingAgent },
    });
    const orders = new OrdersController(client);
    const ttlMs = 6 * 3600 * 1000;
    const request = { key: 'order-pp-1', scope: 'buyer_3', fingerprint: fingerprintFields([12.5, 'USD']) };
    const body = { intent: 'CAPTURE', purchaseUnits: [{ amount: { currencyCode: 'USD', value: '12.50' } }] };
    const before = fake.charges.length;

    const first = await createPayPalPayments({ orders, idempotency: createIdempotency({ store: createMemoryStore(), ttlMs }) }).createOrder(request, body);
    const again = await createPayPalPayments({ orders, idempotency: createIdempotency({ store: createMemoryStore(), ttlMs }) }).createOrder(request, body);

    const expected = paypalRequestId({ ...request, step: 'create' });
    const sent = fake.requests.filter((r) => r.provider === 'paypal' && r.path === '/v2/checkout/orders');
    expect(sent.slice(-2).map((r) => r.idempotencyKey)).toEqual([expected, expected]);
    expect(fake.charges.length - before).toBe(1);
    expect(again.payment.id).toBe(first.payment.id);
    expect(first.payment).toMatchObject({ provider: 'paypal', status: 'CREATED', amount: 12.5, currency: 'USD', providerKey: expected });
  });
});
