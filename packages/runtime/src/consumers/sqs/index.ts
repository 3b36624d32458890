/** `@idempotency-builder/runtime/consumers/sqs`: idempotent SQS consumers — a Lambda batch handler and an SDK poller (optional peer: @aws-sdk/client-sqs 3). */
export { createSqsBatchHandler, createSqsSettler, type SqsBatchResponse, type SqsHandlerOptions } from './sqs-batch-handler.js';
export { startSqsPoller, type SqsClientLike, type SqsCommandsLike, type SqsPoller, type SqsPollerOptions } from './sqs-poller.js';
export { queueNameOf, type SqsRecordLike } from './sqs-message.js';
export * from '../shared/index.js';
