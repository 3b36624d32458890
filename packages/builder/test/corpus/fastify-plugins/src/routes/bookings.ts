import type { FastifyInstance } from 'fastify';
import { pool } from '../app.js';

export default async function bookings(fastify: FastifyInstance) {
  fastify.post('/', async (request, reply) => {
    const { roomId, checkIn, nights, guestEmail } = request.body as { roomId: string; checkIn: string; nights: number; guestEmail: string };
    await pool.execute('INSERT INTO bookings (room_id, check_in, nights, guest_email) VALUES (?, ?, ?, ?)', [roomId, checkIn, nights, guestEmail]);
    return reply.code(201).send({ ok: true });
  });

  fastify.patch('/:bookingId', async (request) => {
    const body = request.body as { nights: number };
    await pool.execute('UPDATE bookings SET nights = ? WHERE id = ?', [body.nights, (request.params as { bookingId: string }).bookingId]);
    return { ok: true };
  });
}
