import type { FastifyInstance } from 'fastify';

export default async function (fastify: FastifyInstance) {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.headers.authorization) reply.code(401).send({ message: 'unauthorized' });
  });
}
