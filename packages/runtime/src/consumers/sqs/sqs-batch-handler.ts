/**
 * A Lambda SQS batch handler answering `{ batchItemFailures }` (enable ReportBatchItemFailures
 * on the event source mapping): acked messages are left out and deleted by Lambda; the rest
 * come back after their visibility timeout.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { mapBatch } from '../shared/batch.js';
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage } from '../shared/process-message.js';
import { queueNameOf, sqsView, type SqsRecordLike } from './sqs-message.js';

export interface SqsBatchResponse {
  readonly batchItemFailures: { readonly itemIdentifier: string }[];
}

export interface SqsHandlerOptions<T> extends Omit<ConsumerOptions<SqsRecordLike, T>, 'scope'> {
  /** Default: the queue name from `eventSourceARN`. */
  readonly scope?: ConsumerOptions<SqsRecordLike, T>['scope'];
  /** Message attribute with the producer's id. Default `message-id`. */
  readonly idAttribute?: string;
  /**
   * Dead-letter path. With a function (e.g. SendMessage to a DLQ), the message counts as done
   * once it resolves. Without one, a dead-lettered message is reported as a failure, and the
   * queue's redrive policy moves it to the DLQ after `maxReceiveCount` receives (each of which
   * replays the stored failure, never runs the handler again).
   */
  readonly deadLetter?: (record: SqsRecordLike, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>;
  /** Optional: called for requeued messages, e.g. ChangeMessageVisibility to `delayMs`. Errors are ignored. */
  readonly requeue?: (record: SqsRecordLike, decision: Extract<ConsumeDecision, { kind: 'requeue' }>) => Promise<void>;
  /** Standard queues: messages handled at once. Default 10. FIFO queues are always sequential. */
  readonly concurrency?: number;
}

/**
 * Builds the per-record settle step shared by the Lambda handler and the poller: resolves true
 * when the message is done (delete it), false when it must come back.
 * @example const { settle } = createSqsSettler({ idempotency, handler }); if (await settle(record)) await deleteMessage(record);
 */
export function createSqsSettler<T>(options: SqsHandlerOptions<T>) {
  const { idAttribute = 'message-id', deadLetter, requeue, concurrency = 10 } = options;
  if (typeof idAttribute !== 'string' || idAttribute === '') throw new InvalidOptionsError('Option "idAttribute" must be an attribute name.');
  if (deadLetter !== undefined && typeof deadLetter !== 'function') throw new InvalidOptionsError('Option "deadLetter" must be a function.');
  if (requeue !== undefined && typeof requeue !== 'function') throw new InvalidOptionsError('Option "requeue" must be a function.');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InvalidOptionsError('Option "concurrency" must be an integer >= 1.');
  const scope = options.scope ?? ((record: SqsRecordLike) => queueNameOf(record.eventSourceARN) ?? 'sqs');
  const resolved = resolveConsumerOptions<SqsRecordLike, T>({ ...options, scope }, undefined);
  const view = sqsView(idAttribute);

  /** True when the message is done (delete it), false when it must come back. */
  async function settle(record: SqsRecordLike): Promise<boolean> {
    const { decision } = await processMessage(resolved, view, record);
    let done = decision.kind === 'ack';
    if (decision.kind === 'requeue') await requeue?.(record, decision).catch(() => {});
    if (decision.kind === 'dead-letter' && deadLetter) done = await deadLetter(record, decision).then(() => true, () => false);
    resolved.onDecision(decision, record);
    return done;
  }
  return { settle, concurrency };
}

/**
 * Settles a batch: FIFO queues in order, stopping at the first failure (the rest of the batch
 * is reported failed too, so a message group never overtakes itself); standard queues concurrently.
 * @example
 * export const handler = createSqsBatchHandler({ idempotency, handler: (record) => ship(JSON.parse(record.body)) });
 */
export function createSqsBatchHandler<T>(options: SqsHandlerOptions<T>): (event: { readonly Records: readonly SqsRecordLike[] }) => Promise<SqsBatchResponse> {
  const { settle, concurrency } = createSqsSettler(options);
  return async (event) => {
    const records = event.Records;
    const fifo = records.some((record) => record.eventSourceARN?.endsWith('.fifo') || record.attributes?.MessageGroupId);
    const failed: string[] = [];
    if (fifo) {
      for (const record of records) {
        if (failed.length > 0 || !(await settle(record))) failed.push(record.messageId);
      }
    } else {
      const done = await mapBatch(records, settle, concurrency);
      records.forEach((record, index) => done[index] || failed.push(record.messageId));
    }
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  };
}
