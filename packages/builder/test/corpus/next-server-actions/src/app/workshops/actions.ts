'use server';

import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { db } from '@/lib/db';
import { stripe } from '@/lib/payments';

const waitlistSchema = z.object({ workshopId: z.string(), email: z.string().email() });

interface CancelInput {
  bookingId: string;
  reason: string;
}

export async function holdSeats(formData: FormData) {
  const session = await getServerSession();
  if (!session?.user?.email) throw new Error('sign in first');
  const booking = await db.booking.create({
    data: { workshopId: String(formData.get('workshopId')), seats: Number(formData.get('seats')), userId: session.user.email },
  });
  redirect(`/workshops/bookings/${booking.id}`);
}

export async function payDeposit(bookingId: string, _previous: unknown, formData: FormData) {
  const session = await getServerSession();
  const currency = String(formData.get('currency') ?? 'eur');
  const booking = await db.booking.findUniqueOrThrow({ where: { id: bookingId } });
  const intent = await stripe.paymentIntents.create({ amount: booking.seats * 2500, currency, metadata: { bookingId, user: session?.user?.email ?? '' } });
  return { clientSecret: intent.client_secret };
}

export const cancelBooking = async ({ bookingId, reason }: CancelInput) => {
  await db.booking.update({ where: { id: bookingId }, data: { status: `cancelled: ${reason}` } });
};

export const joinWaitlist = withRateLimit(waitlistSchema, async (data) => {
  await db.booking.create({ data: { workshopId: data.workshopId, userId: data.email, seats: 0, status: 'waitlist' } });
});

export async function listMyBookings() {
  const session = await getServerSession();
  return db.booking.findMany({ where: { userId: session?.user?.email ?? '' } });
}

function withRateLimit<T>(schema: z.ZodType<T>, action: (data: T) => Promise<void>) {
  return async (formData: FormData) => action(schema.parse(Object.fromEntries(formData)));
}
