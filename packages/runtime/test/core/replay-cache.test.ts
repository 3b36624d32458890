/** The in-process replay cache: served without a store call, never PROCESSING, bounded, short-lived, stale after a purge until its TTL. */
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { FingerprintMismatchError, InProgressError, InvalidOptionsError, KeyNotFoundError } from '../../src/core/errors.js';
import type { IdempotencyRecord } from '../../src/core/record.js';
import { createReplayCache } from '../../src/core/replay-cache.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { deferred, manualClock, sleep } from './helpers.js';

/** A memory store that counts claims (every begin() that reaches the store claims first). */
function countingStore() {
  const inner = createMemoryStore();
  let claims = 0;
  const store: IdempotencyStore = new Proxy(inner, {
    get(target, name, receiver) {
      if (name === 'claim') return (input: Parameters<IdempotencyStore['claim']>[0]) => (claims++, target.claim(input));
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
  return { store, inner, claims: () => claims };
}

const request = (key: string, fingerprint = 'f'.repeat(64), owner?: string) => ({ key, scope: 'alice', fingerprint, ...(owner ? { owner } : {}) });

function record(key: string, overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    key,
    scope: 's',
    owner: null,
    fingerprint: 'f',
    status: 'COMPLETED',
    lockVersion: 1,
    lockedUntil: null,
    response: { statusCode: null, headers: null, body: new Uint8Array([1]), encoding: 'json' },
    createdAt: 0,
    completedAt: 0,
    expiresAt: 1_000_000,
    ...overrides,
  };
}

describe('createReplayCache', () => {
  it('keeps COMPLETED records only, for min(ttlMs, time to expiry), least recently used dropped first', () => {
    const clock = manualClock(0);
    const cache = createReplayCache({ maxEntries: 2, ttlMs: 1000, clock: clock.now });
    cache.put(record('processing', { status: 'PROCESSING', response: null, lockedUntil: 50 }), 0);
    cache.put(record('failed', { status: 'FAILED' }), 0);
    expect(cache.size).toBe(0);
    cache.put(record('soon', { expiresAt: 300 }), 100); // 200 ms left at the store
    cache.put(record('a'), 100);
    expect(cache.get('s', 'soon')?.now).toBe(100);
    clock.advance(250);
    expect(cache.get('s', 'soon')).toBeNull(); // the record's own expiry caps the cache TTL
    expect(cache.get('s', 'a')?.now).toBe(350); // store clock estimated from the local clock
    cache.put(record('b'), 350);
    cache.get('s', 'a'); // a is now the most recently used
    cache.put(record('c'), 350);
    expect(cache.get('s', 'b')).toBeNull();
    expect(cache.get('s', 'a')).not.toBeNull();
    clock.advance(1000);
    expect(cache.get('s', 'a')).toBeNull(); // the cache TTL
    expect(cache.get('other', 'c')).toBeNull(); // scopes never meet
  });
});

describe('engine with replayCache', () => {
  it('replays a completed key without a store call, answered exactly as from the store', async () => {
    const { store, claims } = countingStore();
    const engine = createIdempotency({ store, replayCache: { ttlMs: 60_000 } });
    let runs = 0;
    const first = await engine.run(request('k1'), () => ({ n: ++runs }));
    expect(first).toEqual({ value: { n: 1 }, replayed: false });
    expect(claims()).toBe(1);
    for (let i = 0; i < 5; i++) expect(await engine.run(request('k1'), () => ({ n: ++runs }))).toEqual({ value: { n: 1 }, replayed: true });
    expect(claims()).toBe(1);
    expect(runs).toBe(1);
    // The same refusals as the store's copy: other parameters, another owner.
    await expect(engine.run(request('k1', 'e'.repeat(64)), () => ++runs)).rejects.toBeInstanceOf(FingerprintMismatchError);
    expect(claims()).toBe(1);
    await engine.run({ ...request('k-owned'), scope: 'global', owner: 'alice' }, () => 'mine');
    await expect(engine.run({ ...request('k-owned'), scope: 'global', owner: 'mallory' }, () => 'theirs')).rejects.toBeInstanceOf(KeyNotFoundError);
  });

  it('caches a record first seen in the store (another process finished it)', async () => {
    const { store, claims } = countingStore();
    const other = createIdempotency({ store });
    await other.run(request('k2'), () => 'done elsewhere');
    const engine = createIdempotency({ store, replayCache: true });
    expect((await engine.run(request('k2'), () => 'again')).value).toBe('done elsewhere');
    expect((await engine.run(request('k2'), () => 'again')).value).toBe('done elsewhere');
    expect(claims()).toBe(2); // the first process's claim, then one read for this engine
  });

  it('never caches PROCESSING: a duplicate during the run is in_progress, and after it the stored result', async () => {
    const { store } = countingStore();
    const engine = createIdempotency({ store, replayCache: true, singleFlight: false });
    const gate = deferred();
    const running = engine.run(request('k3'), async () => {
      await gate.promise;
      return 'late';
    });
    await sleep(10);
    await expect(engine.run(request('k3'), () => 'dup')).rejects.toBeInstanceOf(InProgressError);
    gate.resolve();
    await running;
    expect((await engine.run(request('k3'), () => 'dup')).value).toBe('late');
  });

  it('may replay a purged record until its cache TTL, then asks the store again', async () => {
    let shiftMs = 0;
    const inner = createMemoryStore({ clock: () => Date.now() + shiftMs });
    const engine = createIdempotency({ store: inner, ttlMs: 60_000, replayCache: { ttlMs: 100 } });
    await engine.run(request('k4'), () => 'first');
    shiftMs = 61_000;
    expect(await inner.purgeExpired(100)).toBe(1);
    expect(await inner.get({ key: 'k4', scope: 'alice' })).toBeNull();
    // Stated semantics: the cache is not invalidated by the store.
    expect(await engine.run(request('k4'), () => 'second')).toEqual({ value: 'first', replayed: true });
    await sleep(130);
    expect(await engine.run(request('k4'), () => 'second')).toEqual({ value: 'second', replayed: false });
  });

  it('validates its options at creation', () => {
    const store = createMemoryStore();
    expect(() => createIdempotency({ store, replayCache: { ttlMs: 0 } })).toThrow(InvalidOptionsError);
    expect(() => createIdempotency({ store, replayCache: { maxEntries: 0 } })).toThrow(InvalidOptionsError);
    expect(() => createIdempotency({ store, ttlMs: 1000, leaseMs: 100, replayCache: { ttlMs: 2000 } })).toThrow(/at most "ttlMs"/);
    expect(() => createIdempotency({ store, replayCache: 'yes' as never })).toThrow(InvalidOptionsError);
    expect(createIdempotency({ store, replayCache: true }).options.replayCache).toEqual({ maxEntries: 10_000, ttlMs: 5000 });
    expect(createIdempotency({ store }).options.replayCache).toBeNull();
  });
});
