/** Test worker: one BullMQ worker process (SIGKILL test); reports over IPC. */
import { Worker } from 'bullmq';
import { createBullmqProcessor } from '../../../src/consumers/bullmq/index.js';
import { openEffects } from '../support/effects.js';
import { createTestEngine } from '../support/engine.js';

const config = JSON.parse(process.argv[2]!) as { queue: string; prefix: string; storeFile: string; effectsFile: string; leaseMs: number };
const send = (message: object) => process.send?.(message);

const effects = openEffects(config.effectsFile);
const { idempotency } = createTestEngine(config.storeFile, config.leaseMs);
const worker = new Worker(
  config.queue,
  createBullmqProcessor({
    idempotency,
    handler: async (job) => {
      send({ type: 'started', id: job.id });
      await new Promise(() => {}); // the parent SIGKILLs us here, mid-job
      effects.record(job.id!);
    },
  }),
  { connection: { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null }, prefix: config.prefix, lockDuration: 1_000, stalledInterval: 500 },
);
await worker.waitUntilReady();
send({ type: 'ready' });
