import type { Context } from 'koa';
import { prisma } from '../db';

export async function listOrders(ctx: Context): Promise<void> {
  ctx.body = await prisma.order.findMany({ where: { userId: ctx.state.user.id } });
}

export async function createOrder(ctx: Context): Promise<void> {
  const { shippingAddress, couponCode } = ctx.request.body as { shippingAddress: string; couponCode?: string };
  const order = await prisma.order.create({ data: { userId: ctx.state.user.id, shippingAddress, couponCode } });
  ctx.status = 201;
  ctx.body = order;
}

export async function updateShipping(ctx: Context): Promise<void> {
  const { body } = ctx.request;
  ctx.body = await prisma.order.update({
    where: { id: ctx.params.orderId },
    data: { shippingAddress: body.shippingAddress, carrier: body.carrier },
  });
}

export const cancelOrder = async (ctx: Context): Promise<void> => {
  await prisma.order.update({ where: { id: ctx.params.orderId }, data: { status: 'cancelled' } });
  ctx.status = 204;
};
