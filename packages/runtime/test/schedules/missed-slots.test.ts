/** The missed-slot report, enumerated by croner, against given slots and against the store. */
import { Cron } from 'croner';
import { afterAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { completedSlots, cronerSlot, bullmqSlot, missedSlots, runScheduled, scheduleSlots } from '../../src/schedules/index.js';

const quarterHourly = new Cron('*/15 * * * *', { paused: true, timezone: 'UTC' });
const hourly = new Cron('0 * * * *', { paused: true, timezone: 'UTC' });
afterAll(() => {
  quarterHourly.stop();
  hourly.stop();
});

describe('missed-slot report', () => {
  it('lists the slots of the window that never completed', () => {
    const report = missedSlots({
      schedule: quarterHourly,
      from: '2026-12-03T08:00:00Z',
      to: '2026-12-03T09:00:00Z',
      completed: ['2026-12-03T08:00:00Z', new Date('2026-12-03T08:30:00Z'), Date.parse('2026-12-03T09:00:00Z')],
    });
    expect(report.expected).toBe(4); // 08:00 08:15 08:30 08:45; 09:00 is past the end
    expect(report.missed.map((slot) => slot.toISOString())).toEqual(['2026-12-03T08:15:00.000Z', '2026-12-03T08:45:00.000Z']);
    expect(report.truncated).toBe(false);
  });

  it('is bounded', () => {
    const { slots, truncated } = scheduleSlots(quarterHourly, '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 10);
    expect(slots).toHaveLength(10);
    expect(truncated).toBe(true);
  });

  it('reads completions from the store: failed and skipped slots count as missed', async () => {
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, leaseMs: 500, isPermanent: () => true });
    const { slots } = scheduleSlots(hourly, '2026-12-03T00:00:00Z', '2026-12-03T04:00:00Z');
    await runScheduled(idempotency, 'hourly', slots[0]!, async () => 'ok');
    await runScheduled(idempotency, 'hourly', slots[2]!, async () => 'ok');
    await runScheduled(idempotency, 'hourly', slots[3]!, async () => {
      throw new Error('broken');
    }).catch(() => {});
    const completed = await completedSlots({ store, jobName: 'hourly', slots });
    const report = missedSlots({ schedule: hourly, from: slots[0]!, to: '2026-12-03T04:00:00Z', completed });
    expect(report.missed.map((slot) => slot.toISOString())).toEqual(['2026-12-03T01:00:00.000Z', '2026-12-03T03:00:00.000Z']);
    // catching up runs each missed slot once, with its own slot time
    for (const slot of report.missed) await runScheduled(idempotency, 'hourly', slot, async () => 'late').catch(() => {});
    expect(await completedSlots({ store, jobName: 'hourly', slots })).toHaveLength(3); // 03:00 stays FAILED
  });
});

describe('slot extraction', () => {
  it('croner: the pattern time of a run triggered late, not the trigger clock', () => {
    const job = { currentRun: () => new Date('2026-12-03T08:15:02.437Z'), previousRuns: quarterHourly.previousRuns.bind(quarterHourly) };
    expect(cronerSlot(job).toISOString()).toBe('2026-12-03T08:15:00.000Z');
    expect(() => cronerSlot({ currentRun: () => null, previousRuns: () => [] })).toThrow(/current run/);
  });

  it('bullmq: prevMillis, else the millis in the scheduler job id', () => {
    expect(bullmqSlot({ name: 'r', opts: { prevMillis: 1_796_284_800_000 } }).toISOString()).toBe('2026-12-03T08:00:00.000Z');
    expect(bullmqSlot({ name: 'r', id: 'repeat:nightly:1796284800000', opts: {} }).getTime()).toBe(1_796_284_800_000);
    expect(() => bullmqSlot({ name: 'r', id: '42', opts: {} })).toThrow(/job scheduler/);
  });
});
