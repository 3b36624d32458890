/**
 * A node-redis client (`createClient()`, one connection) behind the `RedisPort`. Types are
 * structural: this file never imports node-redis.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { RedisCommand, RedisPort, RedisResult } from './client-port.js';

/** node-redis's RESP type code for bulk strings; mapped to Buffer so bodies stay bytes. */
const RESP_BLOB_STRING = 36;
/** Bulk strings as bytes: `typeMapping` for node-redis 5 and later, `returnBuffers` for 4. */
const BYTES = { typeMapping: { [RESP_BLOB_STRING]: Buffer }, returnBuffers: true };

/** A node-redis client (`createClient()` from `redis` or `@redis/client`, v4 and later). */
export interface NodeRedisClientLike {
  sendCommand(args: (string | Buffer)[], options?: { typeMapping?: Record<number, unknown>; returnBuffers?: boolean }): Promise<unknown>;
  readonly isOpen: boolean;
}

/** True for a node-redis client, cluster or pool (they all have `sendCommand` + `isOpen`). */
export function isNodeRedis(client: unknown): client is NodeRedisClientLike {
  const candidate = client as Partial<NodeRedisClientLike> | null;
  return typeof candidate?.sendCommand === 'function' && typeof candidate.isOpen === 'boolean';
}

const toArg = (arg: string | Uint8Array): string | Buffer =>
  typeof arg === 'string' || Buffer.isBuffer(arg) ? arg : Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength);

/**
 * Wraps a single node-redis client. Commands issued in one tick are written to its one socket in
 * order, so a batch is one round trip and WAIT follows the write on the same connection.
 *
 * A node-redis cluster or pool is refused: the cluster broadcasts WAIT to every shard (its
 * command policy), and a pool may send WAIT on another connection than the write — either way
 * WAIT would not measure the write it follows. Use an ioredis `Cluster` for Redis Cluster.
 * @example
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const store = createRedisStore({ client });
 */
export function nodeRedisPort(client: NodeRedisClientLike): RedisPort {
  const shape = client as unknown as Record<string, unknown>;
  if ('masters' in shape || 'totalClients' in shape) {
    throw new InvalidOptionsError(
      'Option "client": a node-redis cluster or pool is not supported (WAIT could not follow the write on its connection). Pass a node-redis client from createClient(), or an ioredis Cluster.',
    );
  }
  const pipeline = (commands: readonly RedisCommand[]): Promise<RedisResult[]> => {
    // Started synchronously, one after another: node-redis queues them on the socket in this order.
    const pending = commands.map((command) =>
      client.sendCommand(command.map(toArg), BYTES).then(
        (reply) => reply as RedisResult,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
    );
    return Promise.all(pending);
  };
  const node = { pipeline };
  return { send: (_routingKey, commands) => pipeline(commands), primaries: async () => [node] };
}

