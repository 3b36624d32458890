import type { FastifyInstance } from 'fastify';

export default async function (fastify: FastifyInstance) {
  fastify.post<{ Params: { orderId: string }; Body: { reason: string } }>('/refunds', async (request, reply) => {
    const { reason } = request.body;
    await fastify.db.query("UPDATE orders SET status = 'refund_requested', refund_reason = $1 WHERE id = $2", [reason, request.params.orderId]);
    reply.code(202);
    return { orderId: request.params.orderId };
  });
}
