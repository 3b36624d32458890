/**
 * The Redis store on the shared standalone server (127.0.0.1:6379): the conformance suite through
 * ioredis and through node-redis, each test under its own key prefix (deleted afterwards), plus
 * what only Redis has: PEXPIREAT against the lease, the release fence, replies across client
 * protocols, WAIT failing closed, and many concurrent duplicates through the engine.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createIdempotency, fingerprintFields, InProgressError, InvalidOptionsError, StoreUnavailableError } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import type { ClaimResult } from '../../src/core/store-contract.js';
import { binaryResponse, runStoreConformance, testKey } from '../../src/testing/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { deleteRunKeys, uniquePrefix } from './redis-support/prefix.js';
import { sleep } from './redis-support/redis-server.js';

const available = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));
const skip = available ? false : 'Redis is not reachable on 127.0.0.1:6379';
const io = available ? new Redis({ port: 6379, host: '127.0.0.1' }) : undefined;
// ioredis 6 loses the command name of call()/callBuffer() under auto-pipelining: the store must not rely on them.
const ioAuto = available ? new Redis({ port: 6379, host: '127.0.0.1', enableAutoPipelining: true }) : undefined;
const nodeRedis = available ? await createClient({ socket: { port: 6379, host: '127.0.0.1' } }).connect() : undefined;

afterAll(async () => {
  if (!io) return;
  await deleteRunKeys(io);
  io.disconnect();
  ioAuto?.disconnect();
  await nodeRedis?.close();
});

/** A store under a fresh prefix (under this file's run root, deleted afterwards). */
function storeOver(client: Redis | NonNullable<typeof nodeRedis>, label: string, options: { keepExpiredMs?: number; waitForReplicas?: { count: number; timeoutMs: number } } = {}) {
  return createRedisStore({ client, prefix: uniquePrefix(label), ...options });
}

runStoreConformance({ name: 'redis (ioredis, standalone)', skip, createStore: () => storeOver(io!, 'conf-io') });
runStoreConformance({ name: 'redis (ioredis with enableAutoPipelining, standalone)', skip, createStore: () => storeOver(ioAuto!, 'conf-ioap') });
runStoreConformance({ name: 'redis (node-redis, standalone)', skip, createStore: () => storeOver(nodeRedis!, 'conf-nr') });

const fp = fingerprintFields(['redis', 1]);
const claimInput = (key: string, overrides: Partial<Parameters<ReturnType<typeof createRedisStore>['claim']>[0]> = {}) => ({
  key,
  scope: 'user-1',
  fingerprint: fp,
  owner: null,
  leaseMs: 150,
  ttlMs: 60_000,
  replaceExpired: true,
  ...overrides,
});
const claimed = (result: ClaimResult) => {
  if (result.outcome !== 'claimed') throw new Error(`expected a claim, got existing ${result.record.status}`);
  return result;
};

describe.skipIf(Boolean(skip))('redis store: what only Redis has', () => {
  it('gives a PROCESSING record no TTL, so an orphan stays for the runbook; a finished one PEXPIREAT = expiresAt + keepExpiredMs', async () => {
    const store = storeOver(io!, 'pexpire', { keepExpiredMs: 60_000 });
    const key = testKey('pexpire');
    const id = { key, scope: 'user-1' };
    const { record } = store.keysOf(id);
    const first = claimed(await store.claim(claimInput(key, { leaseMs: 100, ttlMs: 50 })));
    expect(await io!.pttl(record)).toBe(-1);
    await sleep(200); // lease and retention both over: an orphan
    expect(await store.get(id)).toMatchObject({ status: 'PROCESSING', lockVersion: first.lockVersion });
    expect((await store.listStuck({ olderThanMs: 0, limit: 10 })).map((r) => r.key)).toEqual([key]);
    const second = claimed(await store.claim(claimInput(key, { leaseMs: 30_000, ttlMs: 5_000 }))); // the same intent retries
    expect(second.reclaimed).toBe(true);
    expect(await store.extend({ ...id, lockVersion: second.lockVersion, leaseMs: 60_000 })).toBe('applied');
    expect(await io!.pttl(record)).toBe(-1);
    expect(await store.complete({ ...id, lockVersion: second.lockVersion, response: binaryResponse(4), ttlMs: 5_000 })).toBe('applied');
    const done = await store.get(id);
    expect(Number(await io!.pexpiretime(record))).toBe(done!.expiresAt + 60_000);
  });

  it('lets Redis drop a finished record keepExpiredMs after expiresAt, and keeps it readable until then', async () => {
    const kept = storeOver(io!, 'keep', { keepExpiredMs: 60_000 });
    const dropped = storeOver(io!, 'drop', { keepExpiredMs: 0 });
    for (const store of [kept, dropped]) {
      const key = testKey('keep');
      const { lockVersion } = claimed(await store.claim(claimInput(key)));
      await store.complete({ key, scope: 'user-1', lockVersion, response: binaryResponse(4), ttlMs: 50 });
    }
    await sleep(120);
    const keptKey = (await kept.listStuck({ olderThanMs: 0, limit: 10 })).length; // no PROCESSING records there
    expect(keptKey).toBe(0);
    expect(await kept.size()).toBe(1); // expired but kept: answers onExpired 'reject', never replayed
    expect(await dropped.size()).toBe(0); // Redis expired it by itself
  });

  it('starts a claim after a release above the released token, even when tokens grew faster than the clock', async () => {
    const store = storeOver(io!, 'fence');
    const key = testKey('fence');
    const id = { key, scope: 'user-1' };
    const first = claimed(await store.claim(claimInput(key)));
    const before = await store.now();
    expect(first.lockVersion).toBeLessThanOrEqual(before); // a fresh token is the server clock in ms
    // 2000 force-releases add 2000 to the token in far less than 2 s: faster than the clock.
    // Only the fence can keep the next claim above them.
    const forced = await Promise.all(Array.from({ length: 2_000 }, () => store.forceRelease(id)));
    expect(forced.every(Boolean)).toBe(true);
    const bumped = claimed(await store.claim(claimInput(key, { leaseMs: 30_000 })));
    expect(bumped).toMatchObject({ lockVersion: first.lockVersion + 2_001, reclaimed: true });
    expect(await store.release({ ...id, lockVersion: bumped.lockVersion })).toBe('applied'); // transient error
    expect(await store.get(id)).toBeNull();
    const third = claimed(await store.claim(claimInput(key, { leaseMs: 30_000 })));
    expect(third.lockVersion).toBeGreaterThan(bumped.lockVersion);
    for (const stale of [first.lockVersion, bumped.lockVersion]) {
      expect(await store.complete({ ...id, lockVersion: stale, response: binaryResponse(3), ttlMs: 60_000 })).toBe('lost');
    }
    expect(await store.complete({ ...id, lockVersion: third.lockVersion, response: binaryResponse(5), ttlMs: 60_000 })).toBe('applied');
    expect((await store.get(id))!.response!.body.byteLength).toBe(5);
    expect(await store.size()).toBe(1); // the fence key is not a record
  });

  it('stores bodies byte for byte whichever way they are sent (small UTF-8 as text, other bytes as Buffers)', async () => {
    const utf8 = (text: string) => new TextEncoder().encode(text);
    const bodies = {
      bom: new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('{"a":1}')]), // TextDecoder drops a BOM unless told not to
      multibyte: utf8('{"name":"Zoë €5 😀"}'),
      invalid: new Uint8Array([0x7b, 0xc3, 0x28, 0xff, 0x7d]), // not UTF-8: must not become U+FFFD
      lone: new Uint8Array([0xed, 0xa0, 0x80]), // an encoded lone surrogate: invalid UTF-8
      large: utf8(`"${'x'.repeat(40 * 1024)}é"`), // over the text limit: sent as a Buffer
      empty: new Uint8Array(0),
    };
    for (const [client, label] of [
      [ioAuto!, 'bytes-io'],
      [nodeRedis!, 'bytes-nr'],
    ] as const) {
      const store = storeOver(client, label);
      for (const [name, body] of Object.entries(bodies)) {
        const id = { key: testKey(name), scope: 'user-1' };
        const { lockVersion } = claimed(await store.claim(claimInput(id.key)));
        const response = { statusCode: 200, headers: null, body, encoding: 'bytes' };
        expect(await store.complete({ ...id, lockVersion, response, ttlMs: 60_000 })).toBe('applied');
        expect(Buffer.from((await store.get(id))!.response!.body).equals(Buffer.from(body)), `${label} ${name}`).toBe(true);
      }
    }
  });

  it('reads the same records through RESP2, RESP3, stringNumbers and node-redis clients', async () => {
    const variants = [
      new Redis({ port: 6379, host: '127.0.0.1', protocol: 2 }),
      new Redis({ port: 6379, host: '127.0.0.1', protocol: 3, stringNumbers: true }),
      new Redis({ port: 6379, host: '127.0.0.1', protocol: 3, replyMapping: 'resp3' }),
    ];
    try {
      const writer = storeOver(io!, 'variants');
      const key = testKey('variants');
      const id = { key, scope: 'tenant{7}|x' }; // braces and bar in the scope are escaped in the hash tag
      const { lockVersion } = claimed(await writer.claim(claimInput(key, { scope: id.scope, owner: '' })));
      const response = binaryResponse(2_048);
      await writer.complete({ ...id, lockVersion, response, ttlMs: 60_000 });
      const expected = await writer.get(id);
      expect(expected).toMatchObject({ owner: '', status: 'COMPLETED', lockVersion });
      for (const client of [...variants, nodeRedis!]) {
        const reader = createRedisStore({ client, prefix: writer.prefix });
        expect(await reader.get(id)).toEqual(expected);
        const again = await reader.claim(claimInput(key, { scope: id.scope, owner: '' }));
        expect(again.outcome === 'existing' && again.record).toEqual(expected);
      }
    } finally {
      for (const client of variants) client.disconnect();
    }
  });

  it('fails a claim closed when WAIT finds fewer replicas than asked, and gives the key back', async () => {
    // The shared server has no replica: WAIT 1 can never be met.
    const durable = storeOver(io!, 'wait', { waitForReplicas: { count: 1, timeoutMs: 50 } });
    const key = testKey('wait');
    const error = await durable.claim(claimInput(key)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(String((error as Error).cause)).toContain('0 of 1 replica(s)');
    expect(await durable.get({ key, scope: 'user-1' })).toBeNull(); // released, not left blocking retries
    // Reads that write nothing still answer: an existing record is returned, not an error.
    const plain = createRedisStore({ client: io!, prefix: durable.prefix });
    claimed(await plain.claim(claimInput(key, { leaseMs: 30_000 })));
    expect((await durable.claim(claimInput(key))).outcome).toBe('existing');
  });

  it('refuses bad options at creation', () => {
    expect(() => createRedisStore({ client: io!, prefix: 'a{b}:' })).toThrow(InvalidOptionsError);
    expect(() => createRedisStore({ client: io!, waitForReplicas: { count: 0, timeoutMs: 10 } })).toThrow(InvalidOptionsError);
    expect(() => createRedisStore({ client: io!, keepExpiredMs: -1 })).toThrow(InvalidOptionsError);
    expect(() => createRedisStore({ client: {} as never })).toThrow(InvalidOptionsError);
    // Not connected: node-redis clusters only connect on connect().
    const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:6379' }] });
    expect(() => createRedisStore({ client: cluster as never })).toThrow(/cluster or pool is not supported/);
  });

  it('runs the action once per key under 25 concurrent duplicates of 20 keys, through the engine', async () => {
    const store = storeOver(io!, 'engine');
    const idempotency = createIdempotency({ store, leaseMs: 5_000 });
    const runs = new Map<string, number>();
    const keys = Array.from({ length: 20 }, (_, i) => testKey(`engine${i}`));
    const attempts = keys.flatMap((key) =>
      Array.from({ length: 25 }, () =>
        idempotency
          .run({ key, scope: 'user-1', fingerprint: fp }, async () => {
            runs.set(key, (runs.get(key) ?? 0) + 1);
            await sleep(30);
            return { key, charged: true };
          }, { waitMs: 3_000 })
          .then((result) => ({ key, result }), (error: unknown) => ({ key, error })),
      ),
    );
    const outcomes = await Promise.all(attempts);
    for (const key of keys) expect(runs.get(key)).toBe(1);
    expect(outcomes.filter((o) => 'error' in o && !(o.error instanceof InProgressError))).toEqual([]);
    const replayed = outcomes.filter((o) => 'result' in o && o.result.replayed).length;
    expect(replayed).toBeGreaterThanOrEqual(keys.length * 24 - outcomes.filter((o) => 'error' in o).length);
  });
});
