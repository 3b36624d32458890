/**
 * Durability on failover, with a real primary + replica started by this file: the primary is
 * SIGKILLed and the replica promoted (REPLICAOF NO ONE). Shows both behaviours the docs promise:
 * without `waitForReplicas` a claim the primary acknowledged can vanish and the action runs twice;
 * with it, an acknowledged claim survives failover, and a claim no replica holds fails closed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createIdempotency, fingerprintFields, InProgressError, StoreUnavailableError } from '../../src/index.js';
import { createRedisStore, type RedisStoreOptions } from '../../src/stores/redis/index.js';
import { inCI } from '../support/services.js';
import { hasRedisServer } from './redis-support/redis-server.js';
import { startReplicaPair, type ReplicaPair } from './redis-support/replica-pair.js';

const serverInstalled = hasRedisServer();
if (!serverInstalled) {
  if (inCI) throw new Error('redis-server is not installed; under CI=true the durability tests must run.');
  console.warn('[skip] redis-server is not installed: the Redis durability tests are skipped.');
}

const fp = fingerprintFields(['durability', 1]);
const request = (key: string) => ({ key, scope: 'user-1', fingerprint: fp });
/** Generous, so a loaded machine never fails the healthy path; the cut-off test uses a short one. */
const durable: RedisStoreOptions['waitForReplicas'] = { count: 1, timeoutMs: 5_000 };
const durableShort: RedisStoreOptions['waitForReplicas'] = { count: 1, timeoutMs: 200 };

let pair: ReplicaPair | undefined;
const clients: Redis[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await pair?.stop();
  pair = undefined;
});

/** An engine over a fresh client to `port`; the client does not queue commands while down. */
async function engineOn(port: number, waitForReplicas: RedisStoreOptions['waitForReplicas'] = null) {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => {}); // the killed primary's connection errors are expected here
  clients.push(client);
  await client.connect();
  const store = createRedisStore({ client, prefix: 'durability:', waitForReplicas });
  // A capped completion (3 tries): these scenarios are about what the failover keeps, and a holder
  // whose primary is gone should give up now rather than keep trying for its 30 s lease.
  return { store, idempotency: createIdempotency({ store, leaseMs: 30_000, finishAttempts: 3 }) };
}

/** Counts how often the action really ran, per key. */
function counter() {
  const runs = new Map<string, number>();
  const action = (key: string) => async () => {
    runs.set(key, (runs.get(key) ?? 0) + 1);
    return { charged: key };
  };
  return { runs, action };
}

describe.skipIf(!serverInstalled)('redis store durability on failover (primary SIGKILLed, replica promoted)', () => {
  it('without waitForReplicas: an acknowledged claim is lost on failover and the action runs twice', async () => {
    pair = await startReplicaPair();
    const { runs, action } = counter();
    const before = await engineOn(pair.primary.port);
    await pair.cutOffReplica(); // the replica falls behind: nothing written from now on reaches it
    const first = await before.idempotency.run(request('pay-1'), action('pay-1'));
    expect(first.replayed).toBe(false); // the primary acknowledged the claim and the result

    await pair.failover();
    const after = await engineOn(pair.replica.port);
    expect(await after.store.get({ key: 'pay-1', scope: 'user-1' })).toBeNull(); // the record vanished
    const retry = await after.idempotency.run(request('pay-1'), action('pay-1'));
    expect(retry.replayed).toBe(false);
    expect(runs.get('pay-1')).toBe(2); // the duplicate ran: asynchronous replication's known gap
  });

  it('with waitForReplicas: acknowledged claims and results survive failover, nothing runs twice', async () => {
    pair = await startReplicaPair();
    const { runs, action } = counter();
    const before = await engineOn(pair.primary.port, durable);
    await before.idempotency.run(request('pay-done'), action('pay-done')); // completed, replicated
    let finishHeld!: () => void;
    const held = before.idempotency.run(request('pay-held'), async () => {
      runs.set('pay-held', 1);
      await new Promise<void>((resolve) => (finishHeld = resolve));
      return 'late';
    });
    await expect.poll(() => runs.get('pay-held')).toBe(1); // claimed (and replicated), still running
    await pair.cutOffReplica(); // from here on nothing replicates: what survives was there at the ack

    await pair.failover();
    const after = await engineOn(pair.replica.port); // the promoted primary has no replica of its own here
    const replay = await after.idempotency.run(request('pay-done'), action('pay-done'));
    expect(replay).toEqual({ value: { charged: 'pay-done' }, replayed: true });
    await expect(after.idempotency.run(request('pay-held'), action('pay-held'))).rejects.toBeInstanceOf(InProgressError);
    expect(runs.get('pay-done')).toBe(1);
    expect(runs.get('pay-held')).toBe(1);
    finishHeld();
    await expect(held).rejects.toBeInstanceOf(StoreUnavailableError); // its primary is gone: no result stored
  });

  it('with waitForReplicas and no replica keeping up: the claim fails closed and the action never runs', async () => {
    pair = await startReplicaPair();
    const { runs, action } = counter();
    const before = await engineOn(pair.primary.port, durableShort);
    await pair.cutOffReplica();
    const started = Date.now();
    await expect(before.idempotency.run(request('pay-2'), action('pay-2'))).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(durableShort!.timeoutMs - 5); // WAIT waited its timeout
    expect(runs.get('pay-2')).toBeUndefined();
    expect(await before.store.get({ key: 'pay-2', scope: 'user-1' })).toBeNull(); // the claim was given back

    await pair.failover();
    const after = await engineOn(pair.replica.port); // the promoted primary has no replica of its own here
    await after.idempotency.run(request('pay-2'), action('pay-2')); // the client's retry
    expect(runs.get('pay-2')).toBe(1); // once in total
  });
});
