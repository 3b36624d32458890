import Stripe from 'stripe';
import { Order } from '../../models/order';

const stripe = new Stripe(process.env.STRIPE_SECRET_KEY ?? '');

export default {
  Mutation: {
    async refundPayment(_root: unknown, { orderId, amountCents }: { orderId: string; amountCents?: number }) {
      const order = await Order.findById(orderId);
      if (!order) return false;
      await stripe.refunds.create({ payment_intent: order.paymentIntentId, amount: amountCents });
      return true;
    },
  },
};
