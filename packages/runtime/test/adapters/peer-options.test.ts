/** Creation-time validation and the pure pieces of the peer features: body key, serverErrors, response hooks. */
import { describe, expect, it } from 'vitest';
import { bodyKeyRequired, keyFromBody, resolveKeySource } from '../../src/adapters/http/key-from-body.js';
import { resolveHttpOptions } from '../../src/adapters/http/options.js';
import { decideStore, notifyReplay } from '../../src/adapters/http/response-hooks.js';
import type { HttpRequestView } from '../../src/adapters/http/request-view.js';
import { createIdempotency } from '../../src/core/engine.js';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { capturingLogger } from '../core/helpers.js';

const idempotency = createIdempotency({ store: createMemoryStore() });
const base = { idempotency, scope: 'global' as const };
const view: HttpRequestView = { method: 'POST', path: '/p', header: () => undefined, body: () => undefined };
const response = { status: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"id":1}') };

describe('peer options at creation', () => {
  it('rejects a bad body path, a path through the prototype, and key with header', () => {
    for (const key of [{ fromBody: '' }, { fromBody: 'a..b' }, { fromBody: 'a.__proto__.b' }, { fromBody: 'constructor' }, 'order.id', { body: 'x' }]) {
      expect(() => resolveHttpOptions({ ...base, key: key as never })).toThrow(InvalidOptionsError);
    }
    expect(() => resolveHttpOptions({ ...base, key: { fromBody: 'id' }, header: 'X-Key' })).toThrow(/exclude each other/);
    expect(resolveHttpOptions({ ...base, key: { fromBody: 'order.id' } }).keyFromBody).toEqual(['order', 'id']);
  });

  it("defaults serverErrors to 'release' and stores a 5xx only with 'store'", () => {
    const released = resolveHttpOptions(base);
    expect(released.serverErrors).toBe('release');
    expect([201, 422, 500, 503].map(released.storeStatus)).toEqual([true, true, false, false]);
    const stored = resolveHttpOptions({ ...base, serverErrors: 'store' });
    expect([201, 409, 500, 503].map(stored.storeStatus)).toEqual([true, false, true, true]);
    // storeStatus still rules below 500, and cannot bring a 5xx back under 'release'.
    expect(resolveHttpOptions({ ...base, storeStatus: () => true }).storeStatus(502)).toBe(false);
    expect(() => resolveHttpOptions({ ...base, serverErrors: 'keep' as never })).toThrow(InvalidOptionsError);
  });

  it('rejects hooks that are not functions', () => {
    for (const hook of ['skip', 'onReplay', 'beforeStore'] as const) {
      expect(() => resolveHttpOptions({ ...base, [hook]: true })).toThrow(new RegExp(hook));
    }
  });
});

describe('keyFromBody', () => {
  it('reads strings and integers by own properties only', () => {
    expect(keyFromBody({ order: { id: 'ord_1' } }, ['order', 'id'], 255)).toEqual({ kind: 'key', key: 'ord_1' });
    expect(keyFromBody({ order: { id: 42 } }, ['order', 'id'], 255)).toEqual({ kind: 'key', key: '42' });
    expect(keyFromBody(Object.create({ order: { id: 'inherited' } }), ['order', 'id'], 255)).toEqual({ kind: 'missing' });
    expect(keyFromBody('order.id=1', ['order', 'id'], 255)).toEqual({ kind: 'missing' });
    expect(keyFromBody({ order: { id: 'x'.repeat(20) } }, ['order', 'id'], 10).kind).toBe('invalid');
    expect(resolveKeySource({ fromBody: 'a.b-c.$d' })).toEqual(['a', 'b-c', '$d']);
    const problem = bodyKeyRequired('order.id', 'spec', 'urn:x:');
    expect(problem.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(problem.body))).toMatchObject({ code: 'key_required', type: 'urn:x:key_required' });
  });
});

describe('response hooks', () => {
  it('beforeStore: undefined stores as is, a response replaces it, false vetoes, a throw or junk records nothing', async () => {
    const { logger, lines } = capturingLogger();
    expect(await decideStore(() => undefined, null, view, response, logger, 'k')).toEqual({ store: response });
    const redacted = { ...response, body: new Uint8Array() };
    expect(await decideStore(async () => redacted, null, view, response, logger, 'k')).toEqual({ store: redacted });
    expect(await decideStore(() => false, null, view, response, logger, 'k')).toEqual({ store: null, reason: 'veto' });
    const throwing = () => {
      throw new Error('boom');
    };
    expect(await decideStore(throwing, null, view, response, logger, 'k')).toEqual({ store: null, reason: 'hook_failed' });
    expect(await decideStore(() => ({ status: 99 }) as never, null, view, response, logger, 'k')).toEqual({ store: null, reason: 'hook_failed' });
    // The hook gets a frozen copy: it cannot edit what the client is sent.
    await decideStore((_c, _r, seen) => void expect(() => ((seen.headers as Record<string, string>).x = '1')).toThrow(), null, view, response, logger, 'k');
    expect(response.headers).toEqual({ 'content-type': 'application/json' });
    expect(lines.filter((line) => line.startsWith('error'))).toHaveLength(2);
    expect(lines.join('\n')).not.toContain('"k"'); // the key is redacted in logs
  });

  it('onReplay: sync and async failures are logged, never thrown', async () => {
    const { logger, lines } = capturingLogger();
    notifyReplay(() => {
      throw new Error('sync');
    }, null, view, response, logger, 'k');
    notifyReplay(async () => Promise.reject(new Error('async')), null, view, response, logger, 'k');
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.filter((line) => line.includes('onReplay hook failed'))).toHaveLength(2);
  });
});

describe('hook types with a framework request', () => {
  it('accept handlers annotated with the framework request type, without casts', async () => {
    const { idempotencyMiddleware } = await import('../../src/adapters/express/express-middleware.js');
    type AuthedRequest = { method?: string; url?: string; headers: Record<string, string | string[] | undefined>; user: { id: string }; path: string };
    const seen: string[] = [];
    const middleware = idempotencyMiddleware<AuthedRequest>({
      idempotency,
      scope: (req: AuthedRequest) => req.user.id,
      skip: (req: AuthedRequest) => req.headers['x-health-check'] === '1',
      onReplay: (req: AuthedRequest, _view, stored) => void seen.push(`${req.path} ${stored.status}`),
      beforeStore: (_req: AuthedRequest, _view, stored) => (stored.status === 201 ? { ...stored, body: new Uint8Array() } : undefined),
      serverErrors: 'store',
      key: { fromBody: 'order.id' },
    });
    expect(typeof middleware).toBe('function');
  });
});
