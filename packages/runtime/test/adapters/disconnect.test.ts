/**
 * A client that goes away mid-request reaches the handler as an abort of its signal (issue 11 #5):
 * Express puts the held key's context on res.locals.idempotency; the handler decides what to do.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { createIdempotency, type ActionContext } from '../../src/index.js';
import { idempotencyMiddleware } from '../../src/adapters/express/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

describe('client disconnect', () => {
  it('Express: the handler sees its signal abort when the client closes the connection', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    let seen: 'aborted' | 'not aborted' | undefined;
    const app = express();
    app.post('/reports', express.json(), idempotencyMiddleware({ idempotency, scope: 'global' }), async (_req, res) => {
      const { signal } = res.locals.idempotency as ActionContext;
      seen = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve('not aborted'), 3_000);
        signal.addEventListener('abort', () => (clearTimeout(timer), resolve('aborted')));
      });
      if (!res.writableEnded) res.status(201).json({ done: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/reports', headers: { 'content-type': 'application/json', 'idempotency-key': 'report-1' } });
      client.on('error', () => {}); // the abort below
      client.end('{"month":"2026-11"}');
      await new Promise((resolve) => setTimeout(resolve, 200)); // the handler is running
      client.destroy();
      await expect.poll(() => seen, { timeout: 5_000 }).toBe('aborted');
    } finally {
      server.close();
    }
  });
});
