/**
 * Next.js pages-router API routes in the generated TypeScript: a `(req, res)` handler gets
 * next-pages.ts (withIdempotency on the runtime's HTTP adapter SDK), not the Fetch-API glue, and
 * the document no longer warns that the glue does not fit. The generated file compiles with tsc
 * and runs on a real node:http server.
 *
 * Next itself is not installed here (and is not installed for this test): the usage file declares
 * NextApiRequest/NextApiResponse with the shape of next's own types (next/dist/shared/lib/utils.d.ts),
 * and the server mimics Next's apiResolver — the JSON body read and parsed into req.body before the
 * handler runs, res.status()/json()/send() ending in res.end() — without its ETag handling.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { fixture, GENERATED_AT } from './fixtures.js';
import { runGeneratedVitest } from './support/generated-vitest.js';
import { compileTypeScript } from './support/typescript-compiler.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

const base = fixture('express-postgres-stripe');
const answers = answersSchema.parse({
  ...base,
  stack: { ...base.stack, framework: 'nextjs', database: 'sqlite' },
  actions: [
    {
      name: 'createOrder', kind: 'http', description: 'Creates the order and charges it', method: 'POST', route: '/api/orders',
      significantFields: ['listingId', 'quantity'], provider: 'stripe', location: 'src/pages/api/orders/index.ts:4',
    },
    {
      name: 'refundOrder', kind: 'http', description: 'Refunds an order', method: 'POST', route: '/api/orders/:id/refund',
      significantFields: ['reason'], provider: 'stripe', location: 'app/api/orders/[id]/refund/route.ts:3',
    },
  ],
});
const model = buildDesign(answers, { generatedAt: GENERATED_AT });
const file = (path: string) => model.artifacts.find((a) => a.path === path)?.content;

/** pages/api/orders/index.ts as a user writes it with the glue, typed with next's own types (copied in shape). */
const ROUTE = `import type { IncomingMessage, ServerResponse } from 'node:http';
import { withIdempotency } from './next-pages.js';

// next's NextApiRequest and NextApiResponse, copied in shape (next is not installed here).
export interface NextApiRequest extends IncomingMessage {
  query: Partial<{ [key: string]: string | string[] }>;
  cookies: Partial<{ [key: string]: string }>;
  body: any;
}
type Send<T> = (body: T) => void;
export type NextApiResponse<Data = any> = ServerResponse & {
  send: Send<Data>;
  json: Send<Data>;
  status: (statusCode: number) => NextApiResponse<Data>;
};

export let runs = 0;
export default withIdempotency('createOrder', (req: NextApiRequest) => req.headers['x-user'] as string | undefined, async (req: NextApiRequest, res: NextApiResponse) => {
  runs += 1;
  const { listingId, quantity } = req.body as { listingId: string; quantity: number };
  await new Promise((resolve) => setTimeout(resolve, 100)); // long enough for duplicates to overlap
  res.setHeader('Location', \`/api/orders/ord_\${runs}\`);
  res.status(201).json({ id: \`ord_\${runs}\`, listingId, quantity });
});
`;

/** The route on a node:http server that does what Next's apiResolver does before and around a handler; the assertions. */
const USAGE = `import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import route, { runs, type NextApiRequest, type NextApiResponse } from './orders-route.js';

/** Next's apiResolver, reduced to what a handler sees: the body read and parsed into req.body, status()/json()/send(). */
function apiResolver(handler: (req: NextApiRequest, res: NextApiResponse) => unknown) {
  return async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const req = incoming as NextApiRequest;
    const res = outgoing as NextApiResponse;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    req.body = /json/.test(req.headers['content-type'] ?? '') && text ? JSON.parse(text) : text;
    req.query = {};
    req.cookies = {};
    res.status = (code) => {
      res.statusCode = code;
      return res;
    };
    res.send = (body) => {
      const payload = typeof body === 'string' ? body : JSON.stringify(body);
      res.setHeader('Content-Length', Buffer.byteLength(payload));
      res.end(payload);
    };
    res.json = (body) => {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.send(JSON.stringify(body));
    };
    await handler(req, res);
  };
}

const server = createServer((req, res) => void apiResolver(route)(req, res));
let url = '';
const post = (key: string | undefined, body: unknown, user: string | null = 'usr-1') => fetch(\`\${url}/api/orders\`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}), ...(user ? { 'x-user': user } : {}) },
  body: JSON.stringify(body),
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = \`http://127.0.0.1:\${(server.address() as AddressInfo).port}\`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('next-pages.ts on a node:http server that parses bodies like apiResolver', () => {
  it('runs once, replays status, headers and body, refuses a changed significant field with 409', async () => {
    const first = await post('key-1', { listingId: 'l-1', quantity: 2, note: 'gift' });
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body).toEqual({ id: 'ord_1', listingId: 'l-1', quantity: 2 });
    expect(runs).toBe(1);
    // A field outside the plan's significant ones (note) is not part of the fingerprint.
    const retry = await post('key-1', { listingId: 'l-1', quantity: 2, note: 'other' });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('location')).toBe('/api/orders/ord_1');
    expect(retry.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await retry.json()).toEqual(body);
    expect(runs).toBe(1);
    const changed = await post('key-1', { listingId: 'l-1', quantity: 3 });
    expect(changed.status).toBe(409);
    expect(changed.headers.get('content-type')).toMatch(/^application\\/problem\\+json/);
    expect(await changed.json()).toMatchObject({ status: 409, code: 'fingerprint_mismatch' });
    expect(runs).toBe(1);
  });

  it('runs the handler exactly once for 20 concurrent duplicates', async () => {
    const before = runs;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post('key-burst', { listingId: 'l-2', quantity: 1 })));
    expect(runs - before).toBe(1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    for (const a of answers.filter((x) => x.status === 409)) expect(await a.json()).toMatchObject({ code: 'in_progress' });
  });

  it('refuses a missing key (400) and an anonymous caller (401) as problem+json, without running the handler', async () => {
    const before = runs;
    const missing = await post(undefined, { listingId: 'l-3', quantity: 1 });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('content-type')).toMatch(/^application\\/problem\\+json/);
    const anonymous = await post('key-anon', { listingId: 'l-3', quantity: 1 }, null);
    expect(anonymous.status).toBe(401);
    expect(runs).toBe(before);
  });
});
`;

describe('Next.js pages-router routes in the generated TypeScript', () => {
  const workspace = makeWorkspace('next-pages');
  afterAll(() => workspace.remove());

  it('get next-pages.ts with the plan’s fields; app-router routes keep fetch.ts; the document no longer warns', () => {
    const pages = file('next-pages.ts') ?? '';
    expect(pages).toContain('export type PagesAction = "createOrder";');
    expect(pages).toContain("from '@idempotency-builder/runtime/http'");
    expect(pages).toContain('fingerprint: SIGNIFICANT[action].fields.length > 0 ? { bodyFields: SIGNIFICANT[action].fields } : {}');
    expect(file('fingerprints.ts')).toContain('createOrder: { method: "POST", path: "/api/orders", fields: ["listingId","quantity"] }');
    const fetchGlue = file('fetch.ts') ?? '';
    expect(fetchGlue).toContain('export type HeaderAction = "refundOrder";');
    expect(fetchGlue).not.toContain('createOrder');
    const markdown = renderMarkdown(model);
    // The old warning: fetch.ts 'does not fit' pages routes, use Express middleware, 'has not run it under Next.js'.
    expect(markdown).not.toContain('does not fit');
    expect(markdown).not.toContain('has not run it under Next.js');
    expect(markdown).toContain('next-pages.ts');
    expect(markdown).toContain('wrap its default export with `withIdempotency` from `next-pages.ts`');
  });

  it('compiles with tsc against the runtime and, on a node:http server, replays, refuses and runs 20 duplicates once', async () => {
    writeArtifacts(workspace.dir, model.artifacts.filter((a) => a.language === 'typescript'));
    writeFileSync(join(workspace.dir, 'orders-route.ts'), ROUTE);
    writeFileSync(join(workspace.dir, 'next-pages-usage.test.ts'), USAGE);
    const compiled = await compileTypeScript(workspace.dir);
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
    const stdout = await runGeneratedVitest(workspace.dir, 'next-pages-usage.test.ts', { IDEMPOTENCY_DB: join(workspace.dir, 'idempotency.db') });
    expect(stdout).toMatch(/Tests\s+3 passed/);
  }, 180_000);
});
