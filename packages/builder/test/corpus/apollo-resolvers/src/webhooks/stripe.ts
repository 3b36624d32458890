import type { Request, Response } from 'express';
import Stripe from 'stripe';
import { Order } from '../models/order';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export async function stripeWebhook(req: Request, res: Response) {
  const event = stripe.webhooks.constructEvent(req.body, req.headers['stripe-signature'] as string, process.env.STRIPE_WEBHOOK_SECRET ?? '');
  if (event.type === 'payment_intent.succeeded') {
    await Order.updateOne({ paymentIntentId: (event.data.object as { id: string }).id }, { status: 'paid' });
  }
  res.json({ received: true });
}
