/**
 * Issue 9's seam: a framework we do not ship (bare `node:http`) adapted in about 50 lines with
 * only the public `/http` subpath's exports passes the whole shared adapter suite.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { expect, it } from 'vitest';
import { runAdapterSuite, type SuiteRoute } from '../../src/testing/adapter-suite.js';
import { chunksOf, listenOnLoopback } from './suite/listen.js';
import { withNodeIdempotency } from './suite/node-http-adapter.js';
import { interpretBody } from '../../src/adapters/http/index.js';

async function serveOnNodeHttp(routes: readonly SuiteRoute[]) {
  const handlers = new Map(
    routes.map((route) => [
      `${route.method} ${route.path}`,
      withNodeIdempotency(async (req, res) => {
        // The app's own body reading: whatever the middleware left on req.body, else the stream.
        const left = (req as { body?: unknown }).body;
        const body = left !== undefined || req.readableEnded ? left : interpretBody(await readAll(req), req.headers['content-type']);
        const result = await route.handle({ method: req.method ?? 'GET', header: (name) => req.headers[name] as string | undefined, body });
        res.writeHead(result.status, result.headers ?? {});
        if (!result.chunks) return void res.end(typeof result.body === 'string' ? result.body : Buffer.from(result.body ?? ''));
        for await (const chunk of chunksOf(result)) res.write(chunk);
        res.end();
      }, route.options),
    ]),
  );
  return listenOnLoopback(
    createServer((req, res) => {
      const handler = handlers.get(`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`);
      if (!handler) return void res.writeHead(404).end();
      void handler(req, res);
    }),
  );
}

async function readAll(req: AsyncIterable<Buffer>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
}

runAdapterSuite({ name: 'node:http (third-party, /http only)', createServer: serveOnNodeHttp });

it('the node:http adapter is about 50 lines of code and imports only the /http subpath', () => {
  const source = readFileSync(new URL('./suite/node-http-adapter.ts', import.meta.url), 'utf8');
  const code = source.split('\n').filter((line) => line.trim() !== '' && !/^\s*(\/\*\*|\*|\/\/)/.test(line));
  expect(code.length).toBeLessThanOrEqual(55);
  const imports = [...source.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
  expect(imports.filter((specifier) => !specifier!.startsWith('node:'))).toEqual(['../../../src/adapters/http/index.js']);
});
