/**
 * The store conformance suite: one call proves a store keeps the contract of
 * src/stores/contract.ts — ours and third-party stores alike.
 *
 * @example
 * // test/stores/my-store.test.ts
 * import { runStoreConformance } from '@idempotency-builder/runtime/testing';
 * runStoreConformance({ name: 'my-store', createStore: () => createMyStore({ prefix: uniquePrefix() }) });
 */
import { describe, expect, it } from 'vitest';
import type { StoredResponse } from '../core/record.js';
import type { ClaimInput, ClaimResult, IdempotencyStore } from '../core/store-contract.js';
import { fingerprintFields } from '../core/fingerprint.js';

export interface StoreConformanceOptions {
  /** Shown in the suite title. */
  readonly name: string;
  /** A fresh store over an empty namespace (own table, schema, prefix or file) for each test. */
  readonly createStore: () => IdempotencyStore | Promise<IdempotencyStore>;
  /** Cleans up after each test (drop schema, flush prefix); `close()` is called before it. */
  readonly destroyStore?: (store: IdempotencyStore) => void | Promise<void>;
  /** A reason to skip the whole suite (e.g. "PostgreSQL not reachable"), or false to run. */
  readonly skip?: string | false;
  /**
   * Lease length used by the timing tests, in ms. Stores with a coarse clock (e.g. 1 s) need more.
   * Default 150.
   */
  readonly leaseMs?: number;
  /** How many concurrent claimers race for one key. Default 64. */
  readonly concurrency?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let keyCounter = 0;
/** Unique keys per test so a store shared by mistake still cannot pass on stale data. */
export const testKey = (label: string) => `conf_${label}_${process.pid}_${++keyCounter}`;

/** A response with every byte value, so any lossy encoding (UTF-8, base64 mistakes) shows. */
export function binaryResponse(size = 256): StoredResponse {
  const body = new Uint8Array(size);
  for (let i = 0; i < size; i++) body[i] = i % 256;
  return { statusCode: 201, headers: { 'content-type': 'application/octet-stream', location: '/payments/1' }, body, encoding: 'bytes' };
}

function claimed(result: ClaimResult) {
  if (result.outcome !== 'claimed') throw new Error(`expected a claim, got existing ${result.record.status}`);
  return result;
}

function existing(result: ClaimResult) {
  if (result.outcome !== 'existing') throw new Error('expected an existing record, got a claim');
  return result;
}

/** Registers the conformance tests for one store with vitest. */
export function runStoreConformance(options: StoreConformanceOptions): void {
  const { name, skip = false, concurrency = 64 } = options;
  const leaseMs = options.leaseMs ?? 150;
  const ttlMs = 60_000;
  const fp = fingerprintFields(['conformance', 1]);
  const otherFp = fingerprintFields(['conformance', 2]);
  const input = (key: string, overrides: Partial<ClaimInput> = {}): ClaimInput => ({
    key,
    scope: 'user-1',
    fingerprint: fp,
    owner: null,
    leaseMs,
    ttlMs,
    replaceExpired: true,
    ...overrides,
  });

  /** Runs `body` with a fresh store, always closing and destroying it. */
  const withStore = (body: (store: IdempotencyStore) => Promise<void>) => async () => {
    const store = await options.createStore();
    try {
      await body(store);
    } finally {
      await store.close();
      await options.destroyStore?.(store);
    }
  };

  describe.skipIf(Boolean(skip))(`store conformance: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('claims an absent key once, as PROCESSING with a store-clock token and lease', withStore(async (store) => {
      const key = testKey('absent');
      const before = await store.now();
      const result = claimed(await store.claim(input(key)));
      expect(result).toMatchObject({ reclaimed: false, replacedExpired: false });
      // A fresh record's fencing token starts at the store clock (ms), so it outgrows every token
      // an earlier, released incarnation of the same key handed out.
      expect(result.lockVersion).toBeGreaterThanOrEqual(before);
      const record = await store.get({ key, scope: 'user-1' });
      expect(record).toMatchObject({ key, scope: 'user-1', fingerprint: fp, status: 'PROCESSING', lockVersion: result.lockVersion, response: null, owner: null });
      expect(record!.lockedUntil).toBeGreaterThanOrEqual(before + leaseMs - 50);
      expect(record!.expiresAt).toBeGreaterThanOrEqual(before + ttlMs - 1000);
      expect(await store.get({ key, scope: 'user-2' })).toBeNull();
    }));

    it(`gives exactly one of ${concurrency} concurrent claims of one key`, withStore(async (store) => {
      const key = testKey('race');
      // A long lease: a slow burst on a loaded host must not turn late duplicates into reclaims.
      const results = await Promise.all(Array.from({ length: concurrency }, () => store.claim(input(key, { leaseMs: 30_000 }))));
      const winners = results.filter((r) => r.outcome === 'claimed').map(claimed);
      expect(winners).toHaveLength(1);
      for (const r of results.filter((r) => r.outcome === 'existing')) {
        expect(existing(r).record.status).toBe('PROCESSING');
        expect(existing(r).record.lockVersion).toBe(winners[0]!.lockVersion);
      }
    }));

    it('never answers "not found" when many fresh keys are claimed concurrently with duplicates', withStore(async (store) => {
      const keys = Array.from({ length: 16 }, (_, i) => testKey(`fresh${i}`));
      const results = await Promise.all(
        keys.flatMap((key) => Array.from({ length: 4 }, () => store.claim(input(key, { leaseMs: 30_000 })).then((r) => ({ key, r })))),
      );
      for (const key of keys) {
        const mine = results.filter((x) => x.key === key).map((x) => x.r);
        expect(mine.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
        expect(mine.filter((r) => r.outcome === 'existing')).toHaveLength(3);
      }
    }));

    it('keeps the same key in two scopes as two records', withStore(async (store) => {
      const key = testKey('scopes');
      claimed(await store.claim(input(key, { scope: 'user-1' })));
      claimed(await store.claim(input(key, { scope: 'user-2', fingerprint: otherFp })));
      expect((await store.get({ key, scope: 'user-1' }))!.fingerprint).toBe(fp);
      expect((await store.get({ key, scope: 'user-2' }))!.fingerprint).toBe(otherFp);
    }));

    it('returns a live PROCESSING record with the store clock instead of taking it over', withStore(async (store) => {
      const key = testKey('live');
      claimed(await store.claim(input(key, { leaseMs: 30_000 })));
      const result = existing(await store.claim(input(key)));
      expect(result.record.status).toBe('PROCESSING');
      expect(result.record.lockedUntil!).toBeGreaterThan(result.now);
      expect(Math.abs(result.now - Date.now())).toBeLessThan(5_000);
    }));

    it('lets exactly one of many concurrent reclaimers take over an orphan, growing lockVersion', withStore(async (store) => {
      const key = testKey('orphan');
      const first = claimed(await store.claim(input(key)));
      await sleep(leaseMs + 60);
      const results = await Promise.all(Array.from({ length: Math.min(concurrency, 32) }, () => store.claim(input(key, { leaseMs: 30_000 }))));
      const winners = results.filter((r) => r.outcome === 'claimed').map(claimed);
      expect(winners).toHaveLength(1);
      expect(winners[0]).toMatchObject({ lockVersion: first.lockVersion + 1, reclaimed: true });
      expect((await store.get({ key, scope: 'user-1' }))!.lockVersion).toBe(first.lockVersion + 1);
    }));

    it('does not let a different fingerprint take over an orphan', withStore(async (store) => {
      const key = testKey('orphanfp');
      const first = claimed(await store.claim(input(key)));
      await sleep(leaseMs + 60);
      const result = existing(await store.claim(input(key, { fingerprint: otherFp })));
      expect(result.record.fingerprint).toBe(fp);
      expect(result.record.lockVersion).toBe(first.lockVersion);
    }));

    it('refuses stale complete/fail/release/extend after a reclaim, changing nothing', withStore(async (store) => {
      const key = testKey('stale');
      const id = { key, scope: 'user-1' };
      const { lockVersion: stale } = claimed(await store.claim(input(key)));
      await sleep(leaseMs + 60);
      const second = claimed(await store.claim(input(key)));
      const response = binaryResponse(8);
      expect(await store.complete({ ...id, lockVersion: stale, response, ttlMs })).toBe('lost');
      expect(await store.fail({ ...id, lockVersion: stale, response, ttlMs })).toBe('lost');
      expect(await store.release({ ...id, lockVersion: stale })).toBe('lost');
      expect(await store.extend({ ...id, lockVersion: stale, leaseMs: 60_000 })).toBe('lost');
      const record = await store.get(id);
      expect(record).toMatchObject({ status: 'PROCESSING', lockVersion: second.lockVersion, response: null });
      expect(record!.lockedUntil!).toBeLessThan((await store.now()) + leaseMs + 1000);
      expect(await store.complete({ ...id, lockVersion: second.lockVersion, response, ttlMs })).toBe('applied');
    }));

    it('completes once: COMPLETED with the response, no lease, then replayable as existing', withStore(async (store) => {
      const key = testKey('complete');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      const response = binaryResponse();
      expect(await store.complete({ ...id, lockVersion, response, ttlMs })).toBe('applied');
      expect(await store.complete({ ...id, lockVersion, response, ttlMs })).toBe('lost');
      const result = existing(await store.claim(input(key)));
      expect(result.record).toMatchObject({ status: 'COMPLETED', lockedUntil: null, lockVersion });
      expect(result.record.completedAt).not.toBeNull();
      expect(result.record.expiresAt).toBeGreaterThan(result.now + ttlMs - 5_000);
      expect(result.record.response!.statusCode).toBe(201);
      expect(result.record.response!.headers).toEqual(response.headers);
      expect(result.record.response!.encoding).toBe('bytes');
      expect(Buffer.from(result.record.response!.body).equals(Buffer.from(response.body))).toBe(true);
    }));

    it('round-trips a 1 MiB binary response intact', withStore(async (store) => {
      const key = testKey('big');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      const response = binaryResponse(1024 * 1024);
      expect(await store.complete({ ...id, lockVersion, response, ttlMs })).toBe('applied');
      const record = await store.get(id);
      expect(record!.response!.body.byteLength).toBe(1024 * 1024);
      expect(Buffer.from(record!.response!.body).equals(Buffer.from(response.body))).toBe(true);
    }));

    it('records a permanent failure as FAILED with its stored error', withStore(async (store) => {
      const key = testKey('fail');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      const response: StoredResponse = { statusCode: 422, headers: null, body: new TextEncoder().encode('{"message":"card declined"}'), encoding: 'error+json' };
      expect(await store.fail({ ...id, lockVersion, response, ttlMs })).toBe('applied');
      const record = await store.get(id);
      expect(record).toMatchObject({ status: 'FAILED', lockedUntil: null });
      expect(record!.response).toMatchObject({ statusCode: 422, headers: null, encoding: 'error+json' });
      expect(new TextDecoder().decode(record!.response!.body)).toBe('{"message":"card declined"}');
    }));

    it('releases on a transient error: the key is claimable again at once', withStore(async (store) => {
      const key = testKey('release');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key, { leaseMs: 30_000 })));
      expect(await store.release({ ...id, lockVersion })).toBe('applied');
      expect(await store.get(id)).toBeNull();
      const again = claimed(await store.claim(input(key)));
      expect(again.reclaimed).toBe(false);
    }));

    it('never hands out a token again after release: a stalled old holder stays fenced out', withStore(async (store) => {
      // A claims and stalls; B reclaims and releases (transient error); C claims the free key.
      // A's late completion must not land in C's record.
      const key = testKey('aba');
      const id = { key, scope: 'user-1' };
      const a = claimed(await store.claim(input(key)));
      await sleep(leaseMs + 60);
      const b = claimed(await store.claim(input(key)));
      expect(await store.release({ ...id, lockVersion: b.lockVersion })).toBe('applied');
      await sleep(5);
      const c = claimed(await store.claim(input(key, { fingerprint: otherFp, leaseMs: 30_000 })));
      expect(c.lockVersion).toBeGreaterThan(b.lockVersion);
      expect(await store.complete({ ...id, lockVersion: a.lockVersion, response: binaryResponse(3), ttlMs })).toBe('lost');
      expect(await store.complete({ ...id, lockVersion: c.lockVersion, response: binaryResponse(5), ttlMs })).toBe('applied');
      expect((await store.get(id))!.fingerprint).toBe(otherFp);
    }));

    it('extends a held lease on the store clock and refuses to extend a finished record', withStore(async (store) => {
      const key = testKey('extend');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      expect(await store.extend({ ...id, lockVersion, leaseMs: 60_000 })).toBe('applied');
      const record = await store.get(id);
      expect(record!.lockedUntil!).toBeGreaterThan((await store.now()) + 50_000);
      await sleep(leaseMs + 60);
      existing(await store.claim(input(key))); // extended: no takeover
      expect(await store.complete({ ...id, lockVersion, response: binaryResponse(4), ttlMs })).toBe('applied');
      expect(await store.extend({ ...id, lockVersion, leaseMs: 60_000 })).toBe('lost');
    }));

    it('never returns an expired record as replayable; replaces it, or returns it when asked to keep it', withStore(async (store) => {
      const key = testKey('expired');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      expect(await store.complete({ ...id, lockVersion, response: binaryResponse(4), ttlMs: 50 })).toBe('applied');
      await sleep(120);
      const kept = existing(await store.claim(input(key, { replaceExpired: false })));
      expect(kept.record.expiresAt).toBeLessThanOrEqual(kept.now);
      const replaced = claimed(await store.claim(input(key, { fingerprint: otherFp })));
      expect(replaced.replacedExpired).toBe(true);
      expect(replaced.lockVersion).toBeGreaterThan(lockVersion);
      expect(await store.get(id)).toMatchObject({ status: 'PROCESSING', fingerprint: otherFp, response: null });
    }));

    it('gives exactly one claim when many race for an expired record', withStore(async (store) => {
      const key = testKey('expiredrace');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      await store.complete({ ...id, lockVersion, response: binaryResponse(4), ttlMs: 50 });
      await sleep(120);
      const results = await Promise.all(Array.from({ length: Math.min(concurrency, 32) }, () => store.claim(input(key, { leaseMs: 30_000 }))));
      expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
      for (const r of results) if (r.outcome === 'existing') expect(r.record.status).toBe('PROCESSING');
    }));

    it('purges only expired COMPLETED/FAILED records, in batches', withStore(async (store) => {
      const finish = async (key: string, ttl: number, as: 'complete' | 'fail') => {
        const { lockVersion } = claimed(await store.claim(input(key)));
        await store[as]({ key, scope: 'user-1', lockVersion, response: binaryResponse(4), ttlMs: ttl });
      };
      const expiredKeys = Array.from({ length: 5 }, (_, i) => testKey(`purge${i}`));
      for (const [i, key] of expiredKeys.entries()) await finish(key, 50, i % 2 ? 'fail' : 'complete');
      const live = testKey('purgelive');
      await finish(live, ttlMs, 'complete');
      const orphan = testKey('purgeorphan');
      claimed(await store.claim(input(orphan, { ttlMs: 50 }))); // PROCESSING, lease and ttl both past soon
      await sleep(leaseMs + 80);
      expect(await store.purgeExpired(2)).toBe(2);
      expect(await store.purgeExpired(100)).toBe(3);
      expect(await store.purgeExpired(100)).toBe(0);
      for (const key of expiredKeys) expect(await store.get({ key, scope: 'user-1' })).toBeNull();
      expect(await store.get({ key: live, scope: 'user-1' })).not.toBeNull();
      expect((await store.get({ key: orphan, scope: 'user-1' }))!.status).toBe('PROCESSING');
    }));

    it('lists stuck PROCESSING records (lease over) for the runbook, oldest first, bounded', withStore(async (store) => {
      const stuck = [testKey('stuck1'), testKey('stuck2'), testKey('stuck3')];
      for (const key of stuck) claimed(await store.claim(input(key)));
      const live = testKey('stucklive');
      claimed(await store.claim(input(live, { leaseMs: 30_000 })));
      const done = testKey('stuckdone');
      const { lockVersion } = claimed(await store.claim(input(done)));
      await store.complete({ key: done, scope: 'user-1', lockVersion, response: binaryResponse(4), ttlMs });
      await sleep(leaseMs + 60);
      const listed = await store.listStuck({ olderThanMs: 0, limit: 10 });
      expect(listed.map((r) => r.key).sort()).toEqual([...stuck].sort());
      expect(listed.every((r) => r.status === 'PROCESSING')).toBe(true);
      expect(await store.listStuck({ olderThanMs: 0, limit: 2 })).toHaveLength(2);
      expect(await store.listStuck({ olderThanMs: 3_600_000, limit: 10 })).toHaveLength(0);
    }));

    it('force-releases a held record: the old holder is fenced out, the same intent can reclaim', withStore(async (store) => {
      const key = testKey('force');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key, { leaseMs: 30_000 })));
      expect(await store.forceRelease(id)).toBe(true);
      expect(await store.complete({ ...id, lockVersion, response: binaryResponse(4), ttlMs })).toBe('lost');
      const retry = claimed(await store.claim(input(key)));
      expect(retry.lockVersion).toBeGreaterThan(lockVersion + 1);
      expect(retry.reclaimed).toBe(true);
      expect(await store.complete({ ...id, lockVersion: retry.lockVersion, response: binaryResponse(4), ttlMs })).toBe('applied');
      expect(await store.forceRelease(id)).toBe(false); // COMPLETED: nothing to release
      expect(await store.forceRelease({ key: testKey('none'), scope: 'user-1' })).toBe(false);
    }));

    it('lets only the newest holder finish when an old and a new holder race to complete', withStore(async (store) => {
      const key = testKey('finishrace');
      const id = { key, scope: 'user-1' };
      const { lockVersion: stale } = claimed(await store.claim(input(key)));
      await sleep(leaseMs + 60);
      const second = claimed(await store.claim(input(key)));
      const results = await Promise.all([
        store.complete({ ...id, lockVersion: stale, response: binaryResponse(3), ttlMs }),
        store.complete({ ...id, lockVersion: second.lockVersion, response: binaryResponse(5), ttlMs }),
        store.fail({ ...id, lockVersion: stale, response: binaryResponse(7), ttlMs }),
      ]);
      expect(results).toEqual(['lost', 'applied', 'lost']);
      expect((await store.get(id))!.response!.body.byteLength).toBe(5);
    }));

    it('does not let another owner take over an orphan in a shared namespace', withStore(async (store) => {
      const key = testKey('orphanowner');
      const first = claimed(await store.claim(input(key, { scope: 'global', owner: 'alice' })));
      await sleep(leaseMs + 60);
      const result = existing(await store.claim(input(key, { scope: 'global', owner: 'bob' })));
      expect(result.record).toMatchObject({ owner: 'alice', lockVersion: first.lockVersion, status: 'PROCESSING' });
      expect(claimed(await store.claim(input(key, { scope: 'global', owner: 'alice' }))).reclaimed).toBe(true);
    }));

    it('refuses release/extend/complete on a finished record even with its current lockVersion', withStore(async (store) => {
      const key = testKey('finished');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      expect(await store.complete({ ...id, lockVersion, response: binaryResponse(4), ttlMs })).toBe('applied');
      expect(await store.release({ ...id, lockVersion })).toBe('lost');
      expect(await store.fail({ ...id, lockVersion, response: binaryResponse(2), ttlMs })).toBe('lost');
      expect(await store.get(id)).toMatchObject({ status: 'COMPLETED', lockVersion });
      expect((await store.get(id))!.response!.body.byteLength).toBe(4);
    }));

    it('never drops a PROCESSING record whose ttl ends before its lease', withStore(async (store) => {
      const key = testKey('shortttl');
      const { lockVersion } = claimed(await store.claim(input(key, { ttlMs: 20, leaseMs: 30_000 })));
      await sleep(80);
      const result = existing(await store.claim(input(key)));
      expect(result.record).toMatchObject({ status: 'PROCESSING', lockVersion });
      expect(await store.purgeExpired(100)).toBe(0);
    }));

    it('keeps the owner of a shared-namespace record', withStore(async (store) => {
      const key = testKey('owner');
      claimed(await store.claim(input(key, { scope: 'global', owner: 'alice' })));
      const other = existing(await store.claim(input(key, { scope: 'global', owner: 'bob' })));
      expect(other.record.owner).toBe('alice');
    }));

    it('counts its records and reads its own clock', withStore(async (store) => {
      const before = await store.size();
      for (const i of [1, 2, 3]) claimed(await store.claim(input(testKey(`size${i}`))));
      expect(await store.size()).toBe(before + 3);
      expect(Math.abs((await store.now()) - Date.now())).toBeLessThan(5_000);
    }));
  });
}
