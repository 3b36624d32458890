/**
 * A worker process for the kill test: claims one key through the engine on the Redis store,
 * reports `started <lockVersion>` on stdout, keeps its lease alive with the heartbeat and never
 * finishes — until the test SIGKILLs it.
 *
 * Usage: node --import tsx worker.ts <redisPort> <prefix> <key> <leaseMs>
 */
import { Redis } from 'ioredis';
import { createIdempotency, fingerprintFields } from '../../../src/index.js';
import { createRedisStore } from '../../../src/stores/redis/index.js';

const [port, prefix, key, leaseMs] = process.argv.slice(2);
const client = new Redis({ port: Number(port), host: '127.0.0.1' });
const idempotency = createIdempotency({ store: createRedisStore({ client, prefix: prefix! }), leaseMs: Number(leaseMs) });

await idempotency.run({ key: key!, scope: 'user-1', fingerprint: fingerprintFields(['worker', key!]) }, async ({ lockVersion }) => {
  process.stdout.write(`started ${lockVersion}\n`);
  await new Promise(() => setInterval(() => {}, 1_000)); // the side effect "in flight", forever
});
