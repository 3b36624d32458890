import type { NextApiRequest, NextApiResponse } from 'next';
import { buffer } from 'micro';
import { prisma } from '../../../lib/prisma';
import { stripe } from '../../../lib/stripe';

export const config = { api: { bodyParser: false } };

const webhookHandler = async (req: NextApiRequest, res: NextApiResponse) => {
  if (req.method === 'POST') {
    const buf = await buffer(req);
    const event = stripe.webhooks.constructEvent(buf, req.headers['stripe-signature'] as string, process.env.STRIPE_WEBHOOK_SECRET ?? '');
    if (event.type === 'payment_intent.succeeded') {
      await prisma.order.updateMany({ where: { paymentIntentId: (event.data.object as { id: string }).id }, data: { status: 'paid' } });
    }
    res.json({ received: true });
  } else {
    res.setHeader('Allow', 'POST');
    res.status(405).end('Method Not Allowed');
  }
};

export default webhookHandler;
