/** `@idempotency-builder/runtime/schedules`: one run per schedule slot, overlap policies, missed slots. */
export {
  runScheduled,
  type OverlapPolicy,
  type RunScheduledOptions,
  type ScheduledContext,
  type ScheduledOutcome,
} from './run-scheduled.js';
export { scheduleKeys, slotMs, validateJobName, type SlotInput } from './slot.js';
export {
  nodeCronTask,
  cronerJob,
  cronerSlot,
  bullmqScheduledProcessor,
  bullmqSlot,
  type NodeCronContextLike,
  type CronerLike,
  type BullJobLike,
  type BullmqScheduledOptions,
  type CronerJobOptions,
} from './scheduler-adapters.js';
export { missedSlots, scheduleSlots, completedSlots, type ScheduleLike, type MissedSlotsInput, type MissedSlotsReport } from './missed-slots.js';
