import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pool } from '../app.js';

async function verifySignature(request: FastifyRequest, reply: FastifyReply) {
  const expected = createHmac('sha256', process.env.PARTNER_SECRET ?? '').update(JSON.stringify(request.body)).digest('hex');
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(String(request.headers['x-signature'])))) await reply.code(401).send();
}

export async function partnerHooks(app: FastifyInstance) {
  app.post('/availability', { preHandler: verifySignature }, async (request) => {
    const { eventId, roomId, available } = request.body as { eventId: string; roomId: string; available: boolean };
    await pool.execute('UPDATE rooms SET available = ? WHERE id = ? AND last_event <> ?', [available, roomId, eventId]);
    return { ok: true };
  });
}
