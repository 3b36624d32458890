import express, { type NextFunction, type Request, type Response } from 'express';
import Stripe from 'stripe';
import { db } from '../lib/db.js';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
export const hooks = express.Router();

// The signature is checked in middleware, not in the handler: still a webhook.
function verifyStripe(req: Request, res: Response, next: NextFunction) {
  try {
    res.locals.event = stripe.webhooks.constructEvent(req.body, req.header('stripe-signature') ?? '', process.env.STRIPE_WHSEC ?? '');
    next();
  } catch {
    res.status(400).end();
  }
}

hooks.post('/payments', express.raw({ type: 'application/json' }), verifyStripe, async (_req, res) => {
  const event = res.locals.event as Stripe.Event;
  await db.query('UPDATE orders SET status = $1 WHERE payment_intent = $2', [event.type, (event.data.object as { id: string }).id]);
  res.json({ received: true });
});
