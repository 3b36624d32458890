/**
 * A primary and one replica on free loopback ports, with the failure moves the durability tests
 * need: cut the replica off (frozen, link dropped — a replica behind a partition), kill the
 * primary with SIGKILL, promote the replica (REPLICAOF NO ONE).
 */
import { command, startRedisServer, waitUntil, type RedisServer } from './redis-server.js';

export interface ReplicaPair {
  readonly primary: RedisServer;
  readonly replica: RedisServer;
  /** Freezes the replica (SIGSTOP) and makes the primary drop its link: later writes reach no replica. */
  cutOffReplica(): Promise<void>;
  /** SIGKILLs the primary, thaws the replica and promotes it; resolves once it accepts writes. */
  failover(): Promise<void>;
  stop(): Promise<void>;
}

const info = async (port: number) => String(await command(port, 'INFO', 'replication'));

/**
 * Starts the pair and waits until the replica is in sync.
 * @example const pair = await startReplicaPair(); await pair.failover(); await pair.stop();
 */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const primary = await startRedisServer(['--repl-diskless-sync-delay', '0']);
  let replica: RedisServer | undefined;
  try {
    replica = await startRedisServer(['--replicaof', '127.0.0.1', String(primary.port)]);
    const replicaPort = replica.port;
    await waitUntil('the replica to sync', async () => {
      const [mine, theirs] = await Promise.all([info(replicaPort), info(primary.port)]);
      return mine.includes('master_link_status:up') && mine.includes('master_sync_in_progress:0') && /slave0:.*state=online/.test(theirs);
    });
  } catch (error) {
    await Promise.all([primary.stop(), replica?.stop()]);
    throw error;
  }
  const follower = replica;
  return {
    primary,
    replica: follower,
    async cutOffReplica() {
      await follower.kill('SIGSTOP');
      await command(primary.port, 'CLIENT', 'KILL', 'TYPE', 'replica');
      await waitUntil('the primary to lose its replica', async () => (await info(primary.port)).includes('connected_slaves:0'));
    },
    async failover() {
      await primary.kill('SIGKILL');
      await follower.kill('SIGCONT');
      await waitUntil('the replica to answer again', async () => (await command(follower.port, 'PING')) === 'PONG');
      await command(follower.port, 'REPLICAOF', 'NO', 'ONE');
      await waitUntil('the promoted replica to be a primary', async () => (await info(follower.port)).includes('role:master'));
    },
    async stop() {
      await Promise.all([primary.stop(), follower.stop()]);
    },
  };
}
