/** The two-phase engine: begin() and its held claim, and the engine-side defects of issue 11. */
import { describe, expect, it } from 'vitest';
import {
  createIdempotency,
  ExecutionTimeoutError,
  fingerprintFields,
  FingerprintMismatchError,
  InProgressError,
  InvalidOptionsError,
  LeaseLostError,
  ReplayedFailureError,
  ResultNotSerializableError,
  StoreBusyError,
  StoreUnavailableError,
} from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import type { IdempotencyStore } from '../../src/core/store-contract.js';
import { capturingLogger, deferred, sleep } from './helpers.js';

const fp = fingerprintFields(['begin', 1]);
const otherFp = fingerprintFields(['begin', 2]);
const request = (key = 'k-1', fingerprint = fp) => ({ key, scope: 'usr-1', fingerprint });

/** A memory store that counts calls per method. */
function countingStore(base: IdempotencyStore = createMemoryStore()) {
  const calls = { claim: 0, complete: 0, fail: 0, release: 0, extend: 0 };
  const store: IdempotencyStore = {
    ...base,
    claim: (input) => (calls.claim++, base.claim(input)),
    complete: (input) => (calls.complete++, base.complete(input)),
    fail: (input) => (calls.fail++, base.fail(input)),
    release: (input) => (calls.release++, base.release(input)),
    extend: (input) => (calls.extend++, base.extend(input)),
  };
  return { store, calls, base };
}

const never = () => new Promise<never>(() => {});

describe('begin(): the two phases', () => {
  it('holds a claim, completes it, and answers the duplicate with the stored value', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 1_000 });
    const begun = await idem.begin<{ id: number }>(request());
    expect(begun.outcome).toBe('claimed');
    if (begun.outcome !== 'claimed') return;
    expect(begun.reclaimed).toBe(false);
    expect(begun.signal.aborted).toBe(false);
    await expect(idem.begin(request())).rejects.toBeInstanceOf(InProgressError);
    await begun.complete({ id: 7 });
    expect(await idem.begin(request())).toEqual({ outcome: 'replayed', value: { id: 7 }, replayed: true });
    await expect(idem.begin(request('k-1', otherFp))).rejects.toBeInstanceOf(FingerprintMismatchError);
    await expect(begun.complete({ id: 8 })).rejects.toThrow(/already/);
  });

  it('fail() records a permanent failure that is replayed; release() frees the key at once', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const first = await idem.begin(request('f'));
    if (first.outcome !== 'claimed') throw new Error('expected a claim');
    await first.fail(Object.assign(new Error('card declined'), { code: 'card_declined' }));
    await expect(idem.begin(request('f'))).rejects.toBeInstanceOf(ReplayedFailureError);

    const second = await idem.begin(request('r'));
    if (second.outcome !== 'claimed') throw new Error('expected a claim');
    expect(await second.release()).toBe(true);
    expect((await idem.begin(request('r'))).outcome).toBe('claimed');
  });
});

describe('single-flight and load shedding (issue 11 #1)', () => {
  it('10^4 concurrent duplicates of one key make ONE store claim and one execution', async () => {
    const { store, calls } = countingStore();
    const idem = createIdempotency({ store, leaseMs: 2_000 });
    let executions = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 10_000 }, () =>
        idem.run(request('flood'), async () => {
          executions++;
          await sleep(30);
          return 'once';
        }),
      ),
    );
    expect(executions).toBe(1);
    expect(calls.claim).toBe(1);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof InProgressError)).toHaveLength(9_999);
    expect(calls.complete).toBe(1);
  });

  it('a local duplicate with other parameters still gets fingerprint_mismatch, without a store call', async () => {
    const { store, calls } = countingStore();
    const idem = createIdempotency({ store, leaseMs: 2_000 });
    const gate = deferred();
    const holder = idem.run(request('mm'), () => gate.promise.then(() => 'ok'));
    await sleep(5);
    const before = calls.claim;
    await expect(idem.run(request('mm', otherFp), async () => 'x')).rejects.toBeInstanceOf(FingerprintMismatchError);
    expect(calls.claim).toBe(before);
    gate.resolve();
    await holder;
  });

  it('waiting duplicates (waitMs) wake when the local holder finishes and replay its value', async () => {
    const { store, calls } = countingStore();
    const idem = createIdempotency({ store, leaseMs: 2_000 });
    let executions = 0;
    const results = await Promise.all(
      Array.from({ length: 500 }, () => idem.run(request('wait'), async () => (executions++, await sleep(30), 'v'), { waitMs: 2_000 })),
    );
    expect(executions).toBe(1);
    expect(results.filter((r) => r.replayed)).toHaveLength(499);
    expect(results.every((r) => r.value === 'v')).toBe(true);
    expect(calls.claim).toBeLessThanOrEqual(3); // the first claim, one shared re-claim after completion
  });

  it('sheds claims past maxInFlightClaims + maxQueuedClaims with store_busy, and runs the rest', async () => {
    const slow: IdempotencyStore = { ...createMemoryStore() };
    const base = createMemoryStore();
    slow.claim = async (input) => (await sleep(20), base.claim(input));
    Object.assign(slow, { complete: base.complete, release: base.release, extend: base.extend, get: base.get, fail: base.fail });
    const idem = createIdempotency({ store: slow, maxInFlightClaims: 2, maxQueuedClaims: 3 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => idem.run(request(`busy-${i}`), async () => i)));
    const busy = results.filter((r) => r.status === 'rejected' && r.reason instanceof StoreBusyError);
    expect(busy).toHaveLength(5);
    expect((busy[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'store_busy', retryAfterMs: 1000 });
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
  });
});

describe('hung store calls and the lease watchdog (issue 11 #2)', () => {
  it('aborts the signal after a whole lease without a successful extension, even while the extension hangs', async () => {
    const { store, base } = countingStore();
    let extends_ = 0;
    const hanging: IdempotencyStore = { ...store, extend: () => (extends_++, never()) };
    const idem = createIdempotency({ store: hanging, leaseMs: 90, storeTimeoutMs: 60_000 });
    const started = Date.now();
    let abortedAfter = -1;
    const running = idem.run(request('hang'), async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      abortedAfter = Date.now() - started;
      return 'late';
    });
    await expect(running).rejects.toBeInstanceOf(LeaseLostError);
    expect(abortedAfter).toBeGreaterThanOrEqual(85);
    expect(abortedAfter).toBeLessThan(400);
    expect(extends_).toBeGreaterThanOrEqual(1);
    expect((await base.get({ key: 'hang', scope: 'usr-1' }))!.status).toBe('PROCESSING');
  });

  it('one hung extension does not block the next: it times out at leaseMs/3 and a later beat keeps the lease', async () => {
    const base = createMemoryStore();
    let calls = 0;
    const firstHangs: IdempotencyStore = { ...base, extend: (input) => (++calls === 1 ? never() : base.extend(input)) };
    const idem = createIdempotency({ store: firstHangs, leaseMs: 300, storeTimeoutMs: 60_000 });
    const result = await idem.run(request('one-hang'), async ({ signal }) => {
      await sleep(700); // more than two leases: only later, successful beats keep it
      return signal.aborted;
    });
    expect(result).toEqual({ value: false, replayed: false });
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it('a hung claim answers store_unavailable after storeTimeoutMs; the action never runs', async () => {
    const hanging: IdempotencyStore = { ...createMemoryStore(), claim: never };
    const idem = createIdempotency({ store: hanging, storeTimeoutMs: 50 });
    let ran = false;
    const started = Date.now();
    await expect(idem.run(request('claim-hang'), async () => (ran = true))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(ran).toBe(false);
  });

  it('a hung completion gives up after its attempts instead of hanging run()', async () => {
    const hanging: IdempotencyStore = { ...createMemoryStore(), complete: never };
    const idem = createIdempotency({ store: hanging, storeTimeoutMs: 30, finishAttempts: 2 });
    await expect(idem.run(request('complete-hang'), async () => 'v')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('maximum execution time and client disconnect (issue 11 #5)', () => {
  it('aborts an action that never answers, rejects run() with execution_timeout, and frees the key', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 60, maxExecutionMs: 100 });
    let reason: unknown;
    const started = Date.now();
    const running = idem.run(request('slow'), ({ signal }) => {
      signal.addEventListener('abort', () => (reason = signal.reason));
      return new Promise<string>((resolve) => signal.addEventListener('abort', () => setTimeout(() => resolve('late'), 20)));
    });
    await expect(running).rejects.toBeInstanceOf(ExecutionTimeoutError);
    expect(Date.now() - started).toBeLessThan(400);
    expect(reason).toBeInstanceOf(ExecutionTimeoutError);
    await sleep(60); // the action settles after its abort: the claim is released, nothing stored
    expect(await store.get({ key: 'slow', scope: 'usr-1' })).toBeNull();
    expect((await idem.run(request('slow'), async () => 'second')).value).toBe('second');
  });

  it('a handler that ignores its signal leaves the key PROCESSING only until its lease lapses', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store, leaseMs: 60 });
    const running = idem.run(request('stuck'), () => never(), { maxExecutionMs: 50 });
    await expect(running).rejects.toBeInstanceOf(ExecutionTimeoutError);
    await sleep(150); // no more heartbeats after the deadline: the lease runs out
    const retry = await idem.run(request('stuck'), async ({ reclaimed }) => reclaimed);
    expect(retry).toEqual({ value: true, replayed: false });
  });

  it('validates maxExecutionMs', () => {
    expect(() => createIdempotency({ store: createMemoryStore(), maxExecutionMs: 0 })).toThrow(/"maxExecutionMs"/);
  });

  it('passes the caller signal (client disconnect) to the action as a notice: the action decides, its value is stored', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    const disconnect = new AbortController();
    const result = idem.run(
      request('gone'),
      async ({ signal }) => {
        disconnect.abort(new Error('client went away'));
        await sleep(1);
        return { sawAbort: signal.aborted, reason: (signal.reason as Error).message };
      },
      { signal: disconnect.signal },
    );
    expect(await result).toEqual({ value: { sawAbort: true, reason: 'client went away' }, replayed: false });
    expect((await store.get({ key: 'gone', scope: 'usr-1' }))!.status).toBe('COMPLETED');
  });
});

describe('results the serializer cannot encode (issue 11 #7)', () => {
  it('releases the claim and throws result_not_serializable for a BigInt result', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    await expect(idem.run(request('big'), async () => ({ amount: 10n }))).rejects.toBeInstanceOf(ResultNotSerializableError);
    expect(await store.get({ key: 'big', scope: 'usr-1' })).toBeNull();
    expect((await idem.run(request('big'), async () => ({ amount: '10' }))).replayed).toBe(false);
  });
});

describe('per-call durations (issue 11 #14)', () => {
  it('validates per-call leaseMs and ttlMs like the engine options', async () => {
    const idem = createIdempotency({ store: createMemoryStore() });
    let ran = 0;
    for (const bad of [{ leaseMs: 0 }, { leaseMs: 9 }, { ttlMs: 0 }, { leaseMs: 10_000, ttlMs: 5_000 }, { leaseMs: 1.5 }]) {
      await expect(idem.run(request(`d-${ran}`), async () => ran++, bad)).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(idem.begin(request(`d-${ran}`), bad)).rejects.toBeInstanceOf(InvalidOptionsError);
    }
    expect(ran).toBe(0);
    expect((await idem.run(request('ok'), async () => 1, { leaseMs: 10, ttlMs: 10 })).value).toBe(1);
  });
});

describe('shouldStore=false and a failing release (issue 11 #15)', () => {
  it('returns the value and logs the release failure instead of throwing', async () => {
    const { logger, lines } = capturingLogger();
    const failing: IdempotencyStore = { ...createMemoryStore(), release: async () => Promise.reject(new Error('ECONNRESET')) };
    const idem = createIdempotency({ store: failing, logger });
    const result = await idem.run(request('no-store'), async () => ({ status: 503 }), { shouldStore: (v) => v.status < 500 });
    expect(result).toEqual({ value: { status: 503 }, replayed: false });
    expect(lines.some((line) => line.includes('release failed'))).toBe(true);
  });
});
