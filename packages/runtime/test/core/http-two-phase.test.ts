/**
 * The shared HTTP flow on the two-phase engine: load shedding answers 503 + Retry-After, a
 * handler's error releases the key, the disconnect signal reaches the handler, and a handler
 * past maxExecutionMs has its key freed.
 */
import { describe, expect, it } from 'vitest';
import { createHttpIdempotency } from '../../src/adapters/http/http-idempotency.js';
import type { HttpResponse } from '../../src/adapters/http/http-response.js';
import type { HttpRequestView } from '../../src/adapters/http/request-view.js';
import { createIdempotency } from '../../src/core/engine.js';
import { InvalidOptionsError } from '../../src/core/errors.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { sleep } from './helpers.js';

const view = (key: string, body: unknown = { amount: 1 }): HttpRequestView => ({
  method: 'POST',
  path: '/payments',
  header: (name) => (name === 'idempotency-key' ? key : name === 'content-type' ? 'application/json' : undefined),
  body: () => body,
});
const created = (): HttpResponse => ({ status: 201, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"ok":true}') });
const problem = (response: HttpResponse) => JSON.parse(new TextDecoder().decode(response.body)) as { code: string; status: number };

describe('HTTP flow over begin()', () => {
  it('answers a shed claim (store_busy) with 503 and Retry-After, and runs nothing', async () => {
    const base = createMemoryStore();
    const slow: IdempotencyStore = { ...base, claim: async (input) => (await sleep(30), base.claim(input)) };
    const idempotency = createIdempotency({ store: slow, maxInFlightClaims: 1, maxQueuedClaims: 0 });
    const http = createHttpIdempotency({ idempotency, scope: () => 'alice' });
    let ran = 0;
    const outcomes = await Promise.all(['a', 'b', 'c'].map((key) => http.handle(null, view(key), async () => (ran++, created()))));
    const shed = outcomes.filter((o) => o.kind === 'respond');
    expect(shed).toHaveLength(2);
    for (const o of shed) {
      if (o.kind !== 'respond') continue;
      expect(o.response.status).toBe(503);
      expect(o.response.headers['retry-after']).toBe('1');
      expect(problem(o.response).code).toBe('store_busy');
    }
    expect(ran).toBe(1);
  });

  it("releases the key when the handler throws, and the framework gets the handler's own error", async () => {
    const store = createMemoryStore();
    const http = createHttpIdempotency({ idempotency: createIdempotency({ store }), scope: () => 'alice' });
    const boom = new Error('handler exploded');
    await expect(http.handle(null, view('t1'), async () => Promise.reject(boom))).rejects.toBe(boom);
    expect(await store.get({ key: 't1', scope: 'alice' })).toBeNull();
    expect(await http.handle(null, view('t1'), async () => created())).toEqual({ kind: 'executed' });
  });

  it('passes the client-disconnect signal to the handler as a notice; what it returns is stored', async () => {
    const store = createMemoryStore();
    const http = createHttpIdempotency({ idempotency: createIdempotency({ store }), scope: () => 'alice' });
    const client = new AbortController();
    let sawAbort = false;
    const outcome = await http.handle(
      null,
      view('gone'),
      async ({ signal }) => {
        client.abort(new Error('client closed the connection'));
        sawAbort = signal.aborted;
        return created();
      },
      { signal: client.signal },
    );
    expect(outcome).toEqual({ kind: 'executed' });
    expect(sawAbort).toBe(true);
    expect((await store.get({ key: 'gone', scope: 'alice' }))!.status).toBe('COMPLETED');
  });

  it('a handler past maxExecutionMs: its signal aborts, its late answer is sent but not stored, the key is freed', async () => {
    const store = createMemoryStore();
    const http = createHttpIdempotency({ idempotency: createIdempotency({ store, maxExecutionMs: 40 }), scope: () => 'alice' });
    let reason: unknown;
    const outcome = await http.handle(null, view('slow'), async ({ signal }) => {
      await sleep(80);
      reason = signal.reason;
      return created();
    });
    expect(outcome).toEqual({ kind: 'executed' });
    expect((reason as { code?: string }).code).toBe('execution_timeout');
    expect(await store.get({ key: 'slow', scope: 'alice' })).toBeNull();
  });
});

describe('per-route durations (issue 11 #14)', () => {
  it('refuses a route whose ttlMs is shorter than its lease (its own or the engine\'s)', () => {
    const idempotency = createIdempotency({ store: createMemoryStore(), leaseMs: 30_000 });
    expect(() => createHttpIdempotency({ idempotency, scope: () => 'a', leaseMs: 10_000, ttlMs: 5_000 })).toThrow(InvalidOptionsError);
    expect(() => createHttpIdempotency({ idempotency, scope: () => 'a', ttlMs: 5_000 })).toThrow(/"ttlMs" \(5000\) must be at least "leaseMs" \(30000\)/);
    expect(() => createHttpIdempotency({ idempotency, scope: () => 'a', leaseMs: 1_000, ttlMs: 5_000 })).not.toThrow();
  });
});
