import path from 'node:path';
import AutoLoad from '@fastify/autoload';
import type { FastifyInstance, FastifyPluginOptions } from 'fastify';

export default async function app(fastify: FastifyInstance, opts: FastifyPluginOptions) {
  // Shared plugins (database, decorators).
  await fastify.register(AutoLoad, {
    dir: path.join(import.meta.dirname, 'plugins'),
    options: { ...opts },
  });

  // Every folder under routes/ is a path segment; `_name` folders are parameters.
  await fastify.register(AutoLoad, {
    dir: path.join(import.meta.dirname, 'routes'),
    routeParams: true,
    options: { ...opts, prefix: '/v1' },
  });
}
