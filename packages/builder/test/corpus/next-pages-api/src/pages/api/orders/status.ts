import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../lib/prisma';
import { stripe } from '../../../lib/stripe';

// No method check, reads the body, but only looks things up: not a mutating entry point.
export default async function orderStatus(req: NextApiRequest, res: NextApiResponse) {
  const { orderId } = req.body;
  const order = await prisma.order.findUnique({ where: { id: String(orderId) } });
  const intent = order?.paymentIntentId ? await stripe.paymentIntents.retrieve(order.paymentIntentId) : null;
  res.status(200).json({ status: order?.status, payment: intent?.status });
}
