/**
 * The new-key limit shared by many app instances through rate-limiter-flexible's Redis backend:
 * two Express apps (two "instances") count one user's new keys together, against real Redis.
 */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyMiddleware } from '../../src/adapters/express/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import type { SuiteServer } from '../../src/testing/adapter-suite.js';
import { listenOnLoopback } from './suite/listen.js';

const redisUp = await serviceAvailable('Redis', () => probeTcp(6379));

describe.skipIf(!redisUp)('new-key rate limit on RateLimiterRedis across instances', () => {
  const keyPrefix = `idem-test-rl-${randomUUID()}`;
  const clients: Redis[] = [];
  const servers: SuiteServer[] = [];
  let runs = 0;

  beforeAll(async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    for (let instance = 0; instance < 2; instance++) {
      const client = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
      clients.push(client);
      const limiter = new RateLimiterRedis({ storeClient: client, keyPrefix, points: 3, duration: 60 });
      const app = express();
      app.use(express.json());
      app.post('/orders', idempotencyMiddleware({ idempotency, scope: (req) => req.headers['x-user'] as string, rateLimit: { limiter } }), (_req, res) => {
        runs++;
        res.status(201).json({ ok: true });
      });
      servers.push(await listenOnLoopback(app.listen(0, '127.0.0.1')));
    }
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    for (const client of clients) {
      await client.del(`${keyPrefix}:carol`);
      client.disconnect();
    }
  });

  it('counts one user across both instances and answers the 4th new key 429 + Retry-After', async () => {
    const post = (server: SuiteServer, key: string) =>
      fetch(`${server.url}/orders`, { method: 'POST', headers: { 'idempotency-key': key, 'x-user': 'carol', 'content-type': 'application/json' }, body: '{}' });
    const [a, b] = servers as [SuiteServer, SuiteServer];
    const keys = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    expect((await post(a, keys[0]!)).status).toBe(201);
    expect((await post(b, keys[1]!)).status).toBe(201);
    expect((await post(a, keys[2]!)).status).toBe(201);
    const limited = await post(b, keys[3]!);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { code: string }).code).toBe('rate_limited');
    expect(runs).toBe(3);
    // A replay is not a new key: still answered on either instance.
    expect((await post(b, keys[0]!)).headers.get('idempotent-replayed')).toBe('true');
  });
});
