// Provider keys (spec §6): deterministic, within each provider's limit, scope-qualified, and
// PayPal's UUIDv5 identical to the `uuid` package's; retention refused below the provider window.
import Stripe from 'stripe';
import { v5 as uuidv5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import {
  adyenIdempotencyKey,
  adyenReference,
  DEFAULT_PAYPAL_NAMESPACE,
  fitProviderKey,
  paypalRequestId,
  stripeIdempotencyKey,
} from '../../src/payments/provider-keys.js';
import { assertRetention, PROVIDER_RETENTION_MS } from '../../src/payments/retention.js';
import { createStripePayments, isPermanentStripeError, type StripeLike } from '../../src/payments/stripe.js';
import { createPayPalPayments, type PayPalOrdersLike } from '../../src/payments/paypal.js';
import { uuidV5 } from '../../src/payments/uuid-v5.js';

const long = 'k'.repeat(255);

describe('provider keys', () => {
  it('are the scope-qualified key when short and plain, the same on every call', () => {
    expect(stripeIdempotencyKey({ key: 'order-7', scope: 'user_42' })).toBe('user_42:order-7');
    expect(stripeIdempotencyKey({ key: 'order-7', scope: 'global' })).toBe('order-7');
    expect(stripeIdempotencyKey({ key: 'order-7', scope: 'user_42', step: 'charge' })).toBe('user_42:order-7:charge');
    expect(adyenReference({ key: 'order-7', scope: 'user_42' }, 'charge')).toBe('user_42:order-7_charge');
  });

  it('map over-long or unusual material by the stated hash scheme, within each limit', () => {
    const stripe = stripeIdempotencyKey({ key: long, scope: 'user_42' });
    expect(stripe.length).toBe(255);
    expect(stripe).toMatch(/^user_42:k+~h[A-Za-z0-9_-]{43}$/);
    expect(stripeIdempotencyKey({ key: long, scope: 'user_42' })).toBe(stripe);
    expect(stripeIdempotencyKey({ key: long, scope: 'user_43' })).not.toBe(stripe);
    const adyenKey = adyenIdempotencyKey({ key: long, scope: 'user_42' });
    expect(adyenKey.length).toBe(64);
    const reference = adyenReference({ key: long, scope: 'user_42' }, 'charge');
    expect(reference.length).toBe(80);
    expect(reference.endsWith('_charge')).toBe(true);
    // A scope with characters outside the plain set is hashed too, so it cannot collide with a plain one.
    expect(fitProviderKey('tenant/a:x', 255)).toMatch(/~h/);
    expect(fitProviderKey('tenant-a:x', 255)).toBe('tenant-a:x');
    // Hashed values always carry "~"; a plain key with "~" is itself hashed, never passed through.
    expect(fitProviderKey('a~hb', 255)).not.toBe('a~hb');
  });

  it('PayPal-Request-Id is UUIDv5(namespace, material), identical to the uuid package', () => {
    const id = paypalRequestId({ key: 'order-7', scope: 'user_42' });
    expect(id).toBe(uuidv5('user_42:order-7', DEFAULT_PAYPAL_NAMESPACE));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const custom = '1b671a64-40d5-491e-99b0-da01ff1f3341';
    expect(paypalRequestId({ key: 'order-7', scope: 'user_42' }, custom)).toBe(uuidv5('user_42:order-7', custom));
    expect(DEFAULT_PAYPAL_NAMESPACE).toBe(uuidv5('idempotency-builder/paypal-request-id', uuidv5.URL));
    for (const name of ['', 'hello', 'ünïcødé ✓', long]) expect(uuidV5(name, uuidv5.DNS)).toBe(uuidv5(name, uuidv5.DNS));
    expect(() => paypalRequestId({ key: 'k', scope: 's' }, 'not-a-uuid')).toThrow(InvalidOptionsError);
  });

  it('reject a malformed step or key', () => {
    expect(() => adyenReference({ key: 'k', scope: 's' }, 'bad step')).toThrow(InvalidOptionsError);
    expect(() => stripeIdempotencyKey({ key: 'bad key', scope: 's' })).toThrow();
  });
});

describe('retention', () => {
  const store = createMemoryStore();
  const stripe = {} as StripeLike;
  const orders = {} as PayPalOrdersLike;

  it('refuses a ttlMs below the provider window, unless overridden with a reason', () => {
    const short = createIdempotency({ store, ttlMs: 60 * 60 * 1000 });
    expect(() => createStripePayments({ stripe, idempotency: short })).toThrow(InvalidOptionsError);
    expect(() => createStripePayments({ stripe, idempotency: short, retentionOverride: { reason: '' } })).toThrow(InvalidOptionsError);
    expect(() => createStripePayments({ stripe, idempotency: short, retentionOverride: { reason: 'retries end after 1 h by contract' } })).not.toThrow();
    expect(() => createPayPalPayments({ orders, idempotency: short })).toThrow(InvalidOptionsError);
    const day = createIdempotency({ store, ttlMs: PROVIDER_RETENTION_MS.stripe });
    expect(() => createStripePayments({ stripe, idempotency: day })).not.toThrow();
    expect(() => assertRetention('adyen', PROVIDER_RETENTION_MS.adyen - 1)).toThrow(/adyen/);
    expect(() => assertRetention('paypalPayments', PROVIDER_RETENTION_MS.paypalPayments)).not.toThrow();
  });
});

describe('isPermanentStripeError', () => {
  it("classifies the SDK's own error classes: declines and invalid requests are final, the rest transient", () => {
    const { StripeCardError, StripeInvalidRequestError, StripeConnectionError, StripeAPIError, StripeRateLimitError } = Stripe.errors;
    expect(isPermanentStripeError(new StripeCardError({ message: 'declined', type: 'card_error', statusCode: 402 } as never))).toBe(true);
    expect(isPermanentStripeError(new StripeInvalidRequestError({ message: 'bad', type: 'invalid_request_error', statusCode: 400 } as never))).toBe(true);
    expect(isPermanentStripeError(new StripeInvalidRequestError({ message: 'in use', type: 'invalid_request_error', statusCode: 409 } as never))).toBe(false);
    expect(isPermanentStripeError(new StripeConnectionError({ message: 'timeout', type: 'api_error' } as never))).toBe(false);
    expect(isPermanentStripeError(new StripeAPIError({ message: '500', type: 'api_error', statusCode: 500 } as never))).toBe(false);
    expect(isPermanentStripeError(new StripeRateLimitError({ message: 'slow', type: 'rate_limit_error', statusCode: 429 } as never))).toBe(false);
    expect(isPermanentStripeError(new Error('x'))).toBe(false);
    expect(isPermanentStripeError(undefined)).toBe(false);
  });
});
