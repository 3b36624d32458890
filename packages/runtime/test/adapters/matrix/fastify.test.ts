/**
 * The shared adapter suite on each Fastify major the peer range names: 5 (the workspace's
 * `fastify`) and 4 (the `fastify4` npm alias). A missing alias skips with its reason (fails
 * under CI=true).
 */
import { idempotencyPlugin } from '../../../src/adapters/fastify/index.js';
import { runAdapterSuite, type SuiteRoute, type SuiteServer } from '../../../src/testing/adapter-suite.js';
import { frameworkMajors } from '../../support/framework-majors.js';
import { fromListening, nodeStreamOf } from '../suite/listen.js';
import { clientErrorStatus, frameworkProblem } from '../suite/servers.js';

type FastifyFactory = typeof import('fastify').default;

/** The suite routes on `Fastify`, one encapsulated scope (with its own plugin options) per route. */
async function serveOn(Fastify: FastifyFactory, routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const app = Fastify({ logger: false });
  // Any other type as its bytes (Fastify would answer 415 itself); JSON and text keep their parsers.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error, _request, reply) => {
    const status = clientErrorStatus(error);
    const answer = status === undefined ? { status: 500, headers: {}, body: 'internal error' } : frameworkProblem(status);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  for (const route of routes) {
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

for (const { major, loaded } of await frameworkMajors<FastifyFactory>('Fastify', [[5, 'fastify'], [4, 'fastify4']], 'runs the adapter suite')) {
  runAdapterSuite({
    name: `fastify ${major}`,
    createServer: (routes) => serveOn(loaded, routes),
    skip: { maxRequestBytes: 'Fastify enforces its own bodyLimit (413) before the plugin runs' },
  });
}
