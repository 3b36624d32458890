/**
 * runScheduled on the memory store: one run per slot whoever fires it, the slot (not the clock)
 * as the key, and each overlap policy against a slow run and against a crashed one.
 */
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { InvalidKeyError, InvalidOptionsError, ReplayedFailureError } from '../../src/core/errors.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { runScheduled, scheduleKeys, type ScheduledContext } from '../../src/schedules/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SLOT_1 = new Date('2026-12-03T08:00:00.000Z');
const SLOT_2 = new Date('2026-12-03T08:01:00.000Z');

function setup(leaseMs = 300) {
  const store = createMemoryStore();
  return { store, idempotency: createIdempotency({ store, leaseMs }) };
}

/** A job that records its runs and how many ran at once. */
function recordingJob(durationMs: number) {
  const runs: { slot: string; start: number; end: number; reclaimed: boolean }[] = [];
  let active = 0;
  let maxActive = 0;
  return {
    runs,
    maxActive: () => maxActive,
    fn: async (context: ScheduledContext) => {
      active++;
      maxActive = Math.max(maxActive, active);
      const start = Date.now();
      await sleep(durationMs);
      active--;
      runs.push({ slot: context.slot.toISOString(), start, end: Date.now(), reclaimed: context.reclaimed });
      return `report-${context.slot.toISOString()}`;
    },
  };
}

describe('runScheduled', () => {
  it('two schedulers firing the same slot: one run; the other skips, a later fire gets the result', async () => {
    const { idempotency } = setup();
    const job = recordingJob(60);
    const [a, b] = await Promise.all([
      runScheduled(idempotency, 'nightly-report', SLOT_1, job.fn),
      runScheduled(idempotency, 'nightly-report', SLOT_1.getTime(), job.fn), // same slot as epoch ms
    ]);
    expect([a.status, b.status].sort()).toEqual(['ran', 'skipped']);
    expect([a, b].find((o) => o.status === 'skipped')).toMatchObject({ reason: 'slot-in-progress' });
    const late = await runScheduled(idempotency, 'nightly-report', '2026-12-03T08:00:00Z', job.fn);
    expect(late).toEqual({ status: 'already-ran', slot: SLOT_1, value: 'report-2026-12-03T08:00:00.000Z' });
    expect(job.runs).toHaveLength(1);
  });

  it('keys by the slot, never the clock: the same slot fired later is the same run', async () => {
    const { idempotency, store } = setup();
    const job = recordingJob(0);
    await runScheduled(idempotency, 'sync', SLOT_1, job.fn);
    await sleep(20);
    await runScheduled(idempotency, 'sync', SLOT_1, job.fn);
    await runScheduled(idempotency, 'sync', SLOT_2, job.fn);
    expect(job.runs.map((run) => run.slot)).toEqual([SLOT_1.toISOString(), SLOT_2.toISOString()]);
    expect([...store.records.values()].map((r) => `${r.scope}/${r.key}/${r.status}`).sort()).toEqual([
      `sync/${scheduleKeys('sync', SLOT_1).slot}/COMPLETED`,
      `sync/${scheduleKeys('sync', SLOT_2).slot}/COMPLETED`,
    ]);
  });

  it('overlap skip: a slot firing during a slow run does not run and leaves no record', async () => {
    const { idempotency, store } = setup();
    const job = recordingJob(250);
    const first = runScheduled(idempotency, 'slow', SLOT_1, job.fn, { overlap: 'skip' });
    await sleep(30);
    const second = await runScheduled(idempotency, 'slow', SLOT_2, job.fn, { overlap: 'skip' });
    expect(second).toEqual({ status: 'skipped', slot: SLOT_2, reason: 'overlap' });
    expect((await first).status).toBe('ran');
    expect(job.runs.map((run) => run.slot)).toEqual([SLOT_1.toISOString()]);
    expect(await store.get({ key: scheduleKeys('slow', SLOT_2).slot, scope: 'slow' })).toBeNull();
    // the lock was released when the slow run ended: the next slot runs
    expect((await runScheduled(idempotency, 'slow', SLOT_2, job.fn, { overlap: 'skip' })).status).toBe('ran');
  });

  it('overlap wait: the next slot runs after the slow one ends, never beside it', async () => {
    const { idempotency } = setup();
    const job = recordingJob(200);
    const first = runScheduled(idempotency, 'waiter', SLOT_1, job.fn, { overlap: 'wait' });
    await sleep(30);
    const second = await runScheduled(idempotency, 'waiter', SLOT_2, job.fn, { overlap: 'wait', maxWaitMs: 2_000 });
    expect(second.status).toBe('ran');
    expect((await first).status).toBe('ran');
    expect(job.maxActive()).toBe(1);
    const [run1, run2] = job.runs;
    expect(run2!.start).toBeGreaterThanOrEqual(run1!.end);
  });

  it('overlap wait gives up after maxWaitMs', async () => {
    const { idempotency } = setup();
    const job = recordingJob(400);
    const first = runScheduled(idempotency, 'impatient', SLOT_1, job.fn, { overlap: 'wait' });
    await sleep(20);
    expect(await runScheduled(idempotency, 'impatient', SLOT_2, job.fn, { overlap: 'wait', maxWaitMs: 100 })).toMatchObject({ status: 'skipped', reason: 'overlap' });
    await first;
    expect(job.runs).toHaveLength(1);
  });

  it('overlap takeover: a healthy holder that heartbeats keeps the job; the new slot is skipped after one lease', async () => {
    // lease 600 ms, heartbeat every 200 ms: only an event-loop stall over 600 ms could lapse it
    const { idempotency } = setup(600);
    const job = recordingJob(1_500);
    const first = runScheduled(idempotency, 'healthy', SLOT_1, job.fn, { overlap: 'takeover' });
    await sleep(30);
    const started = Date.now();
    const second = await runScheduled(idempotency, 'healthy', SLOT_2, job.fn, { overlap: 'takeover' });
    expect(second).toMatchObject({ status: 'skipped', reason: 'overlap' });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(350); // it waited for the holder's lease…
    expect(waited).toBeLessThan(1_400); // …not for the run
    expect((await first).status).toBe('ran');
    expect(job.maxActive()).toBe(1);
  });

  it('a crashed holder (lease lapses): takeover runs the next slot once the lease is over; skip does not wait', async () => {
    const store = createMemoryStore();
    // The "crashed" worker: no heartbeat and a job that never returns, like a SIGKILLed process.
    const crashed = createIdempotency({ store, leaseMs: 250, heartbeat: false });
    const healthy = createIdempotency({ store, leaseMs: 250 });
    void runScheduled(crashed, 'etl', SLOT_1, () => new Promise<never>(() => {}));
    await sleep(20);
    const job = recordingJob(10);
    expect(await runScheduled(healthy, 'etl', SLOT_2, job.fn, { overlap: 'skip' })).toMatchObject({ status: 'skipped', reason: 'overlap' });
    const started = Date.now();
    const taken = await runScheduled(healthy, 'etl', SLOT_2, job.fn, { overlap: 'takeover' });
    expect(taken).toMatchObject({ status: 'ran', tookOver: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(job.runs[0]!.reclaimed).toBe(true);
    // the crashed slot itself is re-run (reclaimed) when it fires again, e.g. a BullMQ retry
    const rerun = await runScheduled(healthy, 'etl', SLOT_1, job.fn, { overlap: 'skip' });
    expect(rerun.status).toBe('ran');
    expect(job.runs.map((run) => run.slot)).toEqual([SLOT_2.toISOString(), SLOT_1.toISOString()]);
  });

  it('a transient failure releases the slot; a permanent one is recorded and replayed', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, leaseMs: 300, isPermanent: (error) => error instanceof RangeError });
    let attempts = 0;
    const flaky = async () => {
      attempts++;
      if (attempts === 1) throw new Error('database restarting');
      return 'ok';
    };
    await expect(runScheduled(idempotency, 'flaky', SLOT_1, flaky)).rejects.toThrow('database restarting');
    expect(await runScheduled(idempotency, 'flaky', SLOT_1, flaky)).toMatchObject({ status: 'ran', value: 'ok' });
    const broken = async () => {
      throw new RangeError('bad config');
    };
    await expect(runScheduled(idempotency, 'broken', SLOT_1, broken)).rejects.toBeInstanceOf(RangeError);
    await expect(runScheduled(idempotency, 'broken', SLOT_1, broken)).rejects.toBeInstanceOf(ReplayedFailureError);
    // the job lock was released despite the failures
    expect((await runScheduled(idempotency, 'broken', SLOT_2, async () => 'fixed')).status).toBe('ran');
  });

  it('keeps jobs apart under one configured scope', async () => {
    const { idempotency } = setup();
    const a = await runScheduled(idempotency, 'job-a', SLOT_1, async () => 'a', { scope: 'tenant-1' });
    const b = await runScheduled(idempotency, 'job-b', SLOT_1, async () => 'b', { scope: 'tenant-1' });
    expect([a.status, b.status]).toEqual(['ran', 'ran']);
  });

  it('validates its input', async () => {
    const { idempotency } = setup();
    await expect(runScheduled(idempotency, 'bad name', SLOT_1, async () => 1)).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(runScheduled(idempotency, 'job', 'not a time', async () => 1)).rejects.toBeInstanceOf(InvalidKeyError);
    await expect(runScheduled(idempotency, 'job', SLOT_1, async () => 1, { overlap: 'sometimes' as never })).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});
