/**
 * The request body on Koa 3 and Koa 2: fingerprinted from `ctx.request.body` as either body parser
 * left it (@koa/bodyparser, koa-bodyparser), or read from `ctx.req` by the middleware itself when
 * no parser ran (and then left parsed on `ctx.request.body` for the handler, so a parser mounted
 * after it still works); a 2 MB body over `maxRequestBytes` is 413 problem+json and claims nothing.
 */
import { bodyParser } from '@koa/bodyparser';
import koaBodyParser from 'koa-bodyparser';
import type Koa from 'koa';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSuiteClient } from '../../src/testing/adapter-suite.js';
import { expectNoStackTrace, expectProblem, newKey, newProbe } from '../../src/testing/adapter-suite-expect.js';
import { frameworkMajors } from '../support/framework-majors.js';
import { serveKoaApp, type KoaTestApp } from './suite/koa-app.js';
import type { KoaModule } from './suite/koa-server.js';

const TWO_MB = 2 * 1024 * 1024;

/** POSTs a 2 MB JSON body, announced (Content-Length) or chunked, and stops sending once answered. */
function postLarge(url: string, key: string, probe: string, { chunked }: { chunked: boolean }): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const body = Buffer.from(`{"pad":"${'x'.repeat(TWO_MB)}"}`);
  const headers: Record<string, string> = { authorization: 'Bearer alice', 'idempotency-key': key, 'content-type': 'application/json', 'x-probe': probe };
  if (chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    let offset = 0;
    const pump = () => {
      while (!answered && offset < body.byteLength) {
        const chunk = body.subarray(offset, offset + 64 * 1024);
        offset += chunk.byteLength;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

const majors = await frameworkMajors<KoaModule>('Koa', [[3, 'koa'], [2, 'koa2']], 'runs the Koa request-body tests');
const PARSERS: ReadonlyArray<readonly [string, () => Koa.Middleware]> = [
  ['@koa/bodyparser', () => bodyParser()],
  ['koa-bodyparser', () => koaBodyParser()],
];

describe.each(majors.map(({ major, loaded }) => [major, loaded] as const))('koa %i: the request body', (_major, Koa) => {
  let app: KoaTestApp;
  const client = createSuiteClient(() => app.url);
  const { call } = client;

  beforeAll(async () => {
    app = await serveKoaApp(Koa, ({ router, idempotent, run }) => {
      // Answers with what the handler found on ctx.request.body, so a test can see who parsed it.
      const echo: Koa.Middleware = async (ctx) => {
        const body: unknown = (ctx.request as { body?: unknown }).body;
        const n = run(ctx.get('x-probe') || undefined);
        ctx.status = 201;
        ctx.body = { run: n, kind: Buffer.isBuffer(body) ? 'bytes' : typeof body, body: Buffer.isBuffer(body) ? body.toString('hex') : body, id: randomUUID() };
      };
      for (const [name, parser] of PARSERS) router.post(`/parsed/${name}`, parser(), idempotent(), echo);
      router.post('/unparsed', idempotent(), echo);
      router.post('/parser-after', idempotent(), bodyParser(), echo);
      router.post('/unparsed-capped', idempotent(), echo); // default cap: 1 MiB
      router.post('/parsed-capped', bodyParser({ jsonLimit: '10mb' }), idempotent(), echo); // the parser would take 10 MB; the route takes 1 MiB
    });
  });
  afterAll(async () => {
    await client.close();
    await app?.close();
  });

  it.each(PARSERS.map(([name]) => [name]))('fingerprints the body %s parsed: key order is not intent, a changed field is', async (name) => {
    const path = `/parsed/${name}`;
    const key = newKey();
    const probe = newProbe();
    const headers = { 'x-probe': probe };
    const first = await call(path, { key, rawBody: '{"amount":10,"currency":"EUR"}', contentType: 'application/json', headers });
    expect(first.status).toBe(201);
    expect(first.json()).toMatchObject({ kind: 'object', body: { amount: 10, currency: 'EUR' } }); // the parser's object reached the handler
    const reordered = await call(path, { key, rawBody: '{"currency":"EUR","amount":10}', contentType: 'application/json', headers });
    expect(reordered.header('idempotent-replayed')).toBe('true');
    expect(reordered.text).toBe(first.text);
    expectProblem(await call(path, { key, rawBody: '{"amount":99,"currency":"EUR"}', contentType: 'application/json', headers }), 409, 'fingerprint_mismatch');

    const formKey = newKey();
    const form = await call(path, { key: formKey, rawBody: 'amount=10&currency=EUR', contentType: 'application/x-www-form-urlencoded', headers });
    expect(form.json()).toMatchObject({ kind: 'object', body: { amount: '10', currency: 'EUR' } });
    expectProblem(await call(path, { key: formKey, rawBody: 'amount=11&currency=EUR', contentType: 'application/x-www-form-urlencoded', headers }), 409, 'fingerprint_mismatch');
    expect(app.count(probe)).toBe(2);
  });

  it('reads the body itself when no parser ran, and leaves it parsed on ctx.request.body for the handler', async () => {
    const cases: ReadonlyArray<readonly [string | null, string, string, unknown]> = [
      ['application/json', '{"amount":10}', '{"amount":11}', { kind: 'object', body: { amount: 10 } }],
      ['text/plain', 'pay 10 EUR', 'pay 11 EUR', { kind: 'string', body: 'pay 10 EUR' }],
      ['application/octet-stream', '\u0001\u0002', '\u0001\u0003', { kind: 'bytes', body: '0102' }],
    ];
    for (const [contentType, body, other, seen] of cases) {
      const key = newKey();
      const probe = newProbe();
      const first = await call('/unparsed', { key, rawBody: body, contentType, headers: { 'x-probe': probe } });
      expect({ contentType, status: first.status }).toEqual({ contentType, status: 201 });
      expect(first.json()).toMatchObject(seen as object);
      const replay = await call('/unparsed', { key, rawBody: body, contentType, headers: { 'x-probe': probe } });
      expect(replay.header('idempotent-replayed')).toBe('true');
      expectProblem(await call('/unparsed', { key, rawBody: other, contentType, headers: { 'x-probe': probe } }), 409, 'fingerprint_mismatch');
      expect({ contentType, runs: app.count(probe) }).toEqual({ contentType, runs: 1 });
    }
  });

  it('answers invalid JSON no parser read with 400 invalid_body, claiming nothing', async () => {
    const key = newKey();
    const probe = newProbe();
    const result = await call('/unparsed', { key, rawBody: '{"amount":', contentType: 'application/json', headers: { 'x-probe': probe } });
    expectProblem(result, 400, 'invalid_body');
    expectNoStackTrace(result);
    expect(await app.store.get({ key, scope: 'alice' })).toBeNull();
    expect(app.count(probe)).toBe(0);
  });

  it('lets a body parser mounted after the middleware find the body already parsed', async () => {
    const key = newKey();
    const first = await call('/parser-after', { key, body: { amount: 7 } });
    expect(first.status).toBe(201);
    expect(first.json()).toMatchObject({ kind: 'object', body: { amount: 7 } });
    expect((await call('/parser-after', { key, body: { amount: 7 } })).header('idempotent-replayed')).toBe('true');
  });

  it.each([
    ['/unparsed-capped', true], // counted as it streams: no Content-Length
    ['/unparsed-capped', false], // refused by its Content-Length before a byte is read
    ['/parsed-capped', false], // the parser read it (its limit is 10 MB): the route's 1 MiB still holds
  ] as const)('answers a 2 MB body on %s (chunked: %s) with 413 problem+json, runs nothing, claims nothing', async (path, chunked) => {
    const key = newKey();
    const probe = newProbe();
    const result = await postLarge(`${app.url}${path}`, key, probe, { chunked });
    expect(result.status).toBe(413);
    expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(result.headers.connection).toBe('close');
    expect(JSON.parse(result.text)).toMatchObject({ status: 413, code: 'body_too_large' });
    expect(await app.store.get({ key, scope: 'alice' })).toBeNull();
    expect(app.count(probe)).toBe(0);
    const small = await call(path, { key, body: { amount: 1 }, headers: { 'x-probe': probe } });
    expect(small.status).toBe(201); // the key is still free
    expect(app.count(probe)).toBe(1);
  });
});
