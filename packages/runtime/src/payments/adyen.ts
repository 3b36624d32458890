/**
 * Adyen Checkout through its own SDK (@adyen/api-library ≥ 32), inside a protected action: the
 * payment carries `reference` `{key}_{step}` and the `Idempotency-Key` header, both derived from
 * the local intent. The SDK type stays structural (`AdyenPaymentsApiLike` = its `PaymentsApi`).
 */
import type { Idempotency, RunRequest } from '../core/engine.js';
import type { PaymentOutcome, PaymentResult } from './payment-result.js';
import { adyenIdempotencyKey, adyenReference } from './provider-keys.js';
import { assertRetention, type RetentionOverride } from './retention.js';

export interface AdyenPaymentResponseLike {
  readonly pspReference?: string;
  readonly resultCode?: string;
  readonly merchantReference?: string;
  readonly amount?: { readonly value: number; readonly currency: string } | null;
}

/** `new CheckoutAPI(client).PaymentsApi`, or anything with its `payments()`. */
export interface AdyenPaymentsApiLike {
  payments(request: never, requestOptions?: { idempotencyKey?: string }): Promise<AdyenPaymentResponseLike>;
}

export interface AdyenPaymentsOptions {
  readonly payments: AdyenPaymentsApiLike;
  readonly idempotency: Idempotency;
  /** Accept a local ttlMs shorter than Adyen's window (31 days), with the reason why. */
  readonly retentionOverride?: RetentionOverride;
}

export interface AdyenPayments {
  /**
   * Makes a `/payments` call at most once per (intent, step). `reference` is set from the key.
   * @example
   * const { payment } = await adyen.makePayment(
   *   { key, scope: shopper.id, fingerprint },
   *   { amount: { value: 4200, currency: 'EUR' }, merchantAccount, paymentMethod },
   * );
   */
  makePayment(request: RunRequest, paymentRequest: Readonly<Record<string, unknown>>, options?: { readonly step?: string }): Promise<PaymentOutcome>;
}

/**
 * Binds Adyen to an engine; refuses a ttlMs under Adyen's window unless overridden with a reason.
 * @example
 * import { Client, CheckoutAPI } from '@adyen/api-library';
 * const adyen = createAdyenPayments({ payments: new CheckoutAPI(new Client({ apiKey, environment: 'TEST' })).PaymentsApi, idempotency });
 */
export function createAdyenPayments({ payments, idempotency, retentionOverride }: AdyenPaymentsOptions): AdyenPayments {
  assertRetention('adyen', idempotency.options.ttlMs, retentionOverride);
  return {
    async makePayment(request, paymentRequest, { step = 'charge' } = {}) {
      const reference = adyenReference(request, step);
      const providerKey = adyenIdempotencyKey({ key: request.key, scope: request.scope, step });
      const { value, replayed } = await idempotency.run<PaymentResult>(request, async () => {
        const response = await payments.payments({ ...paymentRequest, reference } as never, { idempotencyKey: providerKey });
        return {
          provider: 'adyen',
          id: response.pspReference ?? reference,
          status: response.resultCode ?? 'Unknown',
          amount: response.amount?.value ?? null,
          currency: response.amount?.currency ?? null,
          providerKey,
          providerReplayed: false,
        };
      });
      return { payment: value, replayed };
    },
  };
}
