/**
 * Per-test key prefixes on a shared Redis, and their cleanup by SCAN + DEL (never FLUSHALL,
 * never KEYS): other test files use the same server at the same time.
 */
import type { Cluster, Redis } from 'ioredis';

let counter = 0;

/** A prefix no other test file or run shares: file label, pid, time, counter. */
export const uniquePrefix = (label: string) => `t:${label}:${process.pid}:${Date.now().toString(36)}:${++counter}:`;

/** Deletes every key under `prefix` on every primary; returns how many went. */
export async function deletePrefix(client: Redis | Cluster, prefix: string): Promise<number> {
  const nodes = 'nodes' in client && typeof client.nodes === 'function' && client.isCluster ? client.nodes('master') : [client as Redis];
  let deleted = 0;
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      cursor = next;
      // One DEL per key: in a cluster, keys of one page live in many slots.
      for (const key of keys) deleted += await node.del(key);
    } while (cursor !== '0');
  }
  return deleted;
}
