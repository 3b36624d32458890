/**
 * A real 3-primary Redis Cluster on free loopback ports, created the way operators do it
 * (`redis-server --cluster-enabled yes` + `redis-cli --cluster create`), for one test file.
 */
import { spawnSync } from 'node:child_process';
import { command, startRedisServer, waitUntil, type RedisServer } from './redis-server.js';

export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  readonly startupNodes: readonly { host: string; port: number }[];
  stop(): Promise<void>;
}

/**
 * Starts three primaries (no replicas), assigns the 16384 slots and waits until every node
 * reports `cluster_state:ok`. Stops whatever started if anything fails.
 * @example const cluster = await startRedisCluster(); new Cluster(cluster.startupNodes); await cluster.stop();
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    for (let i = 0; i < 3; i++) {
      nodes.push(await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000']));
    }
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-replicas', '0', '--cluster-yes'],
      { encoding: 'utf8', timeout: 30_000 },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}\n${create.stderr}`);
    for (const node of nodes) {
      await waitUntil(`cluster_state:ok on ${node.port}`, async () => String(await command(node.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'), 20_000);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, startupNodes: nodes.map((node) => ({ host: '127.0.0.1', port: node.port })), stop };
}
