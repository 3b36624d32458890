/** BullMQ processor against real Redis (127.0.0.1:6379, own key prefix): duplicates, in-progress, poison, SIGKILL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullmqProcessor, type BullmqProcessorOptions, type ConsumeDecision } from '../../src/consumers/bullmq/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import { openEffects, type Effects } from './support/effects.js';
import { createTestEngine, FlakyError, PoisonError, sleep, until } from './support/engine.js';

const available = await serviceAvailable('Redis (BullMQ)', () => probeTcp(6379));
const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };
const prefix = `ib-consumers-test-${process.pid}`;
type Body = { id: string; poison?: boolean; slowMs?: number };

describe.skipIf(!available)('BullMQ processor (real Redis)', () => {
  let dir: string;
  const queues: Queue[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ib-bullmq-'));
  });
  afterAll(async () => {
    for (const queue of queues) {
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup(label: string, handler: (job: Job<Body>, effects: Effects) => Promise<unknown>, extra: Partial<BullmqProcessorOptions<Job<Body>, unknown>> = {}, concurrency = 1) {
    const name = `${label}-${Date.now().toString(36)}`;
    const queue = new Queue<Body>(name, { connection, prefix });
    queues.push(queue);
    const engine = createTestEngine(join(dir, `${label}.db`));
    const effects = openEffects(join(dir, `${label}-effects.db`));
    const decisions: ConsumeDecision[] = [];
    const worker = new Worker<Body>(
      name,
      createBullmqProcessor<Job<Body>, unknown>({
        idempotency: engine.idempotency,
        minRequeueDelayMs: 50,
        handler: (job) => handler(job, effects),
        onDecision: (decision) => decisions.push(decision),
        ...extra,
      }),
      { connection, prefix, concurrency },
    );
    await worker.waitUntilReady();
    const events = new QueueEvents(name, { connection, prefix });
    await events.waitUntilReady();
    const stop = async () => {
      await worker.close();
      await events.close();
      await engine.close();
      effects.close();
    };
    return { queue, events, effects, decisions, stop };
  }

  it('a job re-added under the same jobId after it completed (and was removed) replays instead of running again', async () => {
    const t = await setup('twice', async (job, effects) => (effects.record(job.data.id), { shipped: job.data.id }));
    const first = await t.queue.add('ship', { id: 'o-1' }, { jobId: 'o-1', removeOnComplete: true });
    expect(await first.waitUntilFinished(t.events, 10_000)).toEqual({ shipped: 'o-1' });
    // While a job exists BullMQ itself ignores a second add with its jobId; once removed, it runs again.
    const second = await t.queue.add('ship', { id: 'o-1' }, { jobId: 'o-1', removeOnComplete: true });
    expect(await second.waitUntilFinished(t.events, 10_000)).toEqual({ shipped: 'o-1' });
    expect(t.decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await t.stop();
  });

  it('an in-progress duplicate (two jobs, one business id) is delayed, not failed, and completes as a replay', async () => {
    const t = await setup('inprogress', async (job, effects) => {
      await sleep(500);
      effects.record(job.data.id);
      return 'done';
    }, { messageId: (job) => job.data.id }, 2);
    const a = await t.queue.add('ship', { id: 'biz-1' }, { attempts: 1 });
    const b = await t.queue.add('ship', { id: 'biz-1' }, { attempts: 1 });
    const results = await Promise.all([a.waitUntilFinished(t.events, 10_000), b.waitUntilFinished(t.events, 10_000)]);
    expect(results).toEqual(['done', 'done']);
    expect(t.decisions.map((d) => (d.kind === 'requeue' ? d.reason : d.kind))).toEqual(['in_progress', 'ack', 'ack']);
    // Both completed with attempts: 1 — the delay used no attempt, or the duplicate would have failed.
    expect([(await t.queue.getJob(a.id!))?.attemptsMade, (await t.queue.getJob(b.id!))?.attemptsMade]).toEqual([1, 1]);
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await t.stop();
  });

  it('a transient failure is retried by BullMQ (attempts/backoff) and has its effect once', async () => {
    let calls = 0;
    const t = await setup('transient', async (job, effects) => {
      if (++calls === 1) throw new FlakyError('smtp blip');
      effects.record(job.data.id);
    });
    const job = await t.queue.add('ship', { id: 't-1' }, { jobId: 't-1', attempts: 3, backoff: { type: 'fixed', delay: 50 } });
    await job.waitUntilFinished(t.events, 10_000);
    expect(t.decisions.map((d) => (d.kind === 'requeue' ? d.reason : d.kind))).toEqual(['transient_failure', 'ack']);
    expect(t.effects.counts().runs).toBe(1);
    await t.stop();
  });

  it('a poison job fails for good with attempts left; re-added, it replays the failure and fails again without running', async () => {
    const t = await setup('poison', async (job, effects) => {
      if (job.data.poison) throw new PoisonError('no such customer');
      effects.record(job.data.id);
    });
    const job = await t.queue.add('ship', { id: 'p-1', poison: true }, { jobId: 'p-1', attempts: 5, removeOnFail: false });
    await expect(job.waitUntilFinished(t.events, 10_000)).rejects.toThrow(/permanent_failure: no such customer/);
    const failed = await t.queue.getJob('p-1');
    expect(await failed?.getState()).toBe('failed');
    expect(failed?.attemptsMade).toBe(1); // 4 attempts left, none used
    await failed!.remove();
    const again = await t.queue.add('ship', { id: 'p-1', poison: true }, { jobId: 'p-1', attempts: 5 });
    await expect(again.waitUntilFinished(t.events, 10_000)).rejects.toThrow(/replayed_failure/);
    expect(t.decisions.map((d) => d.kind === 'dead-letter' && d.reason)).toEqual(['permanent_failure', 'replayed_failure']);
    expect(t.effects.counts().runs).toBe(0);
    await t.stop();
  });

  it('a worker SIGKILLed mid-job: BullMQ moves the stalled job back, the orphaned claim is reclaimed, the effect happens once', async () => {
    const name = `kill-${Date.now().toString(36)}`;
    const queue = new Queue<Body>(name, { connection, prefix });
    queues.push(queue);
    const storeFile = join(dir, 'kill.db');
    const effectsFile = join(dir, 'kill-effects.db');
    const worker = spawnWorker<{ type: string; id?: string }>('../../consumers/workers/bullmq-worker.ts', { queue: name, prefix, storeFile, effectsFile, leaseMs: 800 });
    await worker.next('ready');
    await queue.add('ship', { id: 'k-1' }, { jobId: 'k-1' });
    expect((await worker.next<{ type: string; id: string }>('started')).id).toBe('k-1');
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');

    const engine = createTestEngine(storeFile, 800);
    const effects = openEffects(effectsFile);
    const reclaimed: boolean[] = [];
    const decisions: ConsumeDecision[] = [];
    const survivor = new Worker<Body>(
      name,
      createBullmqProcessor<Job<Body>, void>({
        idempotency: engine.idempotency,
        minRequeueDelayMs: 50,
        handler: (job, context) => {
          reclaimed.push(context.reclaimed);
          effects.record(job.data.id);
        },
        onDecision: (decision) => decisions.push(decision),
      }),
      { connection, prefix, lockDuration: 1_000, stalledInterval: 500 },
    );
    await until('the stalled job completes', async () => (await queue.getJob('k-1'))?.finishedOn !== undefined, 15_000);
    expect(await (await queue.getJob('k-1'))!.getState()).toBe('completed');
    expect(reclaimed).toEqual([true]);
    expect(decisions.at(-1)).toEqual({ kind: 'ack', replayed: false });
    expect(effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await survivor.close();
    await engine.close();
    effects.close();
  });
});
