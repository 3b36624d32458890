/** The shared adapter suite against Hono 4 on @hono/node-server, in-process over real HTTP. */
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { Server } from 'node:http';
import { idempotency } from '../../src/adapters/hono/index.js';
import { runAdapterSuite } from './adapter-suite.js';
import { fromListening, webStreamOf } from './suite/listen.js';
import type { SuiteRoute } from './suite/suite-routes.js';

async function createServer(routes: readonly SuiteRoute[]) {
  const app = new Hono();
  app.onError((_error, c) => c.text('internal error', 500)); // quiet: the suite throws on purpose
  for (const route of routes) {
    const handler = async (c: Context) => {
      const body = c.req.method === 'GET' ? undefined : await c.req.json();
      const result = await route.handle({ method: c.req.method, header: (name) => c.req.header(name), body });
      const payload = result.chunks ? webStreamOf(result) : typeof result.body === 'string' ? result.body : new Uint8Array(result.body ?? []);
      return new Response(payload, { status: result.status, headers: result.headers });
    };
    app.on(route.method, route.path, idempotency(route.options), handler);
  }
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  return fromListening(server);
}

runAdapterSuite({ name: 'hono 4', createServer });
