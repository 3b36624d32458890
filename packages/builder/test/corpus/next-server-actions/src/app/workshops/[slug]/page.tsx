import { db } from '@/lib/db';
import { holdSeats } from '../actions';

export default async function WorkshopPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;

  async function releaseHold(formData: FormData) {
    'use server';
    await db.booking.delete({ where: { id: String(formData.get('bookingId')) } });
  }

  return (
    <main>
      <form action={holdSeats}>
        <input type="hidden" name="workshopId" value={slug} />
        <input name="seats" type="number" />
        <button>Hold seats</button>
      </form>
      <form action={releaseHold}>
        <input name="bookingId" />
        <button>Release</button>
      </form>
    </main>
  );
}
