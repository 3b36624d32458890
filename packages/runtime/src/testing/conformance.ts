/**
 * The store conformance suite: one call proves a store keeps the contract of
 * src/core/store-contract.ts — ours and third-party stores alike. It runs every shared scenario of
 * conformance/scenarios.json, plus the store-clock checks the scenario format cannot express.
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
import { conformanceScenarios } from '../contract/conformance-scenarios.js';
import { runScenario } from './scenario-runner.js';

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
    // The shared, language-neutral scenarios (conformance/scenarios.json): the same list the
    // generated Go, Python and Java stores run.
    for (const scenario of conformanceScenarios.scenarios) {
      it(`scenario ${scenario.name}: ${scenario.description}`, withStore((store) => runScenario(store, scenario, { leaseMs, maxConcurrency: concurrency })));
    }

    // TypeScript-only checks: store-clock bounds that the scenario format does not express.
    it('claims with a store-clock token, lease and expiry', withStore(async (store) => {
      const key = testKey('absent');
      const before = await store.now();
      const result = claimed(await store.claim(input(key)));
      // A fresh record's fencing token starts at the store clock in whole ms, so it outgrows every
      // token an earlier, released incarnation of the same key handed out. (now() may carry a
      // fraction of a millisecond; the token is that clock truncated to an integer.)
      expect(result.lockVersion).toBeGreaterThanOrEqual(Math.floor(before));
      const record = await store.get({ key, scope: 'user-1' });
      expect(record).toMatchObject({ key, scope: 'user-1', fingerprint: fp, status: 'PROCESSING', lockVersion: result.lockVersion, response: null, owner: null });
      expect(record!.lockedUntil!).toBeGreaterThanOrEqual(before + leaseMs - 50);
      expect(record!.expiresAt).toBeGreaterThanOrEqual(before + ttlMs - 1000);
    }));

    it('returns a live PROCESSING record with the store clock instead of taking it over', withStore(async (store) => {
      const key = testKey('live');
      claimed(await store.claim(input(key, { leaseMs: 30_000 })));
      const result = existing(await store.claim(input(key)));
      expect(result.record.status).toBe('PROCESSING');
      expect(result.record.lockedUntil!).toBeGreaterThan(result.now);
      expect(Math.abs(result.now - Date.now())).toBeLessThan(5_000);
    }));

    it('extends on the store clock; a stale extend leaves the new holder\'s lease alone', withStore(async (store) => {
      const key = testKey('extend');
      const id = { key, scope: 'user-1' };
      const { lockVersion } = claimed(await store.claim(input(key)));
      expect(await store.extend({ ...id, lockVersion, leaseMs: 60_000 })).toBe('applied');
      expect((await store.get(id))!.lockedUntil!).toBeGreaterThan((await store.now()) + 50_000);
      const other = testKey('extendstale');
      const { lockVersion: stale } = claimed(await store.claim(input(other)));
      await sleep(leaseMs + 60);
      claimed(await store.claim(input(other)));
      expect(await store.extend({ key: other, scope: 'user-1', lockVersion: stale, leaseMs: 60_000 })).toBe('lost');
      expect((await store.get({ key: other, scope: 'user-1' }))!.lockedUntil!).toBeLessThan((await store.now()) + leaseMs + 1000);
    }));

    it('keeps a completed record for ttlMs from completion', withStore(async (store) => {
      const key = testKey('complete');
      const { lockVersion } = claimed(await store.claim(input(key)));
      expect(await store.complete({ key, scope: 'user-1', lockVersion, response: binaryResponse(), ttlMs })).toBe('applied');
      const result = existing(await store.claim(input(key)));
      expect(result.record.expiresAt).toBeGreaterThan(result.now + ttlMs - 5_000);
    }));

    it('counts its records and reads its own clock', withStore(async (store) => {
      const before = await store.size();
      for (const i of [1, 2, 3]) claimed(await store.claim(input(testKey(`size${i}`))));
      expect(await store.size()).toBe(before + 3);
      expect(Math.abs((await store.now()) - Date.now())).toBeLessThan(5_000);
    }));
  });
}
