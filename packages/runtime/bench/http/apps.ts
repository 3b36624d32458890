/**
 * The same app on Express 5, Fastify 5, Hono 4 (@hono/node-server) and Koa 3 (@koa/router,
 * @koa/bodyparser): one small JSON handler
 * (read the parsed body, answer 201 with a JSON payment) mounted bare and behind each framework's
 * idempotency adapter. Routes: POST /plain (no adapter), POST /protected, POST /hold (protected;
 * waits until POST /release, so its key stays in progress), POST /release, and POST /least, /engine,
 * /layer (the same handler behind the rungs of adapter-ladder.ts, on the same engine and store).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Idempotency } from '@idempotency-builder/runtime';
import { importRuntime } from '../runtime-import.js';
import { expressGlue, fastifyGlue, honoGlue, koaGlue, protectorFor, RUNGS } from './adapter-ladder.js';

export const FRAMEWORKS = ['express', 'fastify', 'hono', 'koa'] as const;
export type BenchFramework = (typeof FRAMEWORKS)[number];

/** What the handler does, printed with the results. */
export const HANDLER_DESCRIPTION =
  'handler: reads the parsed JSON body {amount, currency, recipient_id} and answers 201 with a JSON payment ' +
  '{id, amount, currency, recipient_id, status} (≈90 bytes) — the same code behind every route';

interface PaymentInput {
  readonly amount?: unknown;
  readonly currency?: unknown;
  readonly recipient_id?: unknown;
}

let created = 0;
/** The handler's work, shared by every framework. */
export const createPayment = (body: PaymentInput) => ({
  id: `pay_${(++created).toString(36).padStart(8, '0')}`,
  amount: body.amount,
  currency: body.currency,
  recipient_id: body.recipient_id,
  status: 'created',
});

/** The hold route's gate: the handler waits on it; the parent opens it with POST /release. */
export interface Gate {
  wait(): Promise<void>;
  open(): void;
}

export interface BenchApp {
  readonly server: Server;
  readonly port: number;
  close(): Promise<void>;
}

const scopeHeader = 'x-user';

async function expressApp(idempotency: Idempotency, gate: Gate): Promise<BenchApp> {
  const [{ default: express }, { idempotencyMiddleware }] = await Promise.all([
    import('express'),
    importRuntime<typeof import('@idempotency-builder/runtime/express')>('express'),
  ]);
  const protect = idempotencyMiddleware({ idempotency, scope: (req) => req.headers[scopeHeader] as string | undefined });
  const app = express();
  app.use(express.json());
  const handler = (req: import('express').Request, res: import('express').Response) => {
    res.status(201).json(createPayment(req.body as PaymentInput));
  };
  app.post('/plain', handler);
  app.post('/protected', protect, handler);
  for (const rung of RUNGS) app.post(`/${rung}`, expressGlue(await protectorFor(rung, idempotency)), handler);
  app.post('/hold', protect, async (req, res) => {
    await gate.wait();
    handler(req, res);
  });
  app.post('/release', (_req, res) => {
    gate.open();
    res.status(204).end();
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

async function fastifyApp(idempotency: Idempotency, gate: Gate): Promise<BenchApp> {
  const [{ default: Fastify }, { idempotencyPlugin }] = await Promise.all([
    import('fastify'),
    importRuntime<typeof import('@idempotency-builder/runtime/fastify')>('fastify'),
  ]);
  const app = Fastify({ logger: false });
  const handler = async (request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) =>
    reply.code(201).send(createPayment(request.body as PaymentInput));
  app.post('/plain', handler);
  app.post('/release', async (_request, reply) => {
    gate.open();
    return reply.code(204).send();
  });
  // The plugin applies to the scope it is registered in: only these two routes are protected.
  await app.register(async (scope) => {
    await scope.register(idempotencyPlugin, { idempotency, scope: (request) => request.headers[scopeHeader] as string | undefined });
    scope.post('/protected', handler);
    scope.post('/hold', async (request, reply) => {
      await gate.wait();
      return handler(request, reply);
    });
  });
  for (const rung of RUNGS) {
    const glue = fastifyGlue(await protectorFor(rung, idempotency));
    await app.register(async (scope) => {
      glue(scope);
      scope.post(`/${rung}`, handler);
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { server: app.server, port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

async function honoApp(idempotency: Idempotency, gate: Gate): Promise<BenchApp> {
  const [{ Hono }, { serve }, adapter] = await Promise.all([
    import('hono'),
    import('@hono/node-server'),
    importRuntime<typeof import('@idempotency-builder/runtime/hono')>('hono'),
  ]);
  const app = new Hono();
  const protect = adapter.idempotency({ idempotency, scope: (c) => c.req.header(scopeHeader) });
  const handler = async (c: import('hono').Context) => c.json(createPayment((await c.req.json()) as PaymentInput), 201);
  app.post('/plain', handler);
  app.post('/protected', protect, handler);
  for (const rung of RUNGS) app.post(`/${rung}`, honoGlue(await protectorFor(rung, idempotency)), handler);
  app.post('/hold', protect, async (c) => {
    await gate.wait();
    return handler(c);
  });
  app.post('/release', (c) => {
    gate.open();
    return c.body(null, 204);
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(listening as Server)) as Server;
  });
  return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

async function koaApp(idempotency: Idempotency, gate: Gate): Promise<BenchApp> {
  const [{ default: Koa }, { default: Router }, { bodyParser }, { idempotencyMiddleware }] = await Promise.all([
    import('koa'),
    import('@koa/router'),
    import('@koa/bodyparser'),
    importRuntime<typeof import('@idempotency-builder/runtime/koa')>('koa'),
  ]);
  type Ctx = import('koa').ParameterizedContext;
  const protect = idempotencyMiddleware({ idempotency, scope: (ctx) => ctx.req.headers[scopeHeader] as string | undefined });
  const parse = bodyParser();
  const handler = (ctx: Ctx) => {
    ctx.status = 201;
    ctx.body = createPayment((ctx.request as { body?: PaymentInput }).body ?? {});
  };
  const router = new Router();
  router.post('/plain', parse, handler);
  router.post('/protected', parse, protect, handler);
  for (const rung of RUNGS) router.post(`/${rung}`, parse, koaGlue(await protectorFor(rung, idempotency)), handler);
  router.post('/hold', parse, protect, async (ctx) => {
    await gate.wait();
    handler(ctx);
  });
  router.post('/release', (ctx) => {
    gate.open();
    ctx.status = 204;
  });
  const app = new Koa();
  app.use(router.routes());
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { server, port: (server.address() as AddressInfo).port, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/**
 * Starts the app of one framework on a free loopback port.
 * @example const app = await startApp('fastify', idempotency, gate);
 */
export function startApp(framework: BenchFramework, idempotency: Idempotency, gate: Gate): Promise<BenchApp> {
  if (framework === 'express') return expressApp(idempotency, gate);
  if (framework === 'fastify') return fastifyApp(idempotency, gate);
  if (framework === 'koa') return koaApp(idempotency, gate);
  return honoApp(idempotency, gate);
}
