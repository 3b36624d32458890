/**
 * express-idempotency is Express middleware, so it is measured over HTTP: one Express 4 app (from
 * bench/peers) with three routes — the bare handler, our engine in the handler, and the
 * express-idempotency middleware — driven by an undici pool on loopback.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { InProgressError } from '@idempotency-builder/runtime';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import { engineOver, runWith } from './ours.js';
import { PEERS_DIR, REDIS_URL, type Contender, type Handler, type Payload } from './peers.js';

type Middleware = (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void) => unknown;
interface HttpRequest {
  body: Payload;
  get(name: string): string | undefined;
}
interface HttpResponse {
  statusCode: number;
  status(code: number): HttpResponse;
  json(body: unknown): void;
}
interface ExpressApp {
  use(handler: unknown): void;
  post(path: string, ...handlers: Middleware[]): void;
  listen(port: number, host: string, ready: () => void): Server;
}
type ExpressFactory = (() => ExpressApp) & { json(): Middleware };

export type Route = 'plain' | 'ours' | 'express-idempotency';

export interface HttpBench {
  /** A contender whose calls are HTTP requests to `route`. */
  contender(route: Route, label: string, configuration: string): Contender;
  stop(): Promise<void>;
}

/**
 * Starts the app on a free port. `handler` is looked up per request, so each contender's
 * `start(handler)` can swap in its own (counting) handler.
 * @example const http = await startHttpBench('bench-ours:', 'bench-http-'); ...; await http.stop();
 */
export async function startHttpBench(ourPrefix: string, peerPrefix: string, connections = 1_000): Promise<HttpBench> {
  const load = createRequire(join(PEERS_DIR, 'package.json'));
  const express = load('express') as ExpressFactory;
  const { idempotency, getSharedIdempotencyService } = load('express-idempotency') as {
    idempotency: (options: unknown) => Middleware;
    getSharedIdempotencyService: () => { isHit(req: HttpRequest): boolean };
  };
  const RedisAdapter = (load('express-idempotency-redis-adapter') as { default: new (options: unknown) => { connect(): Promise<void>; disconnect(): Promise<void> } }).default;
  const adapter = new RedisAdapter({ connectionConfig: { url: REDIS_URL }, ttl: 3600 });
  await adapter.connect();
  const redis = new Redis({ port: 6379, host: '127.0.0.1', enableAutoPipelining: true });
  let handler: Handler = async (payload) => payload;
  const run = runWith(engineOver(createRedisStore({ client: redis, prefix: ourPrefix })), (payload) => handler(payload));

  const app = express();
  app.use(express.json());
  app.post('/plain', async (req, res) => res.json(await handler(req.body)));
  app.post('/ours', async (req, res) => {
    try {
      res.json(await run(req.get('idempotency-key') ?? '', req.body));
    } catch (error) {
      res.status(error instanceof InProgressError ? 409 : 500).json({ error: String(error) });
    }
  });
  app.post('/express-idempotency', idempotency({ dataAdapter: adapter }), async (req, res) => {
    if (getSharedIdempotencyService().isHit(req)) return; // the middleware answered
    res.json(await handler(req.body));
  });
  app.use((error: unknown, _req: HttpRequest, res: HttpResponse, _next: unknown) =>
    res.status(res.statusCode >= 400 ? res.statusCode : 500).json({ error: String(error) }),
  );
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pool = new Pool(origin, { connections });

  return {
    contender: (route, label, configuration) => ({
      label,
      configuration,
      keyPrefix: route === 'ours' ? ourPrefix : peerPrefix, // express-idempotency stores the raw key
      async start(routeHandler) {
        handler = routeHandler;
        return {
          async invoke(key, payload) {
            const response = await pool.request({
              path: `/${route}`,
              method: 'POST',
              headers: { 'content-type': 'application/json', 'idempotency-key': key },
              body: JSON.stringify(payload),
            });
            const text = await response.body.text();
            if (response.statusCode >= 400) throw new Error(`HTTP ${response.statusCode}: ${text}`);
            return text;
          },
          stop: async () => {},
        };
      },
    }),
    async stop() {
      // express-idempotency stores the response after sending it (fire and forget): let those land.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await pool.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await adapter.disconnect();
      redis.disconnect();
    },
  };
}
