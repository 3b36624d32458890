/**
 * Child process for the reconciliation test: charges through `createStripePayments` (real Stripe
 * SDK, fake provider, SQLite store), tells the parent the provider answered, then hangs BEFORE the
 * local record is completed — until the parent kills it with SIGKILL.
 */
import Stripe from 'stripe';
import { createIdempotency } from '../../../src/core/engine.js';
import { createStripePayments, type StripeLike } from '../../../src/payments/stripe.js';
import { createSqliteStore } from '../../../src/stores/sqlite/index.js';

export interface ChargeConfig {
  readonly filename: string;
  readonly port: number;
  readonly key: string;
  readonly scope: string;
  readonly fingerprint: string;
  readonly leaseMs: number;
  readonly amount: number;
}

export type ChargeMessage = { type: 'charged'; id: string; lockVersion: number };

const config = JSON.parse(process.argv[2]!) as ChargeConfig;
const real = new Stripe('sk_test_fake', { host: '127.0.0.1', port: config.port, protocol: 'http', maxNetworkRetries: 0 });
// Pass-through, except that after Stripe answers the process stalls: the crash window of spec §5.
const stalling: StripeLike = {
  paymentIntents: {
    async create(params, options) {
      const intent = await real.paymentIntents.create(params as Stripe.PaymentIntentCreateParams, options);
      process.send!({ type: 'charged', id: intent.id, lockVersion: 0 } satisfies ChargeMessage);
      return new Promise<never>(() => {});
    },
    search: (params) => real.paymentIntents.search(params),
  },
};
setInterval(() => {}, 60_000);
const idempotency = createIdempotency({ store: createSqliteStore({ filename: config.filename }), leaseMs: config.leaseMs });
await createStripePayments({ stripe: stalling, idempotency }).createPaymentIntent(
  { key: config.key, scope: config.scope, fingerprint: config.fingerprint },
  { amount: config.amount, currency: 'eur' },
);
