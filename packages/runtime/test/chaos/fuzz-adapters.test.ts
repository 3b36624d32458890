/**
 * Chaos: a fast-check fuzz run of every shipped adapter over real HTTP. Random bodies (JSON,
 * unhashable JSON, deep nesting, bytes, forms, multipart), content types, keys, headers and query
 * strings; invariants: never a 5xx, never a stack trace or HTML error page, problem+json for every
 * refusal, and no key and user ever gets two fresh (non-replayed) 2xx answers. Runs per adapter:
 * 1,000 by default (all nine in about 20 s here), 10^4 with IDEMPOTENCY_CHAOS_FULL=1, or
 * IDEMPOTENCY_FUZZ_RUNS=n.
 */
import express from 'express';
import fc from 'fast-check';
import Koa from 'koa';
import koaBodyParser from 'koa-bodyparser';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSuiteClient, SuiteState, type CallOptions, type SuiteRoute, type SuiteServer } from '../../src/testing/adapter-suite.js';
import { UNHASHABLE_JSON } from '../../src/testing/adapter-suite-body.js';
import { serveOnExpress } from '../adapters/suite/express-server.js';
import { serveOnKoa } from '../adapters/suite/koa-server.js';
import { serveOnNest } from '../adapters/suite/nest-server.js';
import { serveOnFastify, serveOnFetch, serveOnHono } from '../adapters/suite/servers.js';

const RUNS = Number(process.env.IDEMPOTENCY_FUZZ_RUNS ?? (process.env.IDEMPOTENCY_CHAOS_FULL === '1' ? 10_000 : 1000));
const printable = (max: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: max });

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/merchant+json',
  'application/problem+json',
  'text/plain',
  'text/html; charset=latin1',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/xml',
  'image/png',
];

const bodyArb: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.constantFrom(...Object.values(UNHASHABLE_JSON)),
  fc.integer({ min: 1, max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.uint8Array({ maxLength: 512 }),
  printable(200),
  fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), printable(10)).map((form) => new URLSearchParams(form).toString()),
  fc.constantFrom('{', '{"a":', 'nul', '"\\ud800"', '[1,2', '\u0000', '{"__proto__":{"x":1}}', '{"a":1,"a":2}', '1e999', '-0', '{"n":123456789012345678901234567890}'),
  fc.integer({ min: 1000, max: 2_000_000 }).map((size) => `{"pad":"${'x'.repeat(size)}"}`),
);

const keyArb = fc.oneof(
  fc.constantFrom('k-1', 'k-2', 'k-3', '"k-1"', '"k-2";v=1'), // a small pool: replays and conflicts happen
  printable(40),
  fc.constant(undefined),
  fc.tuple(fc.constantFrom('k-1', 'k-2'), fc.constantFrom('k-3', 'k-4')).map(([a, b]) => [a, b]),
  fc.constant('k'.repeat(300)),
);

const callArb = fc.record({
  path: fc.constantFrom('/echo', '/echo', '/payments', '/fields', '/capped', '/optional'),
  key: keyArb,
  user: fc.constantFrom('alice', 'bob', ''),
  contentType: fc.oneof(fc.constantFrom(...CONTENT_TYPES), fc.constant(null), printable(30)),
  rawBody: bodyArb,
  query: fc.oneof(fc.constant(''), printable(20).map((text) => `?q=${encodeURIComponent(text)}`), fc.constant('?amount=1&amount=2')),
  headers: fc.dictionary(fc.stringMatching(/^x-[a-z]{1,8}$/), printable(30), { maxKeys: 3 }),
  spoof: fc.boolean(),
});

type Serve = (routes: readonly SuiteRoute[]) => Promise<SuiteServer>;
// Koa 2 is the `koa2` npm alias, which has no type declarations of its own: the same shape as Koa 3.
const Koa2 = createRequire(import.meta.url)('koa2') as typeof Koa;
const ADAPTERS: ReadonlyArray<[string, Serve]> = [
  ['express 5', (routes) => serveOnExpress(express, routes)],
  ['fastify 5', serveOnFastify],
  ['hono 4', serveOnHono],
  ['fetch', serveOnFetch],
  ['nestjs 12', serveOnNest],
  ['koa 3 (@koa/bodyparser)', (routes) => serveOnKoa(Koa, routes)],
  ['koa 3 (no body parser)', (routes) => serveOnKoa(Koa, routes, { bodyParser: null })],
  ['koa 3 (koa-bodyparser)', (routes) => serveOnKoa(Koa, routes, { bodyParser: () => koaBodyParser() })],
  ['koa 2 (koa-bodyparser)', (routes) => serveOnKoa(Koa2, routes, { bodyParser: () => koaBodyParser() })],
];

describe.each(ADAPTERS)('fuzz: %s', (name, serve) => {
  const state = new SuiteState();
  let server: SuiteServer | undefined;
  const client = createSuiteClient(() => server!.url);
  beforeAll(async () => {
    server = await serve(state.routes);
  });
  afterAll(async () => {
    await client.close();
    await server?.close();
  });

  it(`answers ${RUNS} random requests without a 5xx or a stack trace, refusals as problem+json`, { timeout: 600_000 }, async () => {
    const statuses = new Map<number, number>();
    const fresh = new Map<string, number>(); // "user|key" -> fresh 2xx answers
    await fc.assert(
      fc.asyncProperty(callArb, async ({ path, spoof, headers, ...call }) => {
        const options: CallOptions = { ...call, headers: spoof ? { ...headers, 'idempotent-replayed': 'true' } : headers };
        const result = await client.call(path, options);
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        const context = { name, path, status: result.status, body: result.text.slice(0, 200) };
        expect(result.status, JSON.stringify(context)).toBeLessThan(500);
        expect(result.text).not.toMatch(/\n\s+at |<html|<pre>|Error: /i);
        if (result.status >= 400) expect(result.header('content-type'), JSON.stringify(context)).toMatch(/^application\/problem\+json/);
        const key = typeof call.key === 'string' ? (/^\s*"([^"]*)"/.exec(call.key)?.[1] ?? call.key.trim()) : ''; // the quoted IETF form is the same key
        // An empty key header is no key: /optional then runs unprotected, as it should.
        if (key !== '' && result.status < 300 && result.header('idempotent-replayed') === undefined) {
          const id = `${call.user}|${key}`;
          fresh.set(id, (fresh.get(id) ?? 0) + 1);
          expect(fresh.get(id), `two executions for ${id}`).toBe(1);
        }
      }),
      { numRuns: RUNS },
    );
    // Runs per key never exceed one per distinct intent: the echo handler counts by probe header.
    expect([...statuses.keys()].some((status) => status < 300)).toBe(true);
    console.info(`[fuzz] ${name}: ${RUNS} cases, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  });
});
