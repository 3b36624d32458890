/** How an SQS message (Lambda event record or SDK ReceiveMessage result) is seen by the shared core. */
import type { MessageView } from '../shared/process-message.js';

/** One message in the Lambda SQS event shape (`SQSRecord`), which the poller also converts to. */
export interface SqsRecordLike {
  /** Assigned by SQS per SendMessage call: a retried send gets a new one. Never the key. */
  readonly messageId: string;
  readonly receiptHandle: string;
  readonly body: string;
  readonly attributes?: { readonly MessageDeduplicationId?: string; readonly MessageGroupId?: string; readonly ApproximateReceiveCount?: string };
  readonly messageAttributes?: Record<string, { readonly stringValue?: string; readonly dataType?: string }>;
  /** `arn:aws:sqs:<region>:<account>:<queue>`; the queue name is the default scope. */
  readonly eventSourceARN?: string;
}

/**
 * The queue name at the end of an ARN or a queue URL.
 * @example queueNameOf('arn:aws:sqs:eu-west-1:123456789012:orders') // 'orders'
 */
export function queueNameOf(arnOrUrl: string | undefined): string | undefined {
  if (!arnOrUrl) return undefined;
  const name = arnOrUrl.split(/[:/]/).at(-1);
  return name || undefined;
}

/**
 * The producer's id: the message attribute `idAttribute` (set by the producer), else the FIFO
 * `MessageDeduplicationId` (also producer-set, or a content hash with content-based dedup).
 * @example sqsView('message-id').messageId(record) // 'order-42'
 */
export function sqsView(idAttribute: string): MessageView<SqsRecordLike> {
  return {
    messageId: (record) => record.messageAttributes?.[idAttribute]?.stringValue || record.attributes?.MessageDeduplicationId || undefined,
    payload: (record) => record.body,
    where: `message attribute ${idAttribute} or MessageDeduplicationId`,
  };
}
