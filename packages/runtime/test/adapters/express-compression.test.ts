/**
 * The Express middleware holds a response by replacing its `writeHead`/`write`/`end`, which other
 * middleware replaces too: `compression` (the usual Express setup), mounted before it (app-wide)
 * or after it (on the route). Either way the client gets the handler's body, a retry gets the
 * same body back (decoded, when compression ran inside the middleware and the retry takes no
 * gzip), and the handler runs once.
 */
import compression from 'compression';
import express from 'express';
import type { Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { idempotencyMiddleware } from '../../src/adapters/express/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { listenOnLoopback } from './suite/listen.js';
import type { SuiteServer } from '../../src/testing/adapter-suite.js';

const servers: SuiteServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A body past compression's 1 KiB threshold, so it is compressed. */
const payment = (run: number) => ({ run, lines: Array.from({ length: 80 }, (_, index) => `line ${index} of the receipt`) });

async function app(order: 'compression first' | 'idempotency first') {
  const idempotent = idempotencyMiddleware({ idempotency: createIdempotency({ store: createMemoryStore() }), scope: () => 'u' });
  const application = express();
  let runs = 0;
  const handler = (_req: express.Request, res: express.Response) => {
    runs++;
    res.status(201).json(payment(runs));
  };
  if (order === 'compression first') {
    application.use(compression());
    application.post('/pay', express.json(), idempotent, handler);
  } else {
    application.post('/pay', express.json(), idempotent, compression(), handler);
  }
  const server = await listenOnLoopback(application.listen(0, '127.0.0.1') as Server);
  servers.push(server);
  return { url: server.url, runs: () => runs };
}

/** A raw POST that asks for gzip, and the body as the client would decode it. */
async function post(url: string, key: string, encoding = 'gzip') {
  const response = await fetch(`${url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'accept-encoding': encoding },
    body: '{"amount":5}',
  });
  // fetch decodes gzip itself; its header still says what came over the wire.
  return { status: response.status, encoding: response.headers.get('content-encoding'), replayed: response.headers.get('idempotent-replayed'), body: (await response.json()) as unknown };
}

describe('express: the capture beside compression', () => {
  for (const order of ['compression first', 'idempotency first'] as const) {
    it(`${order}: the client gets the handler's body, a retry the same body, the handler runs once`, async () => {
      const { url, runs } = await app(order);
      const first = await post(url, `k-${order.replace(' ', '-')}`);
      expect(first.status).toBe(201);
      expect(first.encoding).toBe('gzip');
      expect(first.body).toEqual(payment(1));
      const retry = await post(url, `k-${order.replace(' ', '-')}`);
      expect(retry.status).toBe(201);
      expect(retry.replayed).toBe('true');
      expect(retry.body).toEqual(payment(1));
      expect(runs()).toBe(1);
    });
  }

  for (const order of ['compression first', 'idempotency first'] as const) {
    it(`${order}: a retry that takes no gzip gets the body plain`, async () => {
      const { url } = await app(order);
      await post(url, 'k-plain');
      const plain = await post(url, 'k-plain', 'identity');
      expect(plain.replayed).toBe('true');
      expect(plain.encoding).toBeNull();
      expect(plain.body).toEqual(payment(1));
    });
  }

  it('compression first: the gzip stream that goes out decodes to the handler\'s JSON', async () => {
    const { url } = await app('compression first');
    const { request } = await import('node:http');
    const raw = await new Promise<Buffer>((resolve, reject) => {
      const outgoing = request(`${url}/pay`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k-raw', 'accept-encoding': 'gzip' } }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve(Buffer.concat(chunks)));
        incoming.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end('{"amount":5}');
    });
    expect(JSON.parse(gunzipSync(raw).toString('utf8'))).toEqual(payment(1));
  });
});
