import type { NextApiRequest, NextApiResponse } from 'next';
import { prisma } from '../../../../lib/prisma';
import { stripe } from '../../../../lib/stripe';

export default async function refund(req: NextApiRequest, res: NextApiResponse) {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return res.status(405).json({ error: 'Method not allowed' });
  }
  const { reason } = req.body;
  const order = await prisma.order.findUniqueOrThrow({ where: { id: String(req.query.id) } });
  const refund = await stripe.refunds.create({ payment_intent: order.paymentIntentId ?? '', reason });
  return res.status(200).json(refund);
}
