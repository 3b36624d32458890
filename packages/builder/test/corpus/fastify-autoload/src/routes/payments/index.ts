import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export default async function (fastify: FastifyInstance) {
  fastify.post<{ Body: { orderId: string; amount: number; currency: string } }>('/charge', async (request) => {
    const { orderId, amount, currency } = request.body;
    const intent = await stripe.paymentIntents.create({ amount, currency, metadata: { orderId } });
    return { id: intent.id };
  });
}
