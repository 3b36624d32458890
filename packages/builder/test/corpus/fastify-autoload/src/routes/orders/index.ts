import type { FastifyInstance } from 'fastify';

interface CreateOrder {
  sku: string;
  quantity: number;
}

export default async function (fastify: FastifyInstance) {
  fastify.get('/', async () => (await fastify.db.query('SELECT * FROM orders')).rows);

  fastify.post<{ Body: CreateOrder }>('/', async (request, reply) => {
    const { sku, quantity } = request.body;
    const { rows } = await fastify.db.query('INSERT INTO orders (sku, quantity) VALUES ($1, $2) RETURNING id', [sku, quantity]);
    reply.code(201);
    return rows[0];
  });
}
