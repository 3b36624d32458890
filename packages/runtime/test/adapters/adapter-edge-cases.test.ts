/**
 * Paths only one framework has, or that need an engine option the shared suite does not set:
 * a hijacked Fastify reply (never captured) must not leave its key stuck, and a permanent failure
 * (engine `isPermanent`) is replayed as a problem with the first attempt's status.
 */
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { idempotencyPlugin } from '../../src/adapters/fastify/index.js';
import { withIdempotency } from '../../src/adapters/fetch/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

describe('fastify: a hijacked reply', () => {
  it('is not stored and releases its key, so the retry runs again', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store });
    const app = Fastify();
    let runs = 0;
    await app.register(idempotencyPlugin, { idempotency, scope: () => 'alice' });
    app.post('/raw', async (_request, reply) => {
      runs++;
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.end('raw');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/raw`;
      const key = randomUUID();
      const post = () => fetch(url, { method: 'POST', headers: { 'idempotency-key': key, 'content-type': 'application/json' }, body: '{}' });
      expect(await (await post()).text()).toBe('raw');
      for (let i = 0; i < 100 && (await store.get({ key, scope: 'alice' })) !== null; i++) await new Promise((r) => setTimeout(r, 10));
      expect(await store.get({ key, scope: 'alice' })).toBeNull();
      expect(await (await post()).text()).toBe('raw');
      expect(runs).toBe(2);
    } finally {
      await app.close();
    }
  });
});

describe('a permanent failure', () => {
  it('is replayed as replayed_failure with the first status, and the handler does not run again', async () => {
    class PaymentDeclined extends Error {
      readonly statusCode = 402;
    }
    const idempotency = createIdempotency({ store: createMemoryStore(), isPermanent: (error) => error instanceof PaymentDeclined });
    let runs = 0;
    const handler = withIdempotency(
      async () => {
        runs++;
        throw new PaymentDeclined('card declined for order 77');
      },
      { idempotency, scope: () => 'alice' },
    );
    const request = () =>
      new Request('http://localhost/pay', { method: 'POST', headers: { 'idempotency-key': 'k-77', 'content-type': 'application/json' }, body: '{"amount":5}' });
    await expect(handler(request())).rejects.toThrow(PaymentDeclined);
    const replay = await handler(request());
    expect(replay.status).toBe(402);
    expect(replay.headers.get('content-type')).toBe('application/problem+json');
    const body = await replay.text();
    expect(JSON.parse(body)).toMatchObject({ code: 'replayed_failure', status: 402 });
    expect(body).not.toContain('order 77'); // the stored message is not echoed
    expect(runs).toBe(1);
  });
});
