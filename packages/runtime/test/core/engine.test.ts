import { describe, expect, it } from 'vitest';
import {
  createIdempotency,
  fingerprintFields,
  FingerprintMismatchError,
  InProgressError,
  InvalidKeyError,
  InvalidOptionsError,
  InvalidScopeError,
  KeyNotFoundError,
  ExpiredKeyRejectedError,
  LeaseLostError,
  ReplayedFailureError,
  StoreUnavailableError,
  METRICS,
} from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { countingMetrics, deferred, manualClock, sleep } from './helpers.js';

const fp = fingerprintFields([4999, 'EUR', 'acct_xyz']);
const otherFp = fingerprintFields([5000, 'EUR', 'acct_xyz']);
const request = (key = 'usr-1_createPayment_a1', overrides: Partial<{ scope: string; fingerprint: string; owner: string }> = {}) => ({
  key,
  scope: 'usr-1',
  fingerprint: fp,
  ...overrides,
});

class DeclinedError extends Error {
  code = 'card_declined';
  statusCode = 402;
}

describe('engine: claim -> run -> store -> replay', () => {
  it('runs the action once and replays the stored value to the retry', async () => {
    const metrics = countingMetrics();
    const idem = createIdempotency({ store: createMemoryStore(), metrics: metrics.sink });
    let runs = 0;
    const action = async () => ({ paymentId: `pay_${++runs}` });
    const first = await idem.run(request(), action);
    const second = await idem.run(request(), action);
    expect(first).toEqual({ value: { paymentId: 'pay_1' }, replayed: false });
    expect(second).toEqual({ value: { paymentId: 'pay_1' }, replayed: true });
    expect(runs).toBe(1);
    expect(metrics.count(METRICS.duplicatesBlocked)).toBe(1);
    expect(metrics.count(METRICS.keysCreatedPerUser)).toBe(1);
  });

  it('rejects a reused key with other parameters, without running or echoing anything', async () => {
    const metrics = countingMetrics();
    const idem = createIdempotency({ store: createMemoryStore(), metrics: metrics.sink });
    await idem.run(request(), async () => 'ok');
    const error = await idem.run(request(undefined, { fingerprint: otherFp }), async () => 'second').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FingerprintMismatchError);
    expect((error as FingerprintMismatchError).code).toBe('fingerprint_mismatch');
    expect((error as Error).message).not.toContain(fp);
    expect((error as Error).message).not.toContain(otherFp);
    expect(metrics.count(METRICS.fingerprintMismatches)).toBe(1);
  });

  it('runs exactly once under 50 concurrent duplicates; the rest are in_progress or replays', async () => {
    const idem = createIdempotency({ store: createMemoryStore() });
    let runs = 0;
    const gate = deferred();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        idem.run(request(), async () => {
          runs++;
          if (i === 0) await gate.promise;
          return 'charged';
        }).finally(() => i === 49 && gate.resolve()),
      ),
    );
    gate.resolve();
    expect(runs).toBe(1);
    const rejected = results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(rejected.length).toBe(49);
    for (const reason of rejected) {
      expect(reason).toBeInstanceOf(InProgressError);
      expect((reason as InProgressError).retryAfterMs).toBeGreaterThan(0);
    }
    expect(await idem.run(request(), async () => 'again')).toEqual({ value: 'charged', replayed: true });
  });

  it('lets in-flight duplicates wait for the first result (wait mode)', async () => {
    const idem = createIdempotency({ store: createMemoryStore() });
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        idem.run(request(), async () => {
          runs++;
          await sleep(60);
          return { id: 7 };
        }, { waitMs: 2_000 }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => r.replayed)).toHaveLength(19);
    expect(results.every((r) => (r.value as { id: number }).id === 7)).toBe(true);
  });

  it('stores a permanent error as FAILED and replays it without running again', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, isPermanent: (e) => e instanceof DeclinedError });
    let runs = 0;
    const decline = async () => {
      runs++;
      throw new DeclinedError('card declined');
    };
    await expect(idem.run(request(), decline)).rejects.toBeInstanceOf(DeclinedError);
    const replay = await idem.run(request(), decline).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(ReplayedFailureError);
    expect((replay as ReplayedFailureError).stored).toEqual({ name: 'DeclinedError', message: 'card declined', code: 'card_declined', statusCode: 402 });
    expect(runs).toBe(1);
    expect((await store.get({ key: request().key, scope: 'usr-1' }))!.status).toBe('FAILED');
  });

  it('releases on a transient (or unclassified) error so the same key runs again', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, isPermanent: (e) => e instanceof DeclinedError });
    let runs = 0;
    await expect(idem.run(request(), async () => {
      runs++;
      throw new Error('gateway timeout');
    })).rejects.toThrow('gateway timeout');
    expect(await store.get({ key: request().key, scope: 'usr-1' })).toBeNull();
    expect(await idem.run(request(), async () => ++runs)).toEqual({ value: 2, replayed: false });
  });

  it('treats an expired record as new by default, and refuses it with onExpired: reject', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock: clock.now });
    const renew = createIdempotency({ store, ttlMs: 60_000, leaseMs: 1_000 });
    const reject = createIdempotency({ store, ttlMs: 60_000, leaseMs: 1_000, onExpired: 'reject' });
    await renew.run(request('k-new'), async () => 'first');
    await reject.run(request('k-rej'), async () => 'first');
    clock.advance(60_001);
    expect(await renew.run(request('k-new'), async () => 'second')).toEqual({ value: 'second', replayed: false });
    await expect(reject.run(request('k-rej'), async () => 'second')).rejects.toBeInstanceOf(ExpiredKeyRejectedError);
  });

  it('answers key_not_found for another owner in the global namespace, never their response', async () => {
    const idem = createIdempotency({ store: createMemoryStore() });
    await idem.run(request('shared-key', { scope: 'global', owner: 'alice' }), async () => 'alice secret');
    const error = await idem.run(request('shared-key', { scope: 'global', owner: 'bob' }), async () => 'bob').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KeyNotFoundError);
    expect(String((error as Error).message)).not.toContain('alice');
  });

  it('validates keys and scopes before touching the store', async () => {
    const idem = createIdempotency({ store: createMemoryStore(), maxKeyLength: 64 });
    for (const key of ['', 'a'.repeat(65), 'has space', 'tab\t', 'slash/no', 'emoji😀', 'nul\u0000']) {
      await expect(idem.run(request(key), async () => 1)).rejects.toBeInstanceOf(InvalidKeyError);
    }
    await expect(idem.run(request('ok', { scope: '' }), async () => 1)).rejects.toBeInstanceOf(InvalidScopeError);
    await expect(idem.run(request('ok', { scope: 'a b' }), async () => 1)).rejects.toBeInstanceOf(InvalidScopeError);
    await expect(idem.run(request('ok', { fingerprint: 'nothex' }), async () => 1)).rejects.toThrow(TypeError);
  });

  it('fails closed when the store is down: store_unavailable and the action never runs', async () => {
    const broken = { ...createMemoryStore(), claim: async () => { throw new Error('ECONNREFUSED'); } } as IdempotencyStore;
    const idem = createIdempotency({ store: broken });
    let runs = 0;
    const error = await idem.run(request(), async () => ++runs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).cause).toBeInstanceOf(Error);
    expect(runs).toBe(0);
  });

  it('retries a failed completion write and then succeeds', async () => {
    const store = createMemoryStore();
    let failures = 2;
    const flaky: IdempotencyStore = { ...store, complete: async (input) => (failures-- > 0 ? Promise.reject(new Error('blip')) : store.complete(input)) };
    const idem = createIdempotency({ store: flaky });
    expect(await idem.run(request(), async () => 'done')).toEqual({ value: 'done', replayed: false });
    expect((await store.get({ key: request().key, scope: 'usr-1' }))!.status).toBe('COMPLETED');
  });

  it('recognises its own completion when the first write landed but its reply was lost', async () => {
    const store = createMemoryStore();
    let calls = 0;
    const lostReply: IdempotencyStore = {
      ...store,
      complete: async (input) => {
        const result = await store.complete(input);
        if (++calls === 1) throw new Error('socket closed before the reply');
        return result;
      },
    };
    const idem = createIdempotency({ store: lostReply });
    expect(await idem.run(request(), async () => 'paid')).toEqual({ value: 'paid', replayed: false });
    expect(calls).toBe(2);
    expect(await idem.run(request(), async () => 'again')).toEqual({ value: 'paid', replayed: true });
  });

  it('does not store a result that shouldStore rejects, and releases the key', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const result = await idem.run(request(), async () => ({ status: 503 }), { shouldStore: (v) => v.status < 500 });
    expect(result.replayed).toBe(false);
    expect(await store.get({ key: request().key, scope: 'usr-1' })).toBeNull();
  });
});

describe('engine: leases, heartbeats and fencing', () => {
  it('refuses the completion of a stalled worker whose lease was reclaimed; the newer result stands', async () => {
    const store = createMemoryStore();
    const metrics = countingMetrics();
    const idem = createIdempotency({ store, leaseMs: 50, ttlMs: 60_000, heartbeat: false, metrics: metrics.sink });
    const stalled = deferred();
    let firstVersion = 0;
    const first = idem.run(request(), async ({ lockVersion }) => {
      firstVersion = lockVersion;
      await stalled.promise;
      return 'stale';
    });
    await sleep(80);
    const second = await idem.run(request(), async ({ reclaimed, lockVersion }) => ({ reclaimed, lockVersion }));
    expect(second.value).toEqual({ reclaimed: true, lockVersion: firstVersion + 1 });
    stalled.resolve();
    await expect(first).rejects.toBeInstanceOf(LeaseLostError);
    expect(await idem.run(request(), async () => 'third')).toEqual({ value: { reclaimed: true, lockVersion: firstVersion + 1 }, replayed: true });
    expect(metrics.count(METRICS.orphanReclaims)).toBe(1);
  });

  it('keeps a long action alive with the heartbeat: duplicates stay in_progress, no reclaim', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 60, ttlMs: 60_000 });
    let runs = 0;
    const long = idem.run(request(), async () => {
      runs++;
      await sleep(250);
      return 'long';
    });
    await sleep(200);
    await expect(idem.run(request(), async () => ++runs)).rejects.toBeInstanceOf(InProgressError);
    expect(await long).toEqual({ value: 'long', replayed: false });
    expect(runs).toBe(1);
  });

  it('aborts the signal and stores nothing when the lease is taken away mid-action', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 60, ttlMs: 60_000 });
    let aborted: unknown;
    const running = idem.run(request(), async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted = signal.reason;
      return 'too late';
    });
    await sleep(10);
    expect(await store.forceRelease({ key: request().key, scope: 'usr-1' })).toBe(true);
    await expect(running).rejects.toBeInstanceOf(LeaseLostError);
    expect(aborted).toBeInstanceOf(LeaseLostError);
    const record = await store.get({ key: request().key, scope: 'usr-1' });
    expect(record!.status).toBe('PROCESSING');
    expect(record!.response).toBeNull();
  });
});

describe('engine: heartbeat when the store cannot be reached', () => {
  it('aborts the action once extensions have failed for a whole lease, and writes nothing', async () => {
    const store = createMemoryStore();
    let extendCalls = 0;
    const unreachable: IdempotencyStore = { ...store, extend: async () => { extendCalls++; throw new Error('ECONNRESET'); } };
    const idem = createIdempotency({ store: unreachable, leaseMs: 60, ttlMs: 60_000 });
    const started = Date.now();
    let abortedAfter = -1;
    const running = idem.run(request(), async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      abortedAfter = Date.now() - started;
      return 'late';
    });
    await expect(running).rejects.toBeInstanceOf(LeaseLostError);
    expect(extendCalls).toBeGreaterThanOrEqual(2);
    expect(abortedAfter).toBeGreaterThanOrEqual(55);
    expect((await store.get({ key: request().key, scope: 'usr-1' }))!.status).toBe('PROCESSING');
  });

  it('keeps leases of different lengths alive side by side', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 40, ttlMs: 60_000 });
    const running = Promise.all(
      [40, 90].map((leaseMs, i) =>
        idem.run(request(`k-${i}`), async () => {
          await sleep(leaseMs * 3);
          return leaseMs;
        }, { leaseMs }),
      ),
    );
    await sleep(100); // past the first lease's end: only the heartbeat keeps it
    for (const i of [0, 1]) await expect(idem.run(request(`k-${i}`), async () => -1)).rejects.toBeInstanceOf(InProgressError);
    expect((await running).map((r) => r.value)).toEqual([40, 90]);
    for (const i of [0, 1]) expect((await store.get({ key: `k-${i}`, scope: 'usr-1' }))!.status).toBe('COMPLETED');
  });
});

describe('engine options', () => {
  it('validates once at creation, naming the bad field', () => {
    const store = createMemoryStore();
    expect(() => createIdempotency({ store, leaseMs: -1 })).toThrow(/"leaseMs"/);
    expect(() => createIdempotency({ store, ttlMs: 1.5 })).toThrow(/"ttlMs"/);
    expect(() => createIdempotency({ store, leaseMs: 10_000, ttlMs: 5_000 })).toThrow(/"ttlMs".*"leaseMs"/);
    expect(() => createIdempotency({ store, maxKeyLength: 300 })).toThrow(/"maxKeyLength"/);
    expect(() => createIdempotency({ store, onExpired: 'later' as 'new' })).toThrow(/"onExpired"/);
    expect(() => createIdempotency({ store: {} as IdempotencyStore })).toThrow(/"store".*claim/);
    expect(() => createIdempotency({ store, leaseMs: -1 })).toThrow(InvalidOptionsError);
  });
});
