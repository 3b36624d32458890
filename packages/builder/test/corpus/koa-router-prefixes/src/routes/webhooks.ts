import Router from '@koa/router';
import type { Context } from 'koa';
import { prisma } from '../db';
import { stripe } from '../stripe';

const webhooks = new Router({ prefix: '/webhooks' });

webhooks.post('/stripe', async (ctx: Context) => {
  const event = stripe.webhooks.constructEvent(ctx.request.rawBody, ctx.get('stripe-signature'), process.env.STRIPE_WEBHOOK_SECRET ?? '');
  if (event.type === 'payment_intent.succeeded') {
    await prisma.payment.update({ where: { intentId: event.data.object.id }, data: { status: 'succeeded' } });
  }
  ctx.body = { received: true };
});

export default webhooks;
