/**
 * The webhook endpoint mounted on Express 5, Fastify 5, Hono 4 and a plain fetch handler, each
 * over real HTTP on loopback with the raw-body setup the docs prescribe; then two app instances
 * sharing the Redis store (own key prefix) taking concurrent duplicate deliveries.
 */
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import {
  createWebhookHandler,
  expressWebhook,
  fastifyWebhook,
  fetchWebhook,
  honoWebhook,
  rawBodyParser,
  stripeProvider,
  type WebhookHandler,
  type WebhookRequest,
} from '../../src/webhooks/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { countingHandler, engine, stripe, STRIPE_SECRET, stripeDelivery } from './helpers.js';

interface Mounted {
  readonly url: string;
  close(): Promise<void>;
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/stripe`;

async function mountExpress(webhook: WebhookHandler): Promise<Mounted> {
  const app = express();
  app.post('/webhooks/stripe', express.raw({ type: '*/*' }), expressWebhook(webhook));
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return { url: urlOf(server), close: () => closeServer(server) };
}

/** Express 4 from the `express4` alias dev dependency (typed with Express 5's types: same surface here). */
const express4Alias = 'express4'; // a variable specifier: the alias may not be installed
const express4 = (await serviceAvailable('Express 4 (the "express4" alias dev dependency)', () => import(express4Alias)))
  ? ((await import(express4Alias)) as { default: typeof express }).default
  : undefined;

async function mountExpress4(webhook: WebhookHandler): Promise<Mounted> {
  const app = express4!();
  app.post('/webhooks/stripe', express4!.raw({ type: '*/*' }), expressWebhook(webhook));
  const server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  return { url: urlOf(server), close: () => closeServer(server) };
}

async function mountFastify(webhook: WebhookHandler): Promise<Mounted> {
  const app = Fastify();
  await app.register(async (hooks) => {
    rawBodyParser(hooks);
    hooks.post('/webhooks/stripe', fastifyWebhook(webhook));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: urlOf(app.server), close: () => app.close() };
}

async function serveFetch(handler: (request: Request) => Response | Promise<Response>): Promise<Mounted> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  return { url: urlOf(server), close: () => closeServer(server) };
}

async function mountHono(webhook: WebhookHandler): Promise<Mounted> {
  const app = new Hono();
  app.post('/webhooks/stripe', honoWebhook(webhook));
  return serveFetch(app.fetch);
}

const mountFetch = (webhook: WebhookHandler) => serveFetch(fetchWebhook(webhook));

function post(url: string, delivery: WebhookRequest) {
  return fetch(url, { method: 'POST', headers: delivery.headers as Record<string, string>, body: delivery.rawBody as Uint8Array<ArrayBuffer> });
}

describe.each([
  { name: 'express 5', mount: mountExpress },
  ...(express4 ? [{ name: 'express 4', mount: mountExpress4 }] : []),
  { name: 'fastify', mount: mountFastify },
  { name: 'hono', mount: mountHono },
  { name: 'fetch', mount: mountFetch },
])('stripe webhook on $name', ({ mount }) => {
  it('verifies the raw body, dedupes replays and concurrent duplicates, refuses forgeries', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const server = await mount(createWebhookHandler({ idempotency, provider: stripeProvider({ stripe, secret: STRIPE_SECRET }), handler: counter.handler }));
    try {
      const first = await post(server.url, stripeDelivery('evt_m1', 1_764_000_000));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: true });
      const replay = await post(server.url, stripeDelivery('evt_m1', 1_764_000_000));
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      await replay.arrayBuffer();

      const forged = await post(server.url, stripeDelivery('evt_m2', 1_764_000_000, {}, 'whsec_other'));
      expect(forged.status).toBe(400);
      expect(forged.headers.get('content-type')).toBe('application/problem+json');
      expect((await forged.json()).code).toBe('invalid_signature');
      expect(store.records.size).toBe(1);

      // a burst of 10 duplicates: the first holds the event until the other 9 were answered 409
      counter.hold();
      const pending = Array.from({ length: 10 }, () => post(server.url, stripeDelivery('evt_m3', 1_764_000_000)));
      const answered: number[] = [];
      for (const promise of pending) void promise.then((response) => answered.push(response.status));
      await vi.waitFor(() => expect(answered).toHaveLength(9), { timeout: 5_000 });
      expect(answered).toEqual(Array(9).fill(409));
      counter.release();
      const burst = await Promise.all(pending);
      await Promise.all(burst.map((response) => response.arrayBuffer()));
      expect(burst.map((response) => response.status).filter((status) => status === 200)).toHaveLength(1);
      expect(counter.runs.get('evt_m1')).toBe(1);
      expect(counter.runs.get('evt_m3')).toBe(1);
      expect(counter.total()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('mount misconfiguration', () => {
  it('express without express.raw() fails loudly and runs nothing', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const app = express();
    let seen: unknown;
    app.post('/webhooks/stripe', express.json(), expressWebhook(createWebhookHandler({ idempotency, provider: stripeProvider({ stripe, secret: STRIPE_SECRET }), handler: counter.handler })));
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen = error;
      res.status(500).end();
    });
    const server = await new Promise<Server>((resolve) => {
      const started = app.listen(0, '127.0.0.1', () => resolve(started));
    });
    try {
      const response = await post(urlOf(server), stripeDelivery('evt_json', 1));
      expect(response.status).toBe(500);
      expect(String(seen)).toMatch(/express\.raw/);
      expect(counter.total()).toBe(0);
      expect(store.records.size).toBe(0);
    } finally {
      await closeServer(server);
    }
  });
});

const redisUp = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));
const redis = redisUp ? new Redis({ port: 6379, host: '127.0.0.1' }) : undefined;
const prefix = `t:webhooks:${process.pid}:${Date.now().toString(36)}:`;
afterAll(async () => {
  if (!redis) return;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) await redis.del(key);
  } while (cursor !== '0');
  redis.disconnect();
});

describe.skipIf(!redisUp)('two app instances on the Redis store', () => {
  it('runs each event exactly once under concurrent duplicate deliveries to both', async () => {
    const counter = countingHandler(20);
    const instances = await Promise.all(
      [mountExpress, mountFastify].map((mount) =>
        mount(
          createWebhookHandler({
            idempotency: createIdempotency({ store: createRedisStore({ client: redis!, prefix }), leaseMs: 5_000 }),
            provider: stripeProvider({ stripe, secret: STRIPE_SECRET }),
            handler: counter.handler,
            waitMs: 3_000, // duplicates wait for the first and answer 200
          }),
        ),
      ),
    );
    try {
      const events = Array.from({ length: 30 }, (_, i) => `evt_r${i}`);
      const deliveries = events.flatMap((id) => [0, 1, 2, 3].map((copy) => ({ url: instances[copy % 2]!.url, delivery: stripeDelivery(id, 1_764_000_000) })));
      const responses = await Promise.all(deliveries.map(({ url, delivery }) => post(url, delivery)));
      await Promise.all(responses.map((response) => response.arrayBuffer()));
      expect(responses.map((response) => response.status)).toEqual(Array(120).fill(200));
      expect(counter.runs.size).toBe(30);
      expect([...counter.runs.values()].every((runs) => runs === 1)).toBe(true);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });
});
