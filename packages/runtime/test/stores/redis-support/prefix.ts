/**
 * Per-test key prefixes on a shared Redis, and their cleanup by SCAN + DEL (never FLUSHALL,
 * never KEYS): other test files use the same server at the same time.
 *
 * Every prefix of one module instance (one test file) sits under one run root, so a file deletes
 * all its keys in a single SCAN of the keyspace (`deleteRunKeys`). A SCAN pass per prefix costs
 * prefixes × keyspace: with a few hundred prefixes and 10^6 foreign keys on the shared server that
 * took longer than vitest's hook timeout.
 */
import { randomBytes } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';

const runRoot = `t:${process.pid}.${Date.now().toString(36)}.${randomBytes(3).toString('hex')}:`;
let counter = 0;

/** A prefix no other test file or run shares: run root (pid, time, random), label, counter. */
export const uniquePrefix = (label: string) => `${runRoot}${label}:${++counter}:`;

/** Deletes every key under every prefix this module instance handed out; returns how many went. */
export const deleteRunKeys = (client: Redis | Cluster) => deletePrefix(client, runRoot);

/** Deletes every key under `prefix` on every primary; returns how many went. */
export async function deletePrefix(client: Redis | Cluster, prefix: string): Promise<number> {
  const isCluster = 'nodes' in client && typeof client.nodes === 'function' && client.isCluster;
  const nodes = isCluster ? client.nodes('master') : [client as Redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 5000);
      cursor = next;
      if (keys.length === 0) continue;
      // In a cluster the keys of one page live in many slots: one DEL each. A standalone server takes the page at once.
      if (isCluster) for (const key of keys) deleted += await node.del(key);
      else deleted += await node.del(...keys);
    } while (cursor !== '0');
  }
  return deleted;
}
