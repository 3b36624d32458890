/**
 * The small port the Redis store talks through, so that ioredis (standalone and Cluster),
 * node-redis, or any other client fits behind two methods. Bulk replies arrive as bytes, so
 * response bodies round-trip exactly.
 */

/** One command argument. Binary arguments (response bodies) are sent as bytes. */
export type RedisArgument = string | Uint8Array;

/** A command: name first, then its arguments, e.g. `['EVALSHA', sha, '1', key]`. */
export type RedisCommand = readonly RedisArgument[];

/**
 * One reply. Bulk strings are bytes (`Uint8Array`, often a Buffer), status replies may be
 * strings, integers are numbers, nil is null, arrays nest.
 */
export type RedisReply = null | number | string | Uint8Array | readonly RedisReply[];

/** A reply, or the error Redis answered for that one command (e.g. NOSCRIPT). */
export type RedisResult = RedisReply | Error;

/** One Redis server: a standalone server, or one primary of a cluster. */
export interface RedisNodePort {
  /**
   * Sends `commands` to this server in order, pipelined in one round trip, on one connection.
   * Resolves with one result per command: its reply, or an Error when the server refused it or
   * the connection broke (rejecting instead is fine too).
   */
  pipeline(commands: readonly RedisCommand[]): Promise<RedisResult[]>;
}

/**
 * What the store needs from a Redis client.
 * @example
 * // A custom client: route by key, list the primaries.
 * const port: RedisPort = {
 *   send: (routingKey, commands) => myClient.pipelineFor(routingKey, commands),
 *   primaries: async () => myClient.primaries().map((node) => ({ pipeline: (c) => node.pipeline(c) })),
 * };
 * const store = createRedisStore({ client: port });
 */
export interface RedisPort {
  /**
   * Sends `commands` in order, pipelined in one round trip, on the ONE connection that serves
   * `routingKey` (its cluster slot's primary). Keyless commands in the batch (WAIT) must travel
   * on that same connection: WAIT counts the replicas that acknowledged this connection's writes.
   */
  send(routingKey: string, commands: readonly RedisCommand[]): Promise<RedisResult[]>;
  /** Every primary (one for a standalone server): for SCAN, which is per server. */
  primaries(): Promise<readonly RedisNodePort[]>;
}

/** True for a value shaped like a `RedisPort` (checked once, at store creation). */
export function isRedisPort(value: unknown): value is RedisPort {
  const candidate = value as Partial<RedisPort> | null;
  return typeof candidate?.send === 'function' && typeof candidate.primaries === 'function';
}
