/** What a protected payment call stores locally and replays: the provider's answer, trimmed to what a retry needs. */

/** The stored value of one provider call. Plain JSON, so every serializer and codec keeps it. */
export interface PaymentResult {
  readonly provider: 'stripe' | 'adyen' | 'paypal';
  /** The provider's id of the payment (PaymentIntent id, pspReference, order id). */
  readonly id: string;
  /** The provider's status word (`succeeded`, `Authorised`, `COMPLETED`, …). */
  readonly status: string;
  readonly amount: number | null;
  readonly currency: string | null;
  /** The derived provider key the call carried (Idempotency-Key, reference, PayPal-Request-Id). */
  readonly providerKey: string;
  /**
   * True when the provider answered from its own idempotency cache (Stripe `Idempotent-Replayed:
   * true`): an earlier attempt reached it, this one did not charge again.
   */
  readonly providerReplayed: boolean;
  /** True when the local record was completed by reconciliation rather than by the call itself. */
  readonly reconciled?: boolean;
}

/** What a protected payment call returns. */
export interface PaymentOutcome {
  readonly payment: PaymentResult;
  /** True when the local store replayed a stored result: no provider call was made now. */
  readonly replayed: boolean;
}
