/**
 * What only Koa has, on Koa 3 and Koa 2: `ctx.body` in each form Koa sends (an object as JSON, a
 * string, a Buffer, null, a status without a body) stored and replayed byte for byte with its
 * headers; stream bodies that pass through; `ctx.throw` and thrown errors that give the key back
 * to Koa's own error handling; `ctx.state.idempotency`; `ctx.respond = false`; 50 duplicates.
 */
import { bodyParser } from '@koa/bodyparser';
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionContext } from '../../src/index.js';
import { createSuiteClient } from '../../src/testing/adapter-suite.js';
import { expectProblem, newKey, newProbe } from '../../src/testing/adapter-suite-expect.js';
import { deferred, sleep, type Deferred } from '../../src/testing/adapter-suite-routes.js';
import { frameworkMajors } from '../support/framework-majors.js';
import { serveKoaApp, type KoaTestApp } from './suite/koa-app.js';
import type { KoaModule } from './suite/koa-server.js';

/** GETs nothing: POSTs `body` and resolves with the first chunk of the answer while the rest may still be coming. */
function firstChunk(url: string, key: string): Promise<{ status: number; first: string; rest: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { authorization: 'Bearer alice', 'idempotency-key': key, 'content-type': 'application/json' } }, (res) => {
      res.setEncoding('utf8');
      res.once('data', (first: string) => {
        let rest = '';
        res.on('data', (chunk: string) => (rest += chunk));
        resolve({ status: res.statusCode ?? 0, first, rest: new Promise((done) => res.on('end', () => done(rest))) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const majors = await frameworkMajors<KoaModule>('Koa', [[3, 'koa'], [2, 'koa2']], 'runs the Koa-specific tests');

describe.each(majors.map(({ major, loaded }) => [major, loaded] as const))('koa %i', (_major, Koa) => {
  let app: KoaTestApp;
  const client = createSuiteClient(() => app.url);
  const { call } = client;
  const eventGate = new Map<string, Deferred>();
  let seenContext: ActionContext | undefined;
  const upstreamSaw: string[] = []; // what middleware mounted before saw as ctx.body, per request

  beforeAll(async () => {
    app = await serveKoaApp(Koa, ({ app: koa, router, idempotent, run }) => {
      koa.use(async (ctx, next) => {
        await next();
        if (ctx.path === '/object') upstreamSaw.push(Buffer.isBuffer(ctx.body) ? 'buffer' : typeof ctx.body);
      });
      const probe = (ctx: { get(name: string): string }) => ctx.get('x-probe') || undefined;
      router.post('/object', bodyParser(), idempotent(), async (ctx) => {
        const n = run(probe(ctx));
        ctx.status = 201;
        ctx.set('location', `/things/${n}`);
        ctx.set('etag', `"v${n}"`);
        ctx.set('x-private', 'not replayed');
        ctx.body = { id: randomUUID(), run: n, amount: (ctx.request.body as { amount?: number }).amount, note: 'caf\u00e9 \u2713' };
      });
      router.post('/string', bodyParser(), idempotent(), async (ctx) => {
        ctx.body = `<p>run ${run(probe(ctx))} ${randomUUID()}</p>`; // Koa types it text/html
      });
      router.post('/buffer', bodyParser(), idempotent(), async (ctx) => {
        run(probe(ctx));
        ctx.type = 'image/png';
        ctx.body = randomBytes(2048);
      });
      router.post('/untyped', bodyParser(), idempotent(), async (ctx) => {
        ctx.body = Buffer.from(`run ${run(probe(ctx))}`);
        ctx.remove('Content-Type'); // Koa then sends the bytes without a type
      });
      router.post('/null', bodyParser(), idempotent(), async (ctx) => {
        run(probe(ctx));
        ctx.set('location', '/gone');
        ctx.body = null; // Koa: 204, no content headers
      });
      router.post('/accepted', bodyParser(), idempotent(), async (ctx) => {
        run(probe(ctx));
        ctx.body = null;
        ctx.status = 202; // explicitly empty, not 204
      });
      router.post('/status-only', bodyParser(), idempotent(), async (ctx) => {
        run(probe(ctx));
        ctx.status = 201; // Koa sends its status text, "Created"
      });
      router.post('/events', bodyParser(), idempotent(), async (ctx) => {
        run(probe(ctx));
        const gate = eventGate.get(ctx.get('idempotency-key'));
        ctx.type = 'text/event-stream';
        ctx.body = Readable.from((async function* () {
          yield 'data: one\n\n';
          await gate?.promise;
          yield 'data: two\n\n';
        })());
      });
      router.post('/big-stream', bodyParser(), idempotent({ maxBodyBytes: 1024 }), async (ctx) => {
        run(probe(ctx));
        ctx.set('location', '/exports/1');
        ctx.type = 'text/plain';
        ctx.body = Readable.from(Array.from({ length: 8 }, (_, i) => String(i).repeat(1024)));
        ctx.length = 8192; // a length the handler knows (a file's size) is kept
      });
      router.post('/throw-400', bodyParser(), idempotent(), async (ctx) => {
        if (run(probe(ctx)) === 1) ctx.throw(400, 'amount is not a number');
        ctx.status = 201;
        ctx.body = { ok: true, id: randomUUID() };
      });
      router.post('/throw', bodyParser(), idempotent(), async (ctx) => {
        if (run(probe(ctx)) === 1) throw new Error('database went away');
        ctx.status = 201;
        ctx.body = { ok: true, id: randomUUID() };
      });
      router.post('/slow', bodyParser(), idempotent(), async (ctx) => {
        const n = run(probe(ctx));
        await sleep(200);
        ctx.status = 201;
        ctx.body = { run: n, id: randomUUID() };
      });
      router.post('/context', bodyParser(), idempotent(), async (ctx) => {
        seenContext = ctx.state.idempotency as ActionContext;
        ctx.body = { lockVersion: seenContext.lockVersion, reclaimed: seenContext.reclaimed };
      });
      router.post('/hang-up', bodyParser(), idempotent(), async (ctx) => {
        const signal = (ctx.state.idempotency as ActionContext).signal;
        const outcome = await new Promise<string>((resolve) => {
          const timer = setTimeout(() => resolve('not aborted'), 3_000);
          signal.addEventListener('abort', () => (clearTimeout(timer), resolve('aborted')));
        });
        run(`hang-up:${outcome}`);
        ctx.body = { outcome };
      });
      router.post('/raw', bodyParser(), idempotent(), async (ctx) => {
        const n = run(probe(ctx));
        ctx.respond = false; // the handler writes Node's response itself
        ctx.res.writeHead(201, { 'content-type': 'text/plain' });
        ctx.res.end(`raw run ${n}`);
      });
    });
  });
  afterAll(async () => {
    await client.close();
    await app?.close();
  });

  it.each([
    ['/object', 201, /^application\/json; charset=utf-8$/],
    ['/string', 200, /^text\/html; charset=utf-8$/],
    ['/buffer', 200, /^image\/png$/],
    ['/untyped', 200, undefined],
    ['/null', 204, undefined],
    ['/accepted', 202, undefined],
    ['/status-only', 201, /^text\/plain; charset=utf-8$/],
  ] as const)('stores %s as Koa sent it and replays it byte for byte with its headers', async (path, status, type) => {
    const key = newKey();
    const probe = newProbe();
    const first = await call(path, { key, body: { amount: 10 }, headers: { 'x-probe': probe } });
    expect(first.status).toBe(status);
    expect(first.header('idempotent-replayed')).toBeUndefined();
    if (type) expect(first.header('content-type')).toMatch(type);
    else expect(first.header('content-type')).toBeUndefined();
    expect((await app.store.get({ key, scope: 'alice' }))?.status).toBe('COMPLETED'); // stored before it was sent

    const replay = await call(path, { key, body: { amount: 10 }, headers: { 'x-probe': probe } });
    expect(replay.status).toBe(status);
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(Buffer.from(replay.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    for (const name of ['content-type', 'content-length', 'location', 'etag']) expect({ name, value: replay.header(name) }).toEqual({ name, value: first.header(name) });
    expect(replay.header('x-private')).toBeUndefined(); // not allow-listed
    expect(app.count(probe)).toBe(1);
    if (path === '/status-only') expect(first.text).toBe('Created');
    if (path === '/object') expect(first.json<{ note: string; amount: number }>()).toMatchObject({ note: 'caf\u00e9 \u2713', amount: 10 });
    if (status === 204 || status === 202) expect(first.bytes.byteLength).toBe(0);
    else expect(first.bytes.byteLength).toBeGreaterThan(0);
  });

  it('leaves the stored bytes on ctx.body, so middleware before it sees the same value first time and on replay', async () => {
    const key = newKey();
    upstreamSaw.length = 0;
    await call('/object', { key, body: { amount: 1 } });
    await call('/object', { key, body: { amount: 1 } });
    expect(upstreamSaw).toEqual(['buffer', 'buffer']);
  });

  it('passes an event stream through as it is written, and records its status and headers only', async () => {
    const key = newKey();
    const gate = deferred();
    eventGate.set(key, gate);
    const live = await firstChunk(`${app.url}/events`, key);
    expect(live.status).toBe(200);
    expect(live.first).toBe('data: one\n\n'); // arrived while the handler's stream is still open
    gate.resolve();
    expect(await live.rest).toBe('data: two\n\n');
    const replay = await call('/events', { key, body: {} });
    expect(replay.status).toBe(200);
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.bytes.byteLength).toBe(0);
    expect(replay.header('content-type')).toBeUndefined(); // no body, so no type to parse it by
  });

  it('sends a stream past maxBodyBytes whole, and replays its status and headers without the body', async () => {
    const key = newKey();
    const probe = newProbe();
    const first = await call('/big-stream', { key, body: {}, headers: { 'x-probe': probe } });
    expect(first.status).toBe(200);
    expect(first.text).toBe(Array.from({ length: 8 }, (_, i) => String(i).repeat(1024)).join(''));
    expect(first.header('content-length')).toBe('8192');
    const replay = await call('/big-stream', { key, body: {}, headers: { 'x-probe': probe } });
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.header('location')).toBe('/exports/1');
    expect(replay.bytes.byteLength).toBe(0);
    expect(app.count(probe)).toBe(1);
  });

  it.each([
    ['/throw-400', 400, 'amount is not a number'], // ctx.throw: Koa exposes a 4xx message
    ['/throw', 500, 'Internal Server Error'],
  ] as const)('gives the key back when %s throws, and Koa answers the error; the retry runs, then replays', async (path, status, text) => {
    const key = newKey();
    const probe = newProbe();
    const failed = await call(path, { key, body: {}, headers: { 'x-probe': probe } });
    expect(failed.status).toBe(status);
    expect(failed.text).toBe(text); // Koa's own error handling answered
    expect(await app.store.get({ key, scope: 'alice' })).toBeNull(); // released before the answer went out
    const retried = await call(path, { key, body: {}, headers: { 'x-probe': probe } });
    expect(retried.status).toBe(201);
    expect(retried.header('idempotent-replayed')).toBeUndefined();
    const replay = await call(path, { key, body: {}, headers: { 'x-probe': probe } });
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retried.text);
    expect(app.count(probe)).toBe(2);
  });

  it('runs 50 concurrent duplicates of one key once; the others get 409 in_progress or the replay', async () => {
    const key = newKey();
    const probe = newProbe();
    const results = await Promise.all(Array.from({ length: 50 }, () => call('/slow', { key, body: { amount: 5 }, headers: { 'x-probe': probe } })));
    expect(app.count(probe)).toBe(1);
    const fresh = results.filter((r) => r.status === 201 && r.header('idempotent-replayed') === undefined);
    expect(fresh).toHaveLength(1);
    for (const result of results) {
      if (result === fresh[0]) continue;
      if (result.status === 409) expectProblem(result, 409, 'in_progress');
      else {
        expect(result.header('idempotent-replayed')).toBe('true');
        expect(result.text).toBe(fresh[0]!.text);
      }
    }
  });

  it('puts the held key on ctx.state.idempotency: signal, lockVersion, reclaimed', async () => {
    const result = await call('/context', { key: newKey(), body: {} });
    expect(result.status).toBe(200);
    expect(seenContext?.signal).toBeInstanceOf(AbortSignal);
    expect(seenContext?.signal.aborted).toBe(false);
    expect(result.json()).toEqual({ lockVersion: seenContext?.lockVersion, reclaimed: false });
    expect(typeof seenContext?.lockVersion).toBe('number');
  });

  it('aborts ctx.state.idempotency.signal when the client hangs up mid-request', async () => {
    const req = httpRequest(`${app.url}/hang-up`, { method: 'POST', headers: { authorization: 'Bearer alice', 'idempotency-key': newKey(), 'content-type': 'application/json' } });
    req.on('error', () => {}); // the hang-up below
    req.end('{}');
    await sleep(200);
    req.destroy();
    await expect.poll(() => app.count('hang-up:aborted'), { timeout: 5_000 }).toBe(1);
    expect(app.count('hang-up:not aborted')).toBe(0);
  });

  it('gives the key back once a response that bypassed Koa (ctx.respond = false) ends: it cannot be recorded', async () => {
    const key = newKey();
    const probe = newProbe();
    const first = await call('/raw', { key, body: {}, headers: { 'x-probe': probe } });
    expect([first.status, first.text]).toEqual([201, 'raw run 1']);
    await expect.poll(async () => app.store.get({ key, scope: 'alice' })).toBeNull();
    const again = await call('/raw', { key, body: {}, headers: { 'x-probe': probe } });
    expect([again.status, again.text, again.header('idempotent-replayed')]).toEqual([201, 'raw run 2', undefined]);
  });
});
