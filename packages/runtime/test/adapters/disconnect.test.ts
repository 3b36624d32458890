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
import 'reflect-metadata';
import { Controller, Module, Post, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Idempotent, idempotencyContext } from '../../src/adapters/nestjs/index.js';

/** Opens a POST, sends its body, and closes the connection 200 ms later (the handler is running). */
async function postThenHangUp(port: number, path: string): Promise<void> {
  const client = httpRequest({ host: '127.0.0.1', port, method: 'POST', path, headers: { 'content-type': 'application/json', 'idempotency-key': 'report-1' } });
  client.on('error', () => {}); // the hang-up below
  client.end('{"month":"2026-11"}');
  await new Promise((resolve) => setTimeout(resolve, 200));
  client.destroy();
}

/** Resolves how a signal ended: aborted, or still live after 3 s. */
const outcome = (signal: AbortSignal | undefined) =>
  new Promise<'aborted' | 'not aborted'>((resolve) => {
    const timer = setTimeout(() => resolve('not aborted'), 3_000);
    signal?.addEventListener('abort', () => (clearTimeout(timer), resolve('aborted')));
  });

/** Serves an Express app on a free port, posts to it and hangs up, then waits for `seen()` to be `expected`. */
async function hangUpOnExpress<T>(app: ReturnType<typeof express>, seen: () => T | undefined, expected: T): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    await postThenHangUp(port, '/reports');
    await expect.poll(seen, { timeout: 5_000 }).toBe(expected);
  } finally {
    server.close();
  }
}

describe('client disconnect', () => {
  it('Express: the handler sees its signal abort when the client closes the connection', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    let seen: 'aborted' | 'not aborted' | undefined;
    const app = express();
    app.post('/reports', express.json(), idempotencyMiddleware({ idempotency, scope: 'global' }), async (_req, res) => {
      seen = await outcome((res.locals.idempotency as ActionContext).signal);
      if (!res.writableEnded) res.status(201).json({ done: true });
    });
    await hangUpOnExpress(app, () => seen, 'aborted');
  });

  it('Express: a handler that first reads its signal after the client hung up finds it aborted (the signal is made on first read)', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    let seen: boolean | undefined;
    const app = express();
    app.post('/reports', express.json(), idempotencyMiddleware({ idempotency, scope: 'global' }), async (req, res) => {
      // Wait for the hang-up without touching the signal: nothing watches the connection yet.
      await new Promise((resolve) => req.socket.once('close', resolve));
      seen = (res.locals.idempotency as ActionContext).signal.aborted;
      if (!res.writableEnded) res.status(201).json({ done: true });
    });
    await hangUpOnExpress(app, () => seen, true);
  });

  it('NestJS: the handler sees idempotencyContext(request).signal abort when the client closes the connection', async () => {
    const idempotency = createIdempotency({ store: createMemoryStore() });
    let seen: 'aborted' | 'not aborted' | undefined;
    class ReportsController {
      async create(request: object) {
        seen = await outcome(idempotencyContext(request)?.signal);
        return { done: true };
      }
    }
    const descriptor = Object.getOwnPropertyDescriptor(ReportsController.prototype, 'create')!;
    Req()(ReportsController.prototype, 'create', 0);
    Idempotent({ idempotency, scope: 'global' })(ReportsController.prototype, 'create', descriptor);
    Post('reports')(ReportsController.prototype, 'create', descriptor);
    Object.defineProperty(ReportsController.prototype, 'create', descriptor);
    Controller()(ReportsController);
    class AppModule {}
    Module({ controllers: [ReportsController] })(AppModule);
    const app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const { port } = app.getHttpServer().address() as AddressInfo;
      await postThenHangUp(port, '/reports');
      await expect.poll(() => seen, { timeout: 5_000 }).toBe('aborted');
    } finally {
      await app.close();
    }
  });
});
