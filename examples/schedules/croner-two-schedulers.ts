/**
 * Two croner schedulers (think: two app instances) on one schedule and one store: each slot runs
 * once, keyed by its fire time; then a missed-slot report for a window where slots were skipped.
 * Run: npx tsx examples/schedules/croner-two-schedulers.ts   (about 3 seconds)
 */
import { Cron } from 'croner';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { completedSlots, cronerJob, missedSlots, scheduleSlots } from '@idempotency-builder/runtime/schedules';

const store = createMemoryStore(); // one process here; use Redis/PostgreSQL across instances
const idempotency = createIdempotency({ store, leaseMs: 5_000 });
const runsPerSlot = new Map<string, number>();

const job = cronerJob(idempotency, 'heartbeat-report', async ({ slot }) => {
  runsPerSlot.set(slot.toISOString(), (runsPerSlot.get(slot.toISOString()) ?? 0) + 1);
  return `report for ${slot.toISOString()}`;
}, { overlap: 'skip' });

const instances = [new Cron('* * * * * *', { catch: true }, job), new Cron('* * * * * *', { catch: true }, job)];
const started = new Date();
await new Promise((resolve) => setTimeout(resolve, 3_100));
for (const instance of instances) instance.stop();

for (const [slot, runs] of runsPerSlot) console.log(`slot ${slot}: ran ${runs}x`);

// The report: which slots of the window have no completed record?
const schedule = new Cron('* * * * * *', { paused: true });
const { slots } = scheduleSlots(schedule, new Date(started.getTime() - 5_000), new Date());
const report = missedSlots({ schedule, from: slots[0]!, to: new Date(), completed: await completedSlots({ store, jobName: 'heartbeat-report', slots }) });
console.log(`window: ${report.expected} slots, missed (before the schedulers started): ${report.missed.length}`);
schedule.stop();
if ([...runsPerSlot.values()].some((runs) => runs !== 1) || runsPerSlot.size < 2) process.exit(1);
