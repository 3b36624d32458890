import { builder } from '../builder';
import { db } from '../db';
import { GuestInput, RoomKind } from './inputs';

builder.prismaObject('Booking', {
  fields: (t) => ({
    id: t.exposeID('id'),
    nights: t.exposeInt('nights'),
  }),
});

builder.queryFields((t) => ({
  booking: t.prismaField({
    type: 'Booking',
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _parent, args) => db.booking.findUnique({ ...query, where: { id: String(args.id) } }),
  }),
}));

builder.mutationFields((t) => ({
  // prismaField resolvers take the Prisma query first: the arguments are the third parameter.
  createBooking: t.prismaField({
    type: 'Booking',
    args: {
      roomId: t.arg.id({ required: true }),
      nights: t.arg.int({ required: true }),
      guest: t.arg({ type: GuestInput, required: true }),
      kind: t.arg({ type: RoomKind }),
    },
    resolve: (query, _parent, args) =>
      db.booking.create({
        ...query,
        data: { roomId: String(args.roomId), nights: args.nights, kind: args.kind ?? 'single', guest: { create: args.guest } },
      }),
  }),
  cancelBooking: t.field({
    type: 'Boolean',
    args: { bookingId: t.arg.id({ required: true }), reason: t.arg.string() },
    resolve: async (_root, args) => {
      await db.booking.update({ where: { id: String(args.bookingId) }, data: { cancelledAt: new Date(), reason: args.reason?.trim() } });
      return true;
    },
  }),
}));

builder.mutationField('checkIn', (t) =>
  t.field({
    type: 'Boolean',
    args: { bookingId: t.arg.id({ required: true }) },
    resolve: async (_root, { bookingId }, ctx) => {
      const booking = await db.booking.update({ where: { id: String(bookingId) }, data: { checkedInAt: new Date() }, include: { guest: true } });
      await ctx.mailer.sendMail({ to: booking.guest.email, subject: 'Welcome aboard', text: `Room ${booking.roomId} is ready.` });
      return true;
    },
  }),
);
