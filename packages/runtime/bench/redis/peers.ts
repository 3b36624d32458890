/**
 * The peer libraries, loaded from bench/peers (their own package.json, never a dependency of the
 * package). Each is wrapped as a `Contender` around the same tiny handler, configured as its docs
 * show for Redis; the `configuration` text is printed with the results, word for word.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PEERS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'peers');
export const REDIS_URL = 'redis://127.0.0.1:6379';

export interface Payload {
  readonly id: string;
  readonly amount: number;
}
export type Handler = (payload: Payload) => Promise<unknown>;

export interface Running {
  /** One protected call of the handler for idempotency key `key`. */
  invoke(key: string, payload: Payload): Promise<unknown>;
  stop(): Promise<void>;
}

export interface Contender {
  readonly label: string;
  /** Exactly how the library is set up here. */
  readonly configuration: string;
  /** Every Redis key it writes starts with one of these (for cleanup). */
  readonly keyPrefix: string;
  start(handler: Handler): Promise<Running>;
}

/** Why the peers cannot be loaded, or null when bench/peers is installed. */
export function peersMissing(): string | null {
  return existsSync(join(PEERS_DIR, 'node_modules'))
    ? null
    : 'bench/peers is not installed (run `npm ci --prefix bench/peers`); peer libraries are skipped';
}

const load = (id: string) => createRequire(join(PEERS_DIR, 'package.json'))(id) as Record<string, unknown>;
type Ctor<T> = new (...args: unknown[]) => T;

interface RedisClientLike {
  connect(): Promise<RedisClientLike>;
  close?(): Promise<void>;
  quit?(): Promise<void>;
}

/** A Lambda context as far as Powertools reads it: only the remaining time. */
const lambdaContext = { getRemainingTimeInMillis: () => 30_000, functionName: 'bench', awsRequestId: 'bench' };

/**
 * Powertools' cache persistence layer over @redis/client. With `withContext`, every call passes a
 * Lambda context (so in-progress records get an expiry); without it, as a plain function outside
 * Lambda, in-progress records have none.
 */
export function powertools(withContext: boolean, keyPrefix: string): Contender {
  return {
    label: `@aws-lambda-powertools/idempotency 2.35 (cache layer, ${withContext ? 'Lambda context registered' : 'no Lambda context'})`,
    configuration:
      `makeIdempotent(fn, { persistenceStore: new CachePersistenceLayer({ client: await createClient({ url }).connect() /* @redis/client 6 */ }), ` +
      `config: new IdempotencyConfig({ eventKeyJmesPath: 'id', expiresAfterSeconds: 3600 }), keyPrefix }); ` +
      (withContext ? 'called as fn(event, context) with context.getRemainingTimeInMillis() = 30000' : 'called as fn(event); no context registered'),
    keyPrefix,
    async start(handler) {
      const { makeIdempotent, IdempotencyConfig } = load('@aws-lambda-powertools/idempotency') as {
        makeIdempotent: (fn: (event: Payload, context?: unknown) => Promise<unknown>, options: unknown) => (event: Payload, context?: unknown) => Promise<unknown>;
        IdempotencyConfig: Ctor<unknown>;
      };
      const { CachePersistenceLayer } = load('@aws-lambda-powertools/idempotency/cache') as { CachePersistenceLayer: Ctor<unknown> };
      const { createClient } = load('@redis/client') as { createClient: (options: unknown) => RedisClientLike };
      const client = await createClient({ url: REDIS_URL }).connect();
      const fn = makeIdempotent((event) => handler(event), {
        persistenceStore: new CachePersistenceLayer({ client }),
        config: new IdempotencyConfig({ eventKeyJmesPath: 'id', expiresAfterSeconds: 3600 }),
        keyPrefix,
      });
      return {
        invoke: (_key, payload) => (withContext ? fn(payload, lambdaContext) : fn(payload)),
        stop: async () => void (await (client.close ?? client.quit)?.call(client)),
      };
    },
  };
}

/** @node-idempotency/core with its Redis storage adapter (which brings its own redis@4 client). */
export function nodeIdempotency(keyPrefix: string): Contender {
  return {
    label: '@node-idempotency/core 1.0 + storage-adapter-redis 1.0',
    configuration:
      `new Idempotency(new RedisStorageAdapter({ url }), { cacheKeyPrefix, cacheTTLMS: 3_600_000 }); ` +
      `onRequest({ headers: { 'idempotency-key': key }, path, method: 'POST', body }) -> handler -> onResponse(req, { body })`,
    keyPrefix,
    async start(handler) {
      const { Idempotency } = load('@node-idempotency/core') as {
        Idempotency: Ctor<{ onRequest(req: unknown): Promise<{ body?: unknown } | undefined>; onResponse(req: unknown, res: unknown): Promise<void> }>;
      };
      const { RedisStorageAdapter } = load('@node-idempotency/storage-adapter-redis') as {
        RedisStorageAdapter: Ctor<{ connect(): Promise<void>; disconnect(): Promise<void> }>;
      };
      const storage = new RedisStorageAdapter({ url: REDIS_URL });
      await storage.connect();
      const idempotency = new Idempotency(storage, { cacheKeyPrefix: keyPrefix.replace(/:$/, ''), cacheTTLMS: 3_600_000 });
      return {
        async invoke(key, payload) {
          const request = { headers: { 'idempotency-key': key }, path: '/bench', method: 'POST', body: payload };
          const cached = await idempotency.onRequest(request);
          if (cached) return cached.body;
          const body = await handler(payload);
          await idempotency.onResponse(request, { body });
          return body;
        },
        stop: () => storage.disconnect(),
      };
    },
  };
}
