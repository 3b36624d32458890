/**
 * The Hono adapter on a real @hono/node-server: the body is read once from Node's request and
 * left where the server reads bodies from (`incoming.rawBody`), so every way a handler reads it —
 * through Hono, through `c.req.raw`, a clone, a stream, a new Request over it — sees the exact
 * bytes, the request is the server's own (no Request rebuilt, its signal intact), and concurrent
 * duplicates still run the handler once. On the way out, the handler's own Response is stored
 * from the body it holds and sent unread.
 */
import { serve } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { idempotency } from '../../src/adapters/hono/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { unreadBodyOf } from '../../src/adapters/http/lightweight-response.js';
import { fromListening } from './suite/listen.js';
import type { SuiteServer } from '../../src/testing/adapter-suite.js';

type Env = { Variables: { arrived: Request } };

const servers: SuiteServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function listen(app: { fetch: (request: Request, env: unknown) => Response | Promise<Response> }): Promise<string> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server));
  });
  const listening = fromListening(server);
  servers.push(listening);
  return listening.url;
}

/** Every way a handler reads its body, one route each; `runs` counts handler executions per route. */
function app(options: { maxRequestBytes?: number } = {}) {
  const engine = createIdempotency({ store: createMemoryStore() });
  const hono = new Hono<Env>();
  hono.use('*', async (c, next) => {
    c.set('arrived', c.req.raw); // the request as the server made it
    await next();
  });
  const protect = idempotency({ idempotency: engine, scope: () => 'user-1', ...options });
  const runs = new Map<string, number>();
  const route = (path: string, read: (c: Context<Env>) => Promise<unknown>) =>
    hono.post(path, protect, async (c) => {
      runs.set(path, (runs.get(path) ?? 0) + 1);
      const got = await read(c);
      return c.json({ got, sameRequest: c.req.raw === c.get('arrived') }, 201);
    });
  const hex = (buffer: ArrayBuffer) => Buffer.from(buffer).toString('hex');
  route('/json', (c) => c.req.json());
  route('/text', (c) => c.req.text());
  route('/bytes', async (c) => hex(await c.req.arrayBuffer()));
  route('/form', (c) => c.req.parseBody());
  route('/raw-json', (c) => c.req.raw.json());
  route('/raw-bytes', async (c) => hex(await c.req.raw.arrayBuffer()));
  route('/raw-stream', async (c) => new Response(c.req.raw.body).text());
  route('/raw-clone', (c) => c.req.raw.clone().json());
  route('/new-request', (c) => new Request(c.req.raw).json());
  route('/both', async (c) => [await c.req.json(), c.req.raw.bodyUsed]);
  hono.post('/limited', protect, bodyLimit({ maxSize: 1024 }), async (c) => c.json({ got: await c.req.json() }, 201));
  hono.post('/slow', protect, async (c) => {
    runs.set('/slow', (runs.get('/slow') ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return c.json({ got: await c.req.json() }, 201);
  });
  return { hono, runs };
}

const post = (url: string, key: string, body: string | Uint8Array<ArrayBuffer>, type = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': type, 'idempotency-key': key }, body });

describe('hono adapter on @hono/node-server', () => {
  it('gives every kind of read the exact body, on the request the server made, and replays', async () => {
    const { hono } = app();
    const url = await listen(hono);
    const body = '{"amount": 4999, "note": "caf\u00e9"}';
    const parsed = { amount: 4999, note: 'caf\u00e9' };
    for (const [path, expected] of [
      ['/json', parsed],
      ['/text', body],
      ['/bytes', Buffer.from(body).toString('hex')],
      ['/raw-json', parsed],
      ['/raw-bytes', Buffer.from(body).toString('hex')],
      ['/raw-stream', body],
      ['/raw-clone', parsed],
      ['/new-request', parsed],
      ['/both', [parsed, true]],
    ] as const) {
      const response = await post(`${url}${path}`, `k-${path.slice(1)}`, body);
      expect(response.status, path).toBe(201);
      expect(await response.json(), path).toEqual({ got: expected, sameRequest: true });
      const replay = await post(`${url}${path}`, `k-${path.slice(1)}`, body);
      expect(replay.headers.get('idempotent-replayed'), path).toBe('true');
      expect(await replay.json(), path).toEqual({ got: expected, sameRequest: true });
    }
  });

  it('builds no Request for a new key, a replay or a refusal', async () => {
    const { hono } = app();
    const url = await listen(hono);
    const Original = globalThis.Request;
    const built = vi.fn();
    vi.spyOn(globalThis, 'Request').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Request>) {
      built();
      return new Original(...args);
    } as unknown as typeof Request);
    expect((await post(`${url}/json`, 'k-none', '{"a":1}')).status).toBe(201);
    expect((await post(`${url}/json`, 'k-none', '{"a":1}')).headers.get('idempotent-replayed')).toBe('true');
    expect((await post(`${url}/json`, 'k-none', '{"a":2}')).status).toBe(409);
    expect(built).not.toHaveBeenCalled();
  });

  it('keeps bytes that are not UTF-8 exact, and parses a form', async () => {
    const { hono } = app();
    const url = await listen(hono);
    const bytes = new Uint8Array([0xff, 0x00, 0xfe, 0x80, 0x41]);
    const raw = await post(`${url}/raw-bytes`, 'k-bin', bytes, 'application/octet-stream');
    expect(await raw.json()).toEqual({ got: 'ff00fe8041', sameRequest: true });
    const form = await post(`${url}/form`, 'k-form', 'a=1&b=two', 'application/x-www-form-urlencoded');
    expect(await form.json()).toEqual({ got: { a: '1', b: 'two' }, sameRequest: true });
    // Another body under a used key: refused, the handler not run.
    expect((await post(`${url}/raw-bytes`, 'k-bin', new Uint8Array([1]), 'application/octet-stream')).status).toBe(409);
  });

  it('lets Hono middleware after it read the body (bodyLimit builds a Request over c.req.raw)', async () => {
    const { hono } = app();
    const url = await listen(hono);
    const response = await post(`${url}/limited`, 'k-limited', '{"x":[1,2,3]}');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ got: { x: [1, 2, 3] } });
  });

  it('refuses invalid JSON (400) and an announced length over the cap (413) before the handler runs', async () => {
    const { hono, runs } = app({ maxRequestBytes: 16 });
    const url = await listen(hono);
    const invalid = await post(`${url}/json`, 'k-bad', '{"amount":');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/problem\+json/);
    const large = await post(`${url}/json`, 'k-large', JSON.stringify({ note: 'x'.repeat(64) }));
    expect(large.status).toBe(413);
    expect(runs.get('/json')).toBeUndefined();
    // The server still answers on a fresh connection.
    expect((await post(`${url}/json`, 'k-ok', '{"a":1}')).status).toBe(201);
  });

  it('reads the body the old way when a middleware before it built a web Request over Node\'s stream', async () => {
    const engine = createIdempotency({ store: createMemoryStore() });
    const hono = new Hono<Env>();
    let runs = 0;
    hono.post(
      '/touched',
      async (c, next) => {
        c.set('arrived', c.req.raw);
        void c.req.raw.body; // the server builds a web Request whose stream pulls from Node's request
        await next();
      },
      idempotency({ idempotency: engine, scope: () => 'u' }),
      async (c) => {
        runs++;
        return c.json({ got: await c.req.raw.json(), sameRequest: c.req.raw === c.get('arrived') }, 201);
      },
    );
    const url = await listen(hono);
    const response = await post(`${url}/touched`, 'k-touched', '{"n":5}');
    expect(response.status).toBe(201);
    // Read through Hono's cache and handed over as a new Request: Node's stream was left to the server's.
    expect(await response.json()).toEqual({ got: { n: 5 }, sameRequest: false });
    expect((await post(`${url}/touched`, 'k-touched', '{"n":5}')).headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
  });

  it('a client that goes away mid-body claims nothing, and the server keeps answering', async () => {
    const engine = createIdempotency({ store: createMemoryStore() });
    const hono = new Hono();
    let runs = 0;
    hono.post('/pay', idempotency({ idempotency: engine, scope: () => 'u' }), async (c) => {
      runs++;
      return c.json({ got: await c.req.json() }, 201);
    });
    const url = await listen(hono);
    const { port } = new URL(url);
    await new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        // 100 bytes announced, 10 sent, then the connection is cut.
        socket.write('POST /pay HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nidempotency-key: k-cut\r\ncontent-length: 100\r\n\r\n{"amount":');
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', () => {});
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(0);
    expect(await engine.options.store.get({ key: 'k-cut', scope: 'u' })).toBeNull();
    // The same key, sent whole, runs once.
    const whole = await post(`${url}/pay`, 'k-cut', '{"amount":5}');
    expect(whole.status).toBe(201);
    expect(await whole.json()).toEqual({ got: { amount: 5 } });
    expect(runs).toBe(1);
  });

  it('runs the handler once for 40 concurrent duplicates of one key', async () => {
    const { hono, runs } = app();
    const url = await listen(hono);
    const responses = await Promise.all(Array.from({ length: 40 }, () => post(`${url}/slow`, 'k-flood', '{"amount":1}')));
    const statuses = responses.map((response) => response.status);
    expect(runs.get('/slow')).toBe(1);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const bodies = await Promise.all(responses.filter((response) => response.status === 201).map((response) => response.json()));
    expect(bodies.every((body) => JSON.stringify(body) === JSON.stringify({ got: { amount: 1 } }))).toBe(true);
  });

  describe('the response', () => {
    /** Routes answering in several shapes; `sent` tells whether the handler's own Response went out unread. */
    function responder(options: { maxBodyBytes?: number } = {}) {
      const engine = createIdempotency({ store: createMemoryStore() });
      const hono = new Hono();
      const unreadOnTheWayOut: boolean[] = [];
      const returned = new WeakSet<Response>();
      hono.use('*', async (c, next) => {
        await next();
        unreadOnTheWayOut.push(returned.has(c.res) && unreadBodyOf(c.res) !== undefined);
      });
      const protect = idempotency({ idempotency: engine, scope: () => 'u', ...options });
      const own = (response: Response) => {
        returned.add(response);
        return response;
      };
      let runs = 0;
      hono.post('/json', protect, (c) => {
        runs++;
        c.header('location', `/payments/${runs}`); // on the default replay allow-list
        c.header('idempotent-replayed', 'spoofed');
        return own(c.json({ run: runs, note: 'caf\u00e9' }, 201));
      });
      hono.post('/bytes', protect, (c) => own(c.body(new Uint8Array([0, 255, 7]), 200, { 'content-type': 'application/octet-stream' })));
      hono.post('/empty', protect, (c) => own(c.body(null, 204)));
      hono.post('/text', protect, (c) => own(c.text('plain words')));
      hono.post('/stream', protect, (c) => own(c.body(new ReadableStream({ start(controller) { controller.enqueue(new TextEncoder().encode('streamed')); controller.close(); } }), 200)));
      return { hono, unreadOnTheWayOut, runs: () => runs };
    }

    it('sends the handler\'s own Response unread and replays the same status, headers and bytes', async () => {
      const { hono, unreadOnTheWayOut, runs } = responder();
      const url = await listen(hono);
      const first = await post(`${url}/json`, 'r-json', '{}');
      const firstBody = await first.text();
      expect(first.status).toBe(201);
      expect(first.headers.get('idempotent-replayed')).toBeNull(); // a marker the handler set never goes out
      const replay = await post(`${url}/json`, 'r-json', '{}');
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(first.headers.get('location')).toBe('/payments/1');
      expect(replay.headers.get('location')).toBe('/payments/1');
      expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(await replay.text()).toBe(firstBody);
      expect(JSON.parse(firstBody)).toEqual({ run: 1, note: 'caf\u00e9' });
      expect(runs()).toBe(1);
      expect(unreadOnTheWayOut[0]).toBe(true);
    });

    it('stores bytes, text, an empty 204 and a streamed body exactly', async () => {
      const { hono, unreadOnTheWayOut } = responder();
      const url = await listen(hono);
      for (const [path, check] of [
        ['/bytes', async (response: Response) => expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 255, 7])],
        ['/text', async (response: Response) => expect(await response.text()).toBe('plain words')],
        ['/empty', async (response: Response) => expect(await response.text()).toBe('')],
        ['/stream', async (response: Response) => expect(await response.text()).toBe('streamed')],
      ] as const) {
        const first = await post(`${url}${path}`, `r-${path.slice(1)}`, '{}');
        await check(first);
        const replay = await post(`${url}${path}`, `r-${path.slice(1)}`, '{}');
        expect(replay.status, path).toBe(first.status);
        expect(replay.headers.get('idempotent-replayed'), path).toBe('true');
        expect(replay.headers.get('content-type'), path).toBe(first.headers.get('content-type'));
        await check(replay);
      }
      // Held bodies went out unread; the stream was read to store it.
      expect(unreadOnTheWayOut.filter((_, index) => index % 2 === 0)).toEqual([true, true, true, false]);
    });

    it('sends a body over maxBodyBytes whole, and records it as omitted', async () => {
      const { hono } = responder({ maxBodyBytes: 8 });
      const url = await listen(hono);
      const first = await post(`${url}/json`, 'r-big', '{}');
      expect(JSON.parse(await first.text())).toEqual({ run: 1, note: 'caf\u00e9' });
      const replay = await post(`${url}/json`, 'r-big', '{}');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('content-type')).toBeNull();
      expect(await replay.text()).toBe('');
    });
  });
});
