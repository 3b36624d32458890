import { Order } from '../../models/order';

interface Context { user?: { id: string } }

export const orderQueries = {
  order: (_parent: unknown, { id }: { id: string }) => Order.findById(id),
};

async function cancelOrder(_parent: unknown, { id }: { id: string }, ctx: Context) {
  return Order.findOneAndUpdate({ _id: id, buyerId: ctx.user?.id }, { status: 'cancelled' }, { new: true });
}

export const orderMutations = {
  createOrder: async (_parent: unknown, { input }: { input: { listingId: string; quantity: number; shippingAddressId: string } }, ctx: Context) => {
    const order = await Order.create({
      buyerId: ctx.user?.id,
      listingId: input.listingId,
      quantity: input.quantity,
      shippingAddressId: input.shippingAddressId,
    });
    return order;
  },
  addLineItem: async (_parent: unknown, args: { orderId: string; sku: string; quantity: number }) => {
    return Order.updateOne({ _id: args.orderId }, { $push: { lines: { sku: args.sku, quantity: args.quantity } } });
  },
  cancelOrder,
};
