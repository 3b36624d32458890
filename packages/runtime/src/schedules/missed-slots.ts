/**
 * The missed-slot report: which slots of a schedule, in a window, never completed. The schedule
 * is enumerated with croner (`new Cron(pattern, { paused: true })` — also for node-cron and
 * BullMQ patterns, which use the same cron syntax).
 */
import { InvalidOptionsError } from '../core/errors.js';
import type { IdempotencyStore } from '../core/store-contract.js';
import { scheduleKeys, slotMs, validateJobName, type SlotInput } from './slot.js';

/** What is used of a croner `Cron`: the next fire time strictly after a date. */
export interface ScheduleLike {
  nextRun(after?: Date): Date | null;
}

export interface MissedSlotsInput {
  readonly schedule: ScheduleLike;
  /** Window start (inclusive) and end (exclusive). */
  readonly from: SlotInput;
  readonly to: SlotInput;
  /** Slots known to have completed (from your logs, or `completedSlots` below). */
  readonly completed: Iterable<SlotInput>;
  /** Bound on enumerated slots. Default 10 000. */
  readonly maxSlots?: number;
}

export interface MissedSlotsReport {
  /** Slots the schedule had in the window. */
  readonly expected: number;
  readonly missed: readonly Date[];
  /** True when the window held more than `maxSlots` slots; only the first were checked. */
  readonly truncated: boolean;
}

/**
 * Every schedule time in `[from, to)`, in order.
 * @example scheduleSlots(new Cron('0 * * * *', { paused: true }), '2026-12-03T00:00Z', '2026-12-03T03:00Z') // 00:00, 01:00, 02:00
 */
export function scheduleSlots(schedule: ScheduleLike, from: SlotInput, to: SlotInput, maxSlots = 10_000): { slots: Date[]; truncated: boolean } {
  if (typeof schedule?.nextRun !== 'function') throw new InvalidOptionsError('"schedule" must have nextRun(after) — e.g. a paused croner Cron.');
  const start = slotMs(from);
  const end = slotMs(to);
  const slots: Date[] = [];
  // nextRun is exclusive; 1 ms before the start makes a slot exactly at `from` count.
  let next = schedule.nextRun(new Date(start - 1));
  while (next && next.getTime() < end) {
    if (slots.length === maxSlots) return { slots, truncated: true };
    slots.push(next);
    next = schedule.nextRun(next);
  }
  return { slots, truncated: false };
}

/**
 * Which slots never completed.
 * @example
 * import { Cron } from 'croner';
 * const report = missedSlots({ schedule: new Cron('*\/15 * * * *', { paused: true }), from: yesterday, to: now, completed: ranSlots });
 * for (const slot of report.missed) await runScheduled(idempotency, 'sync', slot, sync); // catch up, still once per slot
 */
export function missedSlots({ schedule, from, to, completed, maxSlots }: MissedSlotsInput): MissedSlotsReport {
  const done = new Set<number>();
  for (const slot of completed) done.add(slotMs(slot));
  const { slots, truncated } = scheduleSlots(schedule, from, to, maxSlots);
  return { expected: slots.length, missed: slots.filter((slot) => !done.has(slot.getTime())), truncated };
}

/**
 * Reads the store for the given slots and returns those whose record is COMPLETED (FAILED and
 * PROCESSING count as not completed). One `get` per slot: keep windows small.
 * @example const completed = await completedSlots({ store, jobName: 'sync', slots: scheduleSlots(cron, from, to).slots });
 */
export async function completedSlots({
  store,
  jobName,
  scope = jobName,
  slots,
}: {
  store: Pick<IdempotencyStore, 'get'>;
  jobName: string;
  scope?: string;
  slots: readonly SlotInput[];
}): Promise<Date[]> {
  validateJobName(jobName);
  const done: Date[] = [];
  for (const slot of slots) {
    const record = await store.get({ key: scheduleKeys(jobName, slot).slot, scope });
    if (record?.status === 'COMPLETED') done.push(new Date(slotMs(slot)));
  }
  return done;
}
