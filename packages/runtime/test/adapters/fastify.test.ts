/** The shared adapter suite against Fastify 5, in-process over real HTTP. */
import Fastify from 'fastify';
import { idempotencyPlugin } from '../../src/adapters/fastify/index.js';
import { runAdapterSuite } from './adapter-suite.js';
import { fromListening, nodeStreamOf } from './suite/listen.js';
import type { SuiteRoute } from './suite/suite-routes.js';

async function createServer(routes: readonly SuiteRoute[]) {
  const app = Fastify({ logger: false });
  for (const route of routes) {
    // One encapsulated scope per route: each route has its own idempotency options.
    await app.register(async (scope) => {
      await scope.register(idempotencyPlugin, route.options);
      scope.route({
        method: route.method,
        url: route.path,
        handler: async (request, reply) => {
          const result = await route.handle({ method: request.method, header: (name) => request.headers[name] as string | undefined, body: request.body });
          reply.code(result.status).headers(result.headers ?? {});
          if (result.chunks) return reply.send(nodeStreamOf(result));
          return reply.send(typeof result.body === 'string' ? result.body : Buffer.from(result.body ?? ''));
        },
      });
    });
  }
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app.close();
    throw error;
  }
  const server = fromListening(app.server);
  return { url: server.url, close: () => app.close() };
}

runAdapterSuite({ name: 'fastify 5', createServer });
