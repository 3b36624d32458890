/** idempotency-builder's Redis store as a benchmark contender, through ioredis or node-redis. */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createIdempotency, fingerprintJson, type Idempotency } from '@idempotency-builder/runtime';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import type { Contender, Handler, Payload } from './peers.js';

/** The engine as the benchmark configures it: 30 s lease with heartbeat, 1 h retention. */
export const engineOver = (store: ReturnType<typeof createRedisStore>) => createIdempotency({ store, leaseMs: 30_000, ttlMs: 3_600_000 });

/** One protected call: scope `bench`, fingerprint = canonical JSON of the payload. */
export const runWith = (idempotency: Idempotency, handler: Handler) => (key: string, payload: Payload) =>
  idempotency.run({ key, scope: 'bench', fingerprint: fingerprintJson(payload) }, () => handler(payload)).then((result) => result.value);

export function ours(client: 'ioredis' | 'node-redis', keyPrefix: string): Contender {
  return {
    label: `idempotency-builder (Redis store, ${client} 6)`,
    configuration:
      `createIdempotency({ store: createRedisStore({ client: ${client === 'ioredis' ? 'new Redis({ enableAutoPipelining: true })' : 'await createClient().connect()'}, prefix }), leaseMs: 30_000, ttlMs: 3_600_000 }); ` +
      `run({ key, scope: 'bench', fingerprint: fingerprintJson(payload) }, handler); no waitForReplicas`,
    keyPrefix,
    async start(handler) {
      if (client === 'ioredis') {
        const redis = new Redis({ port: 6379, host: '127.0.0.1', enableAutoPipelining: true });
        return { invoke: runWith(engineOver(createRedisStore({ client: redis, prefix: keyPrefix })), handler), stop: async () => redis.disconnect() };
      }
      const redis = await createClient({ socket: { port: 6379, host: '127.0.0.1' } }).connect();
      return { invoke: runWith(engineOver(createRedisStore({ client: redis, prefix: keyPrefix })), handler), stop: () => redis.close() };
    },
  };
}
