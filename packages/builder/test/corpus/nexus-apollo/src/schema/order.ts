import { arg, extendType, idArg, mutationField, nonNull, objectType, stringArg } from 'nexus';

export const Order = objectType({
  name: 'Order',
  definition(t) {
    t.nonNull.id('id');
    t.nonNull.field('status', { type: 'OrderStatus' });
    t.string('couponCode');
  },
});

export const OrderQueries = extendType({
  type: 'Query',
  definition(t) {
    t.nonNull.list.nonNull.field('orders', {
      type: 'Order',
      args: { sort: arg({ type: 'SortDirection' }) },
      resolve: (_root, args, ctx) => ctx.prisma.order.findMany({ orderBy: { createdAt: args.sort ?? 'desc' } }),
    });
  },
});

export const OrderMutations = extendType({
  type: 'Mutation',
  definition(t) {
    t.nonNull.field('placeOrder', {
      type: 'Order',
      args: { cartId: nonNull(idArg()), couponCode: stringArg() },
      resolve: async (_root, args, ctx) => ctx.prisma.order.create({ data: { cartId: args.cartId, couponCode: args.couponCode, userId: ctx.userId } }),
    });

    t.field('shipOrder', {
      type: 'Order',
      args: { orderId: nonNull(idArg()), shipment: nonNull(arg({ type: 'ShipmentInput' })) },
      async resolve(_root, { orderId, shipment }, ctx) {
        await ctx.prisma.shipment.create({ data: { orderId, ...shipment } });
        return ctx.prisma.order.update({ where: { id: orderId }, data: { status: 'SHIPPED' } });
      },
    });

    t.field('setOrderStatus', {
      type: 'Order',
      args: { orderId: nonNull(idArg()), status: nonNull(arg({ type: 'OrderStatus' })) },
      resolve: (_root, args, ctx) => ctx.prisma.order.update({ where: { id: args.orderId }, data: { status: args.status } }),
    });
  },
});

// The function form: a definition block of its own.
export const ArchiveOrder = mutationField((t) => {
  t.nonNull.boolean('archiveOrder', {
    args: { orderId: nonNull(idArg()) },
    resolve: async (_root, { orderId }, ctx) => {
      await ctx.prisma.order.update({ where: { id: orderId }, data: { archivedAt: new Date() } });
      return true;
    },
  });
});
