/**
 * The Redis store on a real Redis Cluster: three primaries started by this file on free loopback
 * ports (`redis-server --cluster-enabled yes` + `redis-cli --cluster create`), the conformance
 * suite through an ioredis Cluster, one hash slot per record, records spread over every primary.
 * The cluster is stopped afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import { createIdempotency, fingerprintFields } from '../../src/index.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import { runStoreConformance, testKey } from '../../src/testing/index.js';
import { inCI } from '../support/services.js';
import { deletePrefix, uniquePrefix } from './redis-support/prefix.js';
import { startRedisCluster, type RedisCluster } from './redis-support/redis-cluster.js';
import { command, hasRedisServer, sleep } from './redis-support/redis-server.js';

const serverInstalled = hasRedisServer();
if (!serverInstalled) {
  if (inCI) throw new Error('redis-server is not installed; under CI=true the cluster tests must run.');
  console.warn('[skip] redis-server is not installed: the Redis Cluster tests are skipped.');
}
const skip = serverInstalled ? false : 'redis-server is not installed';

let cluster: RedisCluster | undefined;
let client: Cluster | undefined;

beforeAll(async () => {
  if (!serverInstalled) return;
  cluster = await startRedisCluster();
  client = new Cluster([...cluster.startupNodes], { redisOptions: { maxRetriesPerRequest: 2 } });
  await new Promise<void>((resolve, reject) => {
    client!.once('ready', () => resolve());
    client!.once('error', reject);
  });
}, 60_000);

afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
});

runStoreConformance({
  name: 'redis (ioredis Cluster, 3 primaries)',
  skip,
  createStore: () => createRedisStore({ client: client!, prefix: uniquePrefix('cluster') }),
  destroyStore: async (store) => {
    await deletePrefix(client!, (store as ReturnType<typeof createRedisStore>).prefix);
  },
});

describe.skipIf(Boolean(skip))('redis store on Redis Cluster', () => {
  const fp = fingerprintFields(['cluster', 1]);

  it('puts both keys of a record in one hash slot, and spreads records over all three primaries', async () => {
    const store = createRedisStore({ client: client!, prefix: uniquePrefix('slots') });
    const port = cluster!.nodes[0]!.port;
    const primaries = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const id = { key: testKey(`slot${i}`), scope: i % 2 ? 'tenant-{a}' : 'user-1' };
      const { record, fence } = store.keysOf(id);
      const slot = Number(await command(port, 'CLUSTER', 'KEYSLOT', record));
      expect(Number(await command(port, 'CLUSTER', 'KEYSLOT', fence))).toBe(slot);
      await store.claim({ ...id, fingerprint: fp, owner: null, leaseMs: 10_000, ttlMs: 60_000, replaceExpired: true });
      for (const node of cluster!.nodes) {
        // A primary that does not own the slot answers MOVED: the record is not there.
        const here = await command(node.port, 'EXISTS', record).catch(() => 0);
        if (Number(here) === 1) primaries.add(String(node.port));
      }
    }
    expect(primaries.size).toBe(3);
    expect(await store.size()).toBe(30); // counted by SCAN across the three primaries
    await deletePrefix(client!, store.prefix);
  });

  it('sends WAIT with the claim to the slot\'s own primary, and fails closed there (no replicas in this cluster)', async () => {
    const store = createRedisStore({ client: client!, prefix: uniquePrefix('cluster-wait'), waitForReplicas: { count: 1, timeoutMs: 50 } });
    const waits = async () =>
      Promise.all(cluster!.nodes.map(async (node) => Number(/cmdstat_wait:calls=(\d+)/.exec(String(await command(node.port, 'INFO', 'commandstats')))?.[1] ?? 0)));
    const slots = (await command(cluster!.nodes[0]!.port, 'CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    const ownerOf = (slot: number) => slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
    for (let i = 0; i < 6; i++) {
      const key = testKey(`cw${i}`);
      const slot = Number(await command(cluster!.nodes[0]!.port, 'CLUSTER', 'KEYSLOT', store.keysOf({ key, scope: 'user-1' }).record));
      const before = await waits();
      const error = await store.claim({ key, scope: 'user-1', fingerprint: fp, owner: null, leaseMs: 10_000, ttlMs: 60_000, replaceExpired: true }).catch((e: unknown) => e);
      expect(String((error as Error).cause)).toContain('0 of 1 replica(s)'); // answered by WAIT, not a routing error
      const after = await waits();
      const waitedOn = cluster!.nodes.filter((_, n) => after[n]! > before[n]!).map((node) => node.port);
      expect(waitedOn).toEqual([ownerOf(slot)]); // on the connection that made the write
      expect(await store.get({ key, scope: 'user-1' })).toBeNull(); // and the claim was given back
    }
    await deletePrefix(client!, store.prefix);
  });

  it('releases, reclaims and replays across slots through the engine, each key run once', async () => {
    const store = createRedisStore({ client: client!, prefix: uniquePrefix('cluster-engine') });
    const idempotency = createIdempotency({ store, leaseMs: 5_000 });
    const runs = new Map<string, number>();
    const keys = Array.from({ length: 12 }, (_, i) => testKey(`ce${i}`));
    await Promise.all(
      keys.flatMap((key) =>
        Array.from({ length: 10 }, () =>
          idempotency.run({ key, scope: 'user-1', fingerprint: fp }, async () => {
            runs.set(key, (runs.get(key) ?? 0) + 1);
            await sleep(20);
            return key;
          }, { waitMs: 3_000 }),
        ),
      ),
    );
    expect([...runs.values()]).toEqual(keys.map(() => 1));
    await deletePrefix(client!, store.prefix);
  });
});
