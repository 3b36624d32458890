/**
 * A BullMQ 6 job scheduler whose jobs run once per slot and never overlap across workers
 * (needs Redis on 127.0.0.1:6379; uses its own queue prefix and deletes it at the end).
 * Run: npx tsx examples/schedules/bullmq-scheduler.ts   (about 3 seconds)
 */
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createRedisStore } from '@idempotency-builder/runtime/redis';
import { bullmqScheduledProcessor } from '@idempotency-builder/runtime/schedules';

const connection = { host: '127.0.0.1', port: 6379 };
const prefix = `example-schedules-${process.pid}`;
const redis = new Redis(connection);
const idempotency = createIdempotency({ store: createRedisStore({ client: redis, prefix: `${prefix}:idem:` }), leaseMs: 10_000 });

const queue = new Queue('reports', { connection, prefix });
await queue.upsertJobScheduler('minute-report', { pattern: '* * * * * *' }, { name: 'report' });

const processor = bullmqScheduledProcessor(idempotency, async ({ slot, jobName }) => `${jobName} for ${slot.toISOString()}`, { overlap: 'wait', maxWaitMs: 5_000 });
const workers = [0, 1].map(
  (n) =>
    new Worker('reports', async (job) => {
      const outcome = await processor(job);
      console.log(`worker ${n}: job ${job.id} -> ${outcome.status} (slot ${outcome.slot.toISOString()})`);
    }, { connection, prefix }),
);

await new Promise((resolve) => setTimeout(resolve, 3_000));
await queue.removeJobScheduler('minute-report');
await Promise.all(workers.map((worker) => worker.close()));
await queue.obliterate({ force: true });
await queue.close();
let cursor = '0';
do {
  const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:idem:*`, 'COUNT', 1000);
  cursor = next;
  if (keys.length > 0) await redis.del(...keys);
} while (cursor !== '0');
redis.disconnect();
