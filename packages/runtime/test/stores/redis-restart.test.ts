/**
 * Redis going away under a running engine, on a redis-server this file starts (never the shared
 * 6379): killed mid-action, frozen, restarted with its script cache gone. Every request meets
 * `store_unavailable` — never a run without protection — and the persisted claim protects the key
 * again after the restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createIdempotency, fingerprintFields, InProgressError, StoreUnavailableError } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import { LUA_SCRIPTS } from '../../src/stores/redis/lua/scripts.generated.js';
import { inCI } from '../support/services.js';
import { command, hasRedisServer, sleep, startRedisServer, waitUntil, type RedisServer } from './redis-support/redis-server.js';

const serverInstalled = hasRedisServer();
if (!serverInstalled) {
  if (inCI) throw new Error('redis-server is not installed; under CI=true the restart tests must run.');
  console.warn('[skip] redis-server is not installed: the Redis restart tests are skipped.');
}

let server: RedisServer | undefined;
let client: Redis | undefined;

beforeAll(async () => {
  if (!serverInstalled) return;
  // Append-only file, fsync on every write: a claim the server acknowledged survives SIGKILL.
  server = await startRedisServer(['--appendonly', 'yes', '--appendfsync', 'always']);
  // No offline queue: a command while Redis is down fails now instead of waiting to be replayed.
  client = new Redis({ port: server.port, host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => 50 });
  client.on('error', () => {}); // reconnect noise while the server is down is expected
  await client.connect();
}, 30_000);

afterAll(async () => {
  client?.disconnect();
  await server?.stop();
});

const fp = fingerprintFields(['restart', 1]);
const request = (key: string) => ({ key, scope: 'user-1', fingerprint: fp });
const ready = () => waitUntil('the client to reconnect', async () => client!.status === 'ready' && (await client!.ping()) === 'PONG');

describe.skipIf(!serverInstalled)('redis store when Redis restarts mid-run', () => {
  it('answers store_unavailable while Redis is down, and the persisted claim holds the key after restart', async () => {
    const store = createRedisStore({ client: client!, prefix: 'restart:' });
    // singleFlight off: this test is about the store answering while Redis is down, not about
    // duplicates of a locally held key (which single-flight answers in_progress without the store).
    // finishAttempts 3: the first holder gives up while Redis is still down (the default would keep
    // trying until its lease ends), so the restarted server still holds its live claim.
    const idempotency = createIdempotency({ store, leaseMs: 1_500, singleFlight: false, finishAttempts: 3 });
    const runs = new Map<string, number>();
    const action = (key: string) => async () => {
      runs.set(key, (runs.get(key) ?? 0) + 1);
      return key;
    };
    let finish!: () => void;
    let firstVersion = 0;
    const first = idempotency.run(request('pay-1'), async ({ lockVersion }) => {
      firstVersion = lockVersion;
      runs.set('pay-1', 1);
      await new Promise<void>((resolve) => (finish = resolve));
      return 'first';
    });
    await expect.poll(() => runs.get('pay-1')).toBe(1);

    await server!.kill('SIGKILL');
    const whileDown = await Promise.allSettled(
      ['pay-1', 'pay-2'].flatMap((key) => Array.from({ length: 10 }, () => idempotency.run(request(key), action(key)))),
    );
    expect(whileDown.every((r) => r.status === 'rejected' && r.reason instanceof StoreUnavailableError)).toBe(true);
    expect([runs.get('pay-1'), runs.get('pay-2')]).toEqual([1, undefined]); // nothing ran unprotected
    finish();
    await expect(first).rejects.toBeInstanceOf(StoreUnavailableError); // its result could not be stored

    await server!.restart();
    await ready();
    expect(await store.get({ key: 'pay-1', scope: 'user-1' })).toMatchObject({ status: 'PROCESSING', lockVersion: firstVersion });
    const early = await Promise.allSettled(Array.from({ length: 10 }, () => idempotency.run(request('pay-1'), action('pay-1'))));
    expect(early.every((r) => r.status === 'rejected' && r.reason instanceof InProgressError)).toBe(true);
    expect(runs.get('pay-1')).toBe(1);

    // The first run's outcome is unknown to the store: after its lease, exactly one retry runs again.
    await sleep(1_600);
    const late = await Promise.allSettled(Array.from({ length: 10 }, () => idempotency.run(request('pay-1'), action('pay-1'), { waitMs: 2_000 })));
    expect(late.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(runs.get('pay-1')).toBe(2);
    expect(await store.get({ key: 'pay-1', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED', lockVersion: firstVersion + 1 });
  });

  it('answers store_unavailable within timeoutMs when Redis freezes, and the late claim still fails closed', async () => {
    const store = createRedisStore({ client: client!, prefix: 'frozen:', timeoutMs: 300 });
    const idempotency = createIdempotency({ store, leaseMs: 30_000 });
    let runs = 0;
    await server!.kill('SIGSTOP');
    try {
      const started = Date.now();
      await expect(idempotency.run(request('frozen-1'), async () => ++runs)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await server!.kill('SIGCONT');
    }
    // The claim sent before the timeout reaches Redis once it thaws: the key stays held (never run twice).
    await expect(idempotency.run(request('frozen-1'), async () => ++runs)).rejects.toBeInstanceOf(InProgressError);
    expect(runs).toBe(0);
  });

  it('reloads its scripts after a restart empties the script cache (NOSCRIPT, then EVAL)', async () => {
    const store = createRedisStore({ client: client!, prefix: 'noscript:' });
    // A lease longer than any restart: with 1 s, a restart that took 1.3 s under a CI run let the
    // lease lapse, and the second claim rightly took the orphan over instead of answering 'existing'.
    const claim = { key: 'ns-1', scope: 'user-1', fingerprint: fp, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
    expect((await store.claim(claim)).outcome).toBe('claimed');
    await server!.kill('SIGTERM');
    await server!.restart();
    await ready();
    expect(await command(server!.port, 'SCRIPT', 'EXISTS', LUA_SCRIPTS.claim.sha1)).toEqual([0]);
    expect((await store.claim({ ...claim, key: 'ns-2' })).outcome).toBe('claimed');
    expect((await store.claim(claim)).outcome).toBe('existing'); // persisted across the restart
    expect(await command(server!.port, 'SCRIPT', 'EXISTS', LUA_SCRIPTS.claim.sha1)).toEqual([1]);
  });
});
