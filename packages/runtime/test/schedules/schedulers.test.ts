/**
 * The real schedulers, two instances each, sharing the Redis store (own key prefix): node-cron 4
 * and croner 11 firing every second in the same process, and BullMQ 6 job schedulers on two
 * queues under their own Redis prefixes. Every slot runs exactly once, and the slot handed to the
 * job is the schedule's fire time (whole seconds), not the clock.
 */
import { Queue, Worker } from 'bullmq';
import { Cron } from 'croner';
import { Redis } from 'ioredis';
import cron from 'node-cron';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { createRedisStore } from '../../src/stores/redis/index.js';
import { bullmqScheduledProcessor, cronerJob, nodeCronTask, type ScheduledContext, type ScheduledOutcome } from '../../src/schedules/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';

const redisUp = await serviceAvailable('Redis (127.0.0.1:6379)', () => probeTcp(6379));
const redis = redisUp ? new Redis({ port: 6379, host: '127.0.0.1' }) : undefined;
const tag = `${process.pid}-${Date.now().toString(36)}`;
const prefix = `t:schedules:${tag}:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  if (!redis) return;
  for (const pattern of [`${prefix}*`, `idem-sched-${tag}-*`]) {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) await redis.del(key);
    } while (cursor !== '0');
  }
  redis.disconnect();
});

function engine(leaseMs = 5_000) {
  return createIdempotency({ store: createRedisStore({ client: redis!, prefix }), leaseMs });
}

/** Counts runs per slot and every outcome, whoever fired. */
function tally() {
  const runs = new Map<string, number>();
  const outcomes: ScheduledOutcome<string>[] = [];
  return {
    runs,
    outcomes,
    fn: async ({ slot }: ScheduledContext) => {
      runs.set(slot.toISOString(), (runs.get(slot.toISOString()) ?? 0) + 1);
      await sleep(30);
      return slot.toISOString();
    },
    record: (outcome: ScheduledOutcome<string>) => {
      outcomes.push(outcome);
    },
  };
}

/**
 * Waits (at most 3 s) until every slot that started has its outcome: on a loaded machine a run
 * begun just before the schedulers stopped may still be storing its result.
 */
async function settled(t: ReturnType<typeof tally>) {
  const deadline = Date.now() + 3_000;
  while (t.outcomes.filter((o) => o.status === 'ran').length < t.runs.size && Date.now() < deadline) await sleep(20);
}

async function expectOncePerSlot(t: ReturnType<typeof tally>) {
  await settled(t);
  expect(t.runs.size).toBeGreaterThanOrEqual(2);
  for (const [slot, count] of t.runs) {
    expect(count, slot).toBe(1);
    expect(new Date(slot).getUTCMilliseconds()).toBe(0);
  }
  // both instances fired: every slot that ran was also answered to the other instance
  const ran = t.outcomes.filter((o) => o.status === 'ran').length;
  const others = t.outcomes.filter((o) => o.status === 'skipped' || o.status === 'already-ran').length;
  expect(ran).toBe(t.runs.size);
  expect(others).toBeGreaterThanOrEqual(ran - 1); // the last slot's twin may still be in flight at stop
}

describe.skipIf(!redisUp)('real schedulers on the Redis store', () => {
  it('node-cron 4: two tasks on one schedule run each slot once', async () => {
    const t = tally();
    const idempotency = engine();
    const task = nodeCronTask(idempotency, `node-cron-${tag}`, t.fn);
    const direct: Parameters<typeof cron.schedule>[1] = task; // fits node-cron's TaskFn as is
    expect(typeof direct).toBe('function');
    const tasks = [0, 1].map(() => cron.schedule('* * * * * *', async (context) => t.record(await task(context))));
    await sleep(2_600);
    await Promise.all(tasks.map((task) => task.destroy()));
    await sleep(100);
    await expectOncePerSlot(t);
  });

  it('croner 11: two jobs on one pattern run each slot once', async () => {
    const t = tally();
    const idempotency = engine();
    const handler = cronerJob(idempotency, `croner-${tag}`, t.fn, { onOutcome: t.record });
    const jobs = [0, 1].map(() => new Cron('* * * * * *', { catch: true }, handler));
    await sleep(2_600);
    for (const job of jobs) job.stop();
    await sleep(100);
    await expectOncePerSlot(t);
  });

  it('croner 11 with a slow job and overlap skip: never two runs at once, slots in between skipped', async () => {
    let active = 0;
    let maxActive = 0;
    const outcomes: string[] = [];
    const idempotency = engine();
    const handler = cronerJob(
      idempotency,
      `croner-slow-${tag}`,
      async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await sleep(1_200);
        active--;
      },
      { overlap: 'skip', onOutcome: (outcome) => void outcomes.push(outcome.status) },
    );
    const jobs = [0, 1].map(() => new Cron('* * * * * *', { catch: true }, handler));
    await sleep(2_600);
    for (const job of jobs) job.stop();
    await sleep(1_300);
    expect(maxActive).toBe(1);
    expect(outcomes.filter((status) => status === 'ran').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.filter((status) => status === 'skipped').length).toBeGreaterThanOrEqual(2);
  });

  it('BullMQ 6: the same job scheduler on two queues (own prefixes) runs each slot once', async () => {
    const t = tally();
    const idempotency = engine();
    const connection = { host: '127.0.0.1', port: 6379 };
    const processor = bullmqScheduledProcessor(idempotency, t.fn);
    const direct: ConstructorParameters<typeof Worker>[1] = processor; // fits BullMQ's processor type as is
    expect(typeof direct).toBe('function');
    const slotsSeen: number[] = [];
    const pairs = await Promise.all(
      ['a', 'b'].map(async (name) => {
        const queuePrefix = `idem-sched-${tag}-${name}`;
        const queue = new Queue('reports', { connection, prefix: queuePrefix });
        await queue.upsertJobScheduler('nightly-report', { pattern: '* * * * * *' }, { name: 'report' });
        const worker = new Worker(
          'reports',
          async (job) => {
            slotsSeen.push(job.opts.prevMillis ?? -1);
            t.record(await processor(job));
          },
          { connection, prefix: queuePrefix },
        );
        return { queue, worker };
      }),
    );
    await sleep(3_200);
    for (const { queue, worker } of pairs) {
      await queue.removeJobScheduler('nightly-report');
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
    await expectOncePerSlot(t);
    expect(slotsSeen.every((ms) => ms > 0 && ms % 1000 === 0)).toBe(true);
    expect([...t.runs.keys()].every((slot) => slotsSeen.includes(Date.parse(slot)))).toBe(true);
  });
});
