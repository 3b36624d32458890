import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pool } from '../app.js';

// Body shapes declared as schemas, not read field by field in the handler.
const PayoutBody = z.object({ hostId: z.string(), amountCents: z.number().int(), currency: z.string().length(3) });

export async function payouts(app: FastifyInstance) {
  app.post('/', async (request, reply) => {
    const payout = PayoutBody.parse(request.body);
    await pool.execute('INSERT INTO payouts SET ?', [payout]);
    return reply.code(201).send();
  });

  app.put('/:payoutId/hold', { schema: { body: { type: 'object', properties: { reason: { type: 'string' }, until: { type: 'string' } } } } }, async (request) => {
    await pool.execute('UPDATE payouts SET hold = ? WHERE id = ?', [JSON.stringify(request.body), (request.params as { payoutId: string }).payoutId]);
    return { held: true };
  });
}
