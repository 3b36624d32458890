/**
 * The Hono adapter reads a body of announced length once, through Hono's body cache: the
 * handler's c.req.json()/text() and a read of c.req.raw all still see the exact body, and the
 * fingerprint still tells bodies apart.
 */
import { Hono, type Context } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { idempotency } from '../../src/adapters/hono/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

function app() {
  const engine = createIdempotency({ store: createMemoryStore() });
  const protect = idempotency({ idempotency: engine, scope: () => 'user-1' });
  const hono = new Hono();
  let runs = 0;
  const route = (read: (c: Context) => Promise<unknown>) => async (c: Context) => {
    runs++;
    return c.json({ got: await read(c), run: runs }, 201);
  };
  hono.post('/json', protect, route((c) => c.req.json()));
  hono.post('/text', protect, route((c) => c.req.text()));
  hono.post('/raw', protect, route((c) => c.req.raw.json()));
  hono.post('/both', protect, route(async (c) => [await c.req.json(), await c.req.raw.text()]));
  return hono;
}

const post = (hono: Hono, path: string, key: string, body: string) =>
  hono.request(path, {
    method: 'POST',
    // Set explicitly: a Request built here carries no Content-Length until it is sent.
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'idempotency-key': key },
    body,
  });

describe('hono adapter: one read of the request body', () => {
  afterEach(() => vi.restoreAllMocks());

  it('gives c.req.json(), c.req.text() and c.req.raw the exact body, and replays', async () => {
    // A body of announced length is not read from a tee'd clone (the slow path before).
    const clone = vi.spyOn(Request.prototype, 'clone');
    const hono = app();
    const body = '{"amount": 4999, "note": "caf\u00e9"}';
    const json = await post(hono, '/json', 'k-json', body);
    expect(json.status).toBe(201);
    expect(await json.json()).toEqual({ got: { amount: 4999, note: 'caf\u00e9' }, run: 1 });
    const text = await post(hono, '/text', 'k-text', body);
    expect(await text.json()).toEqual({ got: body, run: 2 });
    const raw = await post(hono, '/raw', 'k-raw', body);
    expect(await raw.json()).toEqual({ got: { amount: 4999, note: 'caf\u00e9' }, run: 3 });
    const both = await post(hono, '/both', 'k-both', body);
    expect(await both.json()).toEqual({ got: [{ amount: 4999, note: 'caf\u00e9' }, body], run: 4 });

    const again = await post(hono, '/json', 'k-json', body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual({ got: { amount: 4999, note: 'caf\u00e9' }, run: 1 });
    expect(clone).not.toHaveBeenCalled();
  });

  it('builds the readable c.req.raw only for a run of the handler: a replay or a refusal builds no Request', async () => {
    const hono = app();
    const body = '{"amount":7}';
    expect((await post(hono, '/raw', 'k-once', body)).status).toBe(201);
    const built = vi.fn();
    const Original = globalThis.Request;
    // Counts Requests made after the test's own (hono.request builds one per call, before the middleware).
    vi.spyOn(globalThis, 'Request').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Request>) {
      if (args[1] && (args[1] as RequestInit).body instanceof ArrayBuffer) built();
      return new Original(...args);
    } as unknown as typeof Request);
    const replay = await post(hono, '/raw', 'k-once', body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await post(hono, '/raw', 'k-once', '{"amount":8}')).status).toBe(409);
    expect(built).not.toHaveBeenCalled();
    expect(await (await post(hono, '/raw', 'k-new', body)).json()).toEqual({ got: { amount: 7 }, run: 2 });
    expect(built).toHaveBeenCalledTimes(1);
  });

  it('a request let through after its body was read (key in the body, optional) still has a readable c.req.raw', async () => {
    const engine = createIdempotency({ store: createMemoryStore() });
    const hono = new Hono();
    hono.post('/raw', idempotency({ idempotency: engine, scope: () => 'u', key: { fromBody: 'requestId' }, required: false }), async (c) => c.json({ got: await c.req.raw.json() }, 201));
    const response = await post(hono, '/raw', 'ignored', '{"amount":3}');
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ got: { amount: 3 } });
  });

  it('still fingerprints the body: another body under the same key is 409, nothing runs', async () => {
    const hono = app();
    expect((await post(hono, '/json', 'k', '{"amount":1}')).status).toBe(201);
    const other = await post(hono, '/json', 'k', '{"amount":2}');
    expect(other.status).toBe(409);
    expect((await post(hono, '/json', 'k', '{ "amount" : 1 }')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses invalid JSON and an announced length over the cap before anything runs', async () => {
    const hono = app();
    expect((await post(hono, '/json', 'k-bad', '{"amount":')).status).toBe(400);
    const big = new Hono();
    const engine = createIdempotency({ store: createMemoryStore() });
    big.post('/json', idempotency({ idempotency: engine, scope: () => 'u', maxRequestBytes: 8 }), (c) => c.json({}, 201));
    expect((await post(big, '/json', 'k-big', '{"amount":12345}')).status).toBe(413);
  });
});
