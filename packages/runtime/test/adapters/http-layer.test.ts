/**
 * The framework-neutral HTTP layer on its own: header parsing, the problem table, the response
 * serializer, the fingerprint, option validation, and the rate limiter's failure modes.
 */
import { randomBytes } from 'node:crypto';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import {
  createHttpIdempotency,
  createHttpSerializer,
  createNewKeyLimiter,
  defaultStoreStatus,
  httpFingerprint,
  parseIdempotencyKey,
  problemResponse,
  problemStatus,
  PROBLEMS,
  resolveHttpOptions,
  type HttpRequestView,
} from '../../src/adapters/http/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { ERROR_CODES, InvalidOptionsError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

const idempotency = createIdempotency({ store: createMemoryStore() });
const user = () => 'alice';

function view(body: unknown, { method = 'POST', path = '/payments', headers = {} as Record<string, string> } = {}): HttpRequestView {
  return { method, path, header: (name) => headers[name], body: () => body };
}

describe('parseIdempotencyKey', () => {
  it('accepts a plain token and the IETF quoted string (with parameters)', () => {
    expect(parseIdempotencyKey('abc-123')).toEqual({ kind: 'key', key: 'abc-123' });
    expect(parseIdempotencyKey('  abc-123 ')).toEqual({ kind: 'key', key: 'abc-123' });
    expect(parseIdempotencyKey('"8e03978e-40d5-43e8-bc93-6894a57f9324"')).toEqual({ kind: 'key', key: '8e03978e-40d5-43e8-bc93-6894a57f9324' });
    expect(parseIdempotencyKey('"abc";v=1')).toEqual({ kind: 'key', key: 'abc' });
    expect(parseIdempotencyKey(['only-one'])).toEqual({ kind: 'key', key: 'only-one' });
  });

  it('tells a missing key from a malformed one', () => {
    for (const missing of [undefined, '', '   ', []]) expect(parseIdempotencyKey(missing).kind).toBe('missing');
    for (const bad of ['a b', 'a,b', '"a", "b"', '"open', '"a"junk', '"a\\z"', '""', 'k\u00e9y', 'x'.repeat(256), '"caf\u00e9"']) {
      expect(parseIdempotencyKey(bad).kind, bad).toBe('invalid');
    }
    expect(parseIdempotencyKey(['a', 'b']).kind).toBe('invalid');
    expect(parseIdempotencyKey('x'.repeat(65), 64).kind).toBe('invalid');
  });
});

describe('problem details', () => {

  it('maps every core code (and the HTTP-only ones) to a status and a stable type', () => {
    for (const code of [...ERROR_CODES, 'key_required', 'unauthenticated', 'rate_limited'] as const) {
      const response = problemResponse({ code, profile: 'spec', typeBase: 'urn:x:' });
      const body = JSON.parse(Buffer.from(response.body).toString()) as Record<string, unknown>;
      expect(body).toEqual({ type: `urn:x:${code}`, title: PROBLEMS[code].title, status: PROBLEMS[code].status, code });
      expect(response.headers['content-type']).toBe('application/problem+json');
    }
  });

  it('follows the HTTP table: 409/422 mismatch by profile, 503 store, 404 foreign key, 429 and 400', () => {
    expect(problemStatus('fingerprint_mismatch', 'spec')).toBe(409);
    expect(problemStatus('fingerprint_mismatch', 'ietf')).toBe(422);
    expect(problemStatus('in_progress', 'ietf')).toBe(409);
    expect(problemStatus('store_unavailable', 'spec')).toBe(503);
    expect(problemStatus('key_not_found', 'spec')).toBe(404);
    expect(problemStatus('rate_limited', 'spec')).toBe(429);
    expect(problemStatus('invalid_key', 'spec')).toBe(400);
    expect(problemStatus('key_required', 'spec')).toBe(400);
  });

  it('rounds Retry-After up to whole seconds, never 0', () => {
    const at = (retryAfterMs: number) => problemResponse({ code: 'in_progress', profile: 'spec', typeBase: 'urn:x:', retryAfterMs }).headers['retry-after'];
    expect([at(0), at(1), at(1000), at(1001), at(29_500)]).toEqual(['1', '1', '1', '2', '30']);
  });
});

describe('the HTTP response serializer', () => {
  it('keeps status, allow-listed headers and the exact bytes; never forbidden headers', () => {
    const serializer = createHttpSerializer(['content-type', 'location', 'idempotent-replayed', 'set-cookie']);
    const body = new Uint8Array(randomBytes(1000));
    const stored = serializer.serialize({
      status: 201,
      headers: { 'content-type': 'application/octet-stream', location: '/x/1', 'set-cookie': 'a=b', 'idempotent-replayed': 'true', 'x-other': '1' },
      body,
    });
    expect(stored.headers).toEqual({ 'content-type': 'application/octet-stream', location: '/x/1' });
    const back = serializer.deserialize(stored);
    expect(back.status).toBe(201);
    expect(Buffer.from(back.body).equals(Buffer.from(body))).toBe(true);
    expect(back.bodyOmitted).toBe(false);
  });

  it('records an omitted body as such', () => {
    const serializer = createHttpSerializer();
    const stored = serializer.serialize({ status: 200, headers: {}, body: new Uint8Array(5), bodyOmitted: true });
    expect(stored.body.byteLength).toBe(0);
    expect(serializer.deserialize(stored).bodyOmitted).toBe(true);
    expect(() => serializer.deserialize({ ...stored, encoding: 'json' })).toThrow(TypeError);
  });
});

describe('httpFingerprint', () => {
  it('ignores JSON key order and the default volatile fields, not the content', async () => {
    const a = await httpFingerprint(view({ amount: 1, currency: 'EUR', requestId: 'r1' }));
    expect(await httpFingerprint(view({ currency: 'EUR', amount: 1, requestId: 'r2' }))).toBe(a);
    expect(await httpFingerprint(view({ currency: 'EUR', amount: 2 }))).not.toBe(a);
  });

  it('always covers method and path', async () => {
    const base = await httpFingerprint(view({ amount: 1 }));
    expect(await httpFingerprint(view({ amount: 1 }, { path: '/refunds' }))).not.toBe(base);
    expect(await httpFingerprint(view({ amount: 1 }, { method: 'PUT' }))).not.toBe(base);
  });

  it('reads raw text or bytes by their Content-Type: one wire body, one fingerprint; JSON parsed stays apart from raw bytes', async () => {
    const plain = { 'content-type': 'text/plain' };
    const [asText, asBytes] = await Promise.all([view('pay 10', { headers: plain }), view(new TextEncoder().encode('pay 10'), { headers: plain })].map((v) => httpFingerprint(v)));
    expect(asText).toBe(asBytes);
    const raw = new TextEncoder().encode('{"a":1}');
    const prints = await Promise.all([view(raw), view({ a: 1 }), view(raw, { headers: { 'content-type': 'application/vnd.x+json' } })].map((v) => httpFingerprint(v)));
    expect(prints[0]).not.toBe(prints[1]); // untyped bytes are bytes
    expect(prints[2]).toBe(prints[1]); // +json is JSON
  });

});

describe('option validation at creation', () => {
  it('refuses a route without a scope resolver unless scope is "global"', () => {
    expect(() => resolveHttpOptions({ idempotency } as never)).toThrow(InvalidOptionsError);
    expect(() => resolveHttpOptions({ idempotency, scope: 'global' })).not.toThrow();
    expect(() => resolveHttpOptions({ idempotency, scope: user })).not.toThrow();
  });

  it('names the bad field', () => {
    const bad: Record<string, unknown>[] = [
      { idempotency: {}, scope: user },
      { idempotency, scope: user, owner: user },
      { idempotency, scope: 'global', owner: 'alice' },
      { idempotency, scope: user, header: 'Bad Header' },
      { idempotency, scope: user, profile: 'rfc' },
      { idempotency, scope: user, replayHeaders: ['set-cookie'] },
      { idempotency, scope: user, maxBodyBytes: -1 },
      { idempotency, scope: user, waitMs: 1.5 },
      { idempotency, scope: user, rateLimit: { newKeysPerWindow: 0, windowMs: 60_000 } },
      { idempotency, scope: user, rateLimit: { newKeysPerWindow: 10, windowMs: 10 } },
      { idempotency, scope: user, rateLimit: { limiter: {} } },
      { idempotency, scope: user, fingerprint: { bodyFields: [''] } },
    ];
    for (const options of bad) expect(() => resolveHttpOptions(options as never), JSON.stringify(Object.keys(options))).toThrow(InvalidOptionsError);
  });

  it('stores 2xx, 3xx and deterministic 4xx by default; never 5xx even if asked', () => {
    expect([200, 201, 204, 303, 400, 404, 422].every(defaultStoreStatus)).toBe(true);
    expect([401, 403, 408, 409, 429, 500, 503].some(defaultStoreStatus)).toBe(false);
    expect(resolveHttpOptions({ idempotency, scope: user, storeStatus: () => true }).storeStatus(503)).toBe(false);
  });
});

describe('new-key rate limit', () => {
  it('answers 503 (not 429) when the limiter store fails, and runs nothing', async () => {
    // A real RateLimiterRedis on a client that never connects: its consume() rejects with an Error.
    const offline = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const limiter = new RateLimiterRedis({ storeClient: offline, points: 5, duration: 60 });
    const decision = await createNewKeyLimiter({ limiter })('alice');
    expect(decision.kind).toBe('unavailable');

    const http = createHttpIdempotency({ idempotency, scope: user, rateLimit: { limiter } });
    let ran = 0;
    const outcome = await http.handle(null, view({ a: 1 }, { headers: { 'idempotency-key': 'rl-down-1' } }), async () => {
      ran++;
      return { status: 201, headers: {}, body: new Uint8Array(0) };
    });
    expect(outcome.kind).toBe('respond');
    expect(outcome.kind === 'respond' && outcome.response.status).toBe(503);
    expect(ran).toBe(0);
    offline.disconnect();
  });
});
