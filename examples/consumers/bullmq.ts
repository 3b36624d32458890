/**
 * Idempotent BullMQ processor: the job's producer-set jobId is the key; an in-progress duplicate
 * is delayed (no attempt used); a poison job fails for good. Needs Redis on 127.0.0.1:6379.
 * Run: npx tsx examples/consumers/bullmq.ts
 */
import { Queue, QueueEvents, Worker } from 'bullmq';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createBullmqProcessor } from '@idempotency-builder/runtime/consumers/bullmq';

class InvalidAddressError extends Error {}

const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
const prefix = `example-${process.pid}`;
const queue = new Queue('emails', { connection, prefix });
const events = new QueueEvents('emails', { connection, prefix });
const idempotency = createIdempotency({ store: createMemoryStore(), isPermanent: (error) => error instanceof InvalidAddressError });
let sent = 0;
const worker = new Worker(
  'emails',
  createBullmqProcessor({
    idempotency,
    handler: async (job) => {
      const { to } = job.data as { to: string };
      if (!to.includes('@')) throw new InvalidAddressError(`bad address ${to}`);
      sent++;
      return { sentTo: to };
    },
  }),
  { connection, prefix },
);
await Promise.all([worker.waitUntilReady(), events.waitUntilReady()]);

const first = await queue.add('welcome', { to: 'ada@example.com' }, { jobId: 'welcome-ada', removeOnComplete: true, attempts: 5 });
console.log('first:', await first.waitUntilFinished(events));
const again = await queue.add('welcome', { to: 'ada@example.com' }, { jobId: 'welcome-ada', removeOnComplete: true, attempts: 5 });
console.log('re-added after completion (replayed):', await again.waitUntilFinished(events));
const poison = await queue.add('welcome', { to: 'nobody' }, { jobId: 'welcome-nobody', attempts: 5 });
await poison.waitUntilFinished(events).catch((error: Error) => console.log('poison failed for good:', error.message));
console.log(`sent ${sent} email(s); poison attempts made: ${(await queue.getJob('welcome-nobody'))?.attemptsMade}`);

await worker.close();
await events.close();
await queue.obliterate({ force: true });
await queue.close();
