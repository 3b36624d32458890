/**
 * PayPal Orders through its own SDK (@paypal/paypal-server-sdk ≥ 2.5), inside a protected action:
 * every call carries `PayPal-Request-Id` = UUIDv5(namespace, intent), so a retry is answered with
 * the latest state of the first request. The SDK type stays structural (`PayPalOrdersLike`).
 */
import type { Idempotency, RunRequest } from '../core/engine.js';
import { InvalidOptionsError } from '../core/errors.js';
import type { PaymentOutcome, PaymentResult } from './payment-result.js';
import { DEFAULT_PAYPAL_NAMESPACE, paypalRequestId } from './provider-keys.js';
import { assertRetention, type RetentionOverride } from './retention.js';
import { isUuid } from './uuid-v5.js';

export interface PayPalOrderLike {
  readonly id?: string;
  readonly status?: string;
  readonly purchaseUnits?: readonly { readonly amount?: { readonly value?: string; readonly currencyCode?: string } }[];
}

/** `new OrdersController(client)`, or anything with its two calls. */
export interface PayPalOrdersLike {
  createOrder(request: { body: never; paypalRequestId?: string }): Promise<{ readonly result: PayPalOrderLike }>;
  captureOrder(request: { id: string; paypalRequestId?: string }): Promise<{ readonly result: PayPalOrderLike }>;
}

export interface PayPalPaymentsOptions {
  readonly orders: PayPalOrdersLike;
  readonly idempotency: Idempotency;
  /** UUIDv5 namespace of the request ids. Default `DEFAULT_PAYPAL_NAMESPACE`; never change it while records live. */
  readonly namespace?: string;
  /** Accept a local ttlMs shorter than PayPal Orders' window (6 h), with the reason why. */
  readonly retentionOverride?: RetentionOverride;
}

export interface PayPalPayments {
  /**
   * Creates an order at most once per intent (`step` default `create`).
   * @example const { payment } = await paypal.createOrder({ key, scope, fingerprint }, { intent: 'CAPTURE', purchaseUnits });
   */
  createOrder(request: RunRequest, body: Readonly<Record<string, unknown>>, options?: { readonly step?: string }): Promise<PaymentOutcome>;
  /**
   * Captures an order at most once per intent (`step` default `capture`).
   * @example await paypal.captureOrder({ key: `${key}-capture`, scope, fingerprint }, orderId);
   */
  captureOrder(request: RunRequest, orderId: string, options?: { readonly step?: string }): Promise<PaymentOutcome>;
}

function orderResult(order: PayPalOrderLike, providerKey: string): PaymentResult {
  const amount = order.purchaseUnits?.[0]?.amount;
  return {
    provider: 'paypal',
    id: order.id ?? '',
    status: order.status ?? 'UNKNOWN',
    amount: amount?.value === undefined ? null : Number(amount.value),
    currency: amount?.currencyCode ?? null,
    providerKey,
    providerReplayed: false,
  };
}

/**
 * Binds PayPal Orders to an engine; refuses a ttlMs under 6 h unless overridden with a reason.
 * @example
 * import { Client, Environment, OrdersController } from '@paypal/paypal-server-sdk';
 * const paypal = createPayPalPayments({ orders: new OrdersController(client), idempotency });
 */
export function createPayPalPayments({ orders, idempotency, namespace = DEFAULT_PAYPAL_NAMESPACE, retentionOverride }: PayPalPaymentsOptions): PayPalPayments {
  if (!isUuid(namespace)) throw new InvalidOptionsError(`Option "namespace" must be a UUID; got ${String(namespace)}.`);
  assertRetention('paypalOrders', idempotency.options.ttlMs, retentionOverride);
  return {
    async createOrder(request, body, { step = 'create' } = {}) {
      const requestId = paypalRequestId({ key: request.key, scope: request.scope, step }, namespace);
      const { value, replayed } = await idempotency.run<PaymentResult>(request, async () => {
        const response = await orders.createOrder({ body: body as never, paypalRequestId: requestId });
        return orderResult(response.result, requestId);
      });
      return { payment: value, replayed };
    },
    async captureOrder(request, orderId, { step = 'capture' } = {}) {
      const requestId = paypalRequestId({ key: request.key, scope: request.scope, step }, namespace);
      const { value, replayed } = await idempotency.run<PaymentResult>(request, async () => {
        const response = await orders.captureOrder({ id: orderId, paypalRequestId: requestId });
        return orderResult(response.result, requestId);
      });
      return { payment: value, replayed };
    },
  };
}
