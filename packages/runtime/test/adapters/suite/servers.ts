/**
 * The suite routes served on each framework we ship, as a well-configured app would: a handler
 * per route, and the framework's own 4xx (a body parser's refusal) answered as problem+json.
 * Shared by the adapter tests and the chaos fuzz run.
 */
import { serve } from '@hono/node-server';
import Fastify from 'fastify';
import { Hono, type Context } from 'hono';
import type { Server } from 'node:http';
import { idempotencyPlugin } from '../../../src/adapters/fastify/index.js';
import { withIdempotency } from '../../../src/adapters/fetch/index.js';
import { idempotency as honoIdempotency } from '../../../src/adapters/hono/index.js';
import type { SuiteRoute, SuiteServer } from '../../../src/testing/adapter-suite.js';
import { fromListening, nodeStreamOf, webStreamOf } from './listen.js';

/** What a framework's error says about its status (body parsers set `status`/`statusCode`). */
export function clientErrorStatus(error: unknown): number | undefined {
  const record = (error ?? {}) as { status?: unknown; statusCode?: unknown };
  const status = typeof record.statusCode === 'number' ? record.statusCode : record.status;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/** A framework refusal as problem+json: the app's job, shown here as the docs recommend. */
export function frameworkProblem(status: number): { status: number; headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ type: 'about:blank', title: 'The request was refused.', status, code: `http_${status}` });
  return { status, headers: { 'content-type': 'application/problem+json' }, body };
}

/** A fetch Request's body as the suite handlers read it: JSON parsed (or its text), text, bytes. */
export async function fetchBodyOf(request: Request): Promise<unknown> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength === 0) return undefined;
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  const text = new TextDecoder().decode(bytes);
  if (/json/.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return /^text\/|urlencoded/.test(type) ? text : bytes;
}

async function fetchHandlerFor(route: SuiteRoute, request: Request, body: unknown): Promise<Response> {
  const result = await route.handle({ method: request.method, header: (name) => request.headers.get(name) ?? undefined, body });
  const payload = result.chunks ? webStreamOf(result) : typeof result.body === 'string' ? result.body : new Uint8Array(result.body ?? []);
  return new Response(payload, { status: result.status, headers: result.headers });
}

function listenFetch(fetch: (request: Request) => Promise<Response>): Promise<SuiteServer> {
  return new Promise<Server>((resolve) => {
    const started = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  }).then(fromListening);
}

/** Plain `(Request) => Promise<Response>` handlers behind a path lookup (no router). */
export async function serveOnFetch(routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const handlers = new Map<string, (request: Request) => Promise<Response>>();
  for (const route of routes) {
    handlers.set(`${route.method} ${route.path}`, withIdempotency(async (request: Request) => fetchHandlerFor(route, request, await fetchBodyOf(request)), route.options));
  }
  return listenFetch(async (request) => {
    const handler = handlers.get(`${request.method} ${new URL(request.url).pathname}`);
    if (!handler) return new Response('not found', { status: 404 });
    try {
      return await handler(request);
    } catch {
      return new Response('internal error', { status: 500 }); // what a platform does with a throw
    }
  });
}

export async function serveOnHono(routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const app = new Hono();
  app.onError((_error, c) => c.text('internal error', 500)); // quiet: the suite throws on purpose
  for (const route of routes) {
    const handler = async (c: Context) => fetchHandlerFor(route, c.req.raw, await fetchBodyOf(c.req.raw));
    app.on(route.method, route.path, honoIdempotency(route.options), handler);
  }
  return listenFetch(async (request) => app.fetch(request));
}

export async function serveOnFastify(routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const app = Fastify({ logger: false });
  // Any other type as its bytes (Fastify would answer 415 itself); JSON and text keep their parsers.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error, _request, reply) => {
    const status = clientErrorStatus(error);
    const answer = status === undefined ? { status: 500, headers: {}, body: 'internal error' } : frameworkProblem(status);
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
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
