/** `@idempotency-builder/runtime/consumers/bullmq`: idempotent BullMQ processors (optional peer: bullmq 6). */
export { createBullmqProcessor, DeadLetterJobError, type BullJobLike, type BullmqProcessorOptions } from './bullmq-processor.js';
export * from '../shared/index.js';
