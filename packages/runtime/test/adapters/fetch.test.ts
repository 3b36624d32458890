/**
 * The shared adapter suite against the fetch adapter: plain `(Request) => Promise<Response>`
 * handlers, served over real HTTP by @hono/node-server's Request/Response bridge (no router).
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { withIdempotency } from '../../src/adapters/fetch/index.js';
import { runAdapterSuite } from './adapter-suite.js';
import { fromListening, webStreamOf } from './suite/listen.js';
import type { SuiteRoute } from './suite/suite-routes.js';

async function createServer(routes: readonly SuiteRoute[]) {
  const handlers = new Map<string, (request: Request) => Promise<Response>>();
  for (const route of routes) {
    const handler = async (request: Request) => {
      const body = request.method === 'GET' ? undefined : await request.json();
      const result = await route.handle({ method: request.method, header: (name) => request.headers.get(name) ?? undefined, body });
      const payload = result.chunks ? webStreamOf(result) : typeof result.body === 'string' ? result.body : new Uint8Array(result.body ?? []);
      return new Response(payload, { status: result.status, headers: result.headers });
    };
    handlers.set(`${route.method} ${route.path}`, withIdempotency(handler, route.options));
  }
  const fetch = async (request: Request) => {
    const handler = handlers.get(`${request.method} ${new URL(request.url).pathname}`);
    if (!handler) return new Response('not found', { status: 404 });
    try {
      return await handler(request);
    } catch {
      return new Response('internal error', { status: 500 }); // what a platform does with a throw
    }
  };
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  return fromListening(server);
}

runAdapterSuite({ name: 'fetch', createServer });
