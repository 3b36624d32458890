/**
 * The ioredis client (a standalone `Redis` or a `Cluster`) behind the `RedisPort`. Types are
 * structural: this file never imports ioredis.
 */
import { isUtf8 } from 'node:buffer';
import type { RedisCommand, RedisNodePort, RedisPort, RedisResult } from './client-port.js';

/** The pipeline of an ioredis client, as far as the store uses it. */
export interface IoRedisPipelineLike {
  callBuffer(command: string, ...args: (string | Buffer)[]): unknown;
  exec(): Promise<[Error | null, unknown][] | null>;
}

/** A standalone ioredis client (`new Redis()`), or one node of a Cluster. */
export interface IoRedisLike {
  pipeline(): IoRedisPipelineLike;
  callBuffer(command: string, ...args: (string | Buffer)[]): Promise<unknown>;
}

/** An ioredis `Cluster`. */
export interface IoRedisClusterLike extends IoRedisLike {
  readonly isCluster: boolean;
  nodes(role?: 'master' | 'slave' | 'all'): IoRedisLike[];
}

/** True for an ioredis client or cluster (duck-typed: `pipeline` + `callBuffer`). */
export function isIoRedis(client: unknown): client is IoRedisLike {
  const candidate = client as Partial<IoRedisLike> | null;
  return typeof candidate?.pipeline === 'function' && typeof candidate.callBuffer === 'function';
}

const isCluster = (client: IoRedisLike): client is IoRedisClusterLike =>
  (client as Partial<IoRedisClusterLike>).isCluster === true && typeof (client as Partial<IoRedisClusterLike>).nodes === 'function';

/** Bytes up to this size are offered to ioredis as text when they are valid UTF-8 (see toArg). */
const TEXT_ARG_MAX_BYTES = 16 * 1024;
/** Used only on bytes `isUtf8` accepted; ignoreBOM: a leading BOM stays in the text. */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * One argument as ioredis takes it. A single Buffer argument switches ioredis to building the
 * whole command as Buffers, about 4 µs more per call here (a response body is the only bytes
 * argument the store sends); so a small body that is valid UTF-8 goes as text — which ioredis
 * encodes back to exactly the same bytes. Other bytes are wrapped as a Buffer (no copy); ioredis
 * would stringify a plain Uint8Array.
 */
function toArg(arg: string | Uint8Array): string | Buffer {
  if (typeof arg === 'string') return arg;
  // Checked without throwing: binary bodies (an encryption codec's, say) are common, and an
  // exception per call would cost more than the Buffer path it avoids.
  if (arg.byteLength <= TEXT_ARG_MAX_BYTES && isUtf8(arg)) return utf8.decode(arg);
  return Buffer.isBuffer(arg) ? arg : Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength);
}

type BufferCommand = (...args: (string | Buffer)[]) => unknown;

/**
 * ioredis's named `<command>Buffer` method (`evalshaBuffer`, `hmgetBuffer`, …), else `callBuffer`.
 * Named methods first because ioredis 6 drops the command name from `call`/`callBuffer` when
 * `enableAutoPipelining` is on.
 */
/** `EVALSHA` → `evalshaBuffer`, computed once per command name. */
const methodNames = new Map<string, string>();
const methodName = (name: string) => {
  let method = methodNames.get(name);
  if (method === undefined) {
    method = `${name.toLowerCase()}Buffer`;
    methodNames.set(name, method);
  }
  return method;
};

function sendVia(target: IoRedisLike | IoRedisPipelineLike, command: RedisCommand): unknown {
  const name = String(command[0]);
  const named = (target as unknown as Record<string, BufferCommand | undefined>)[methodName(name)];
  const converted: (string | Buffer)[] = new Array(command.length - 1);
  for (let i = 1; i < command.length; i++) converted[i - 1] = toArg(command[i]!);
  return typeof named === 'function' ? named.apply(target, converted) : target.callBuffer(name, ...converted);
}

async function runPipeline(client: IoRedisLike, commands: readonly RedisCommand[]): Promise<RedisResult[]> {
  if (commands.length === 1) {
    // One command needs no Pipeline object (the common case: no WAIT); same connection, same reply.
    return [await (sendVia(client, commands[0]!) as Promise<unknown>).then((reply) => reply as RedisResult, (error: Error) => error)];
  }
  const pipeline = client.pipeline();
  for (const command of commands) sendVia(pipeline, command);
  const replies = await pipeline.exec();
  if (replies === null) throw new Error('ioredis returned no replies for a pipeline.');
  return replies.map(([error, reply]) => error ?? (reply as RedisResult));
}

/**
 * Wraps an ioredis `Redis` or `Cluster`. A Cluster pipeline whose keyed commands share one slot
 * goes to that slot's primary on one connection, with its keyless commands (WAIT) — exactly
 * what `RedisPort.send` promises.
 * @example
 * import { Redis } from 'ioredis';
 * const port = ioredisPort(new Redis(process.env.REDIS_URL));
 */
export function ioredisPort(client: IoRedisLike): RedisPort {
  const nodePort = (node: IoRedisLike): RedisNodePort => ({ pipeline: (commands) => runPipeline(node, commands) });
  return {
    send: (_routingKey, commands) => runPipeline(client, commands),
    async primaries() {
      return isCluster(client) ? client.nodes('master').map(nodePort) : [nodePort(client)];
    },
  };
}
