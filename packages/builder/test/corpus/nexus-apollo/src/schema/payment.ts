import { idArg, intArg, mutationField, nonNull } from 'nexus';

export const CapturePayment = mutationField('capturePayment', {
  type: 'Boolean',
  args: { orderId: nonNull(idArg()), amountCents: nonNull(intArg()) },
  async resolve(_root, { orderId, amountCents }, ctx) {
    const order = await ctx.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    await ctx.stripe.paymentIntents.capture(order.paymentIntentId, { amount_to_capture: amountCents });
    return true;
  },
});
