/**
 * Provider retention windows, and the configuration-time check that the local record outlives
 * the provider's memory of the key: a retry the provider still dedupes but the local store has
 * forgotten would run the action again locally (spec §6: "Local key expiry must be >= 24h").
 */
import { InvalidOptionsError } from '../core/errors.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * How long each provider remembers an idempotency key or reference, in ms.
 * - stripe: 24 h — keys may be removed once they are at least 24 hours old,
 *   https://docs.stripe.com/api/idempotent_requests.
 * - adyen: 31 days — "Idempotency keys are valid for a minimum period of 31 days after first
 *   submission", https://docs.adyen.com/development-resources/api-idempotency (spec §6 says 30).
 * - paypalOrders: 6 h — PayPal Orders v2 (create/capture order): "The server stores keys for 6
 *   hours" (extendable to 72 h through the account manager), @paypal/paypal-server-sdk 2.5.0
 *   `OrdersController` TSDoc; https://developer.paypal.com/reference/guidelines/idempotency says
 *   the window is per API.
 * - paypalPayments: 45 days — PayPal Payments v2 (capture/void/reauthorize/refund): "The server
 *   stores keys for 45 days", same SDK, `PaymentsController` TSDoc.
 */
export const PROVIDER_RETENTION_MS = {
  stripe: DAY_MS,
  adyen: 31 * DAY_MS,
  paypalOrders: 6 * HOUR_MS,
  paypalPayments: 45 * DAY_MS,
} as const;

export type ProviderWindow = keyof typeof PROVIDER_RETENTION_MS;

/** Accepting a shorter local retention than the provider's window, on purpose and in writing. */
export interface RetentionOverride {
  /** Why the shorter retention is acceptable (logged by the caller; must be non-empty). */
  readonly reason: string;
}

/**
 * Throws `InvalidOptionsError` when `ttlMs` is shorter than the provider's window, unless an
 * override with a non-empty reason is given. Called once, at creation.
 * @example assertRetention('stripe', idempotency.options.ttlMs) // throws when ttlMs < 24 h
 */
export function assertRetention(provider: ProviderWindow, ttlMs: number, override?: RetentionOverride): void {
  const windowMs = PROVIDER_RETENTION_MS[provider];
  if (override !== undefined) {
    if (typeof override?.reason !== 'string' || override.reason.trim().length === 0) {
      throw new InvalidOptionsError('Option "retentionOverride" needs a non-empty "reason".');
    }
    return;
  }
  if (ttlMs < windowMs) {
    throw new InvalidOptionsError(
      `ttlMs (${ttlMs}) is shorter than ${provider}'s idempotency window (${windowMs} ms): a retry the provider still ` +
        'recognises would run again locally. Raise ttlMs or pass retentionOverride: { reason }.',
    );
  }
}
