/** `idempotency-builder/redis`: the Redis store (ioredis standalone and Cluster, node-redis). */
export {
  createRedisStore,
  DEFAULT_KEEP_EXPIRED_MS,
  DEFAULT_TIMEOUT_MS,
  type RedisStore,
  type RedisStoreOptions,
} from './redis-store.js';
export type { RedisArgument, RedisCommand, RedisNodePort, RedisPort, RedisReply, RedisResult } from './client-port.js';
export { ioredisPort, type IoRedisClusterLike, type IoRedisLike, type IoRedisPipelineLike } from './ioredis-port.js';
export { nodeRedisPort, type NodeRedisClientLike } from './node-redis-port.js';
export { DEFAULT_PREFIX, type RecordKeys } from './key-layout.js';
export type { ReplicaWait } from './script-runner.js';
