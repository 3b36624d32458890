/**
 * A long-polling SQS consumer over the AWS SDK v3 client: ReceiveMessage, settle each message
 * through the engine, DeleteMessage only once its outcome is stored, ChangeMessageVisibility to
 * bring an in-progress duplicate or a transient failure back after its delay.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { mapBatch } from '../shared/batch.js';
import { createSqsSettler, type SqsHandlerOptions } from './sqs-batch-handler.js';
import { queueNameOf, type SqsRecordLike } from './sqs-message.js';

/** `SQSClient`, structurally: `send(command, { abortSignal })`. */
export interface SqsClientLike {
  send(command: never, options?: { abortSignal?: AbortSignal }): Promise<unknown>;
}

// `never` so that each SDK command class (whose constructor takes its own input type) fits.
type CommandClass = new (input: never) => unknown;
const command = (Class: CommandClass, input: object) => new (Class as unknown as new (input: object) => unknown)(input);

/** The command classes of `@aws-sdk/client-sqs` (loaded from it when not given). */
export interface SqsCommandsLike {
  readonly ReceiveMessageCommand: CommandClass;
  readonly DeleteMessageCommand: CommandClass;
  readonly ChangeMessageVisibilityCommand: CommandClass;
}

interface SdkMessage {
  MessageId?: string;
  ReceiptHandle?: string;
  Body?: string;
  Attributes?: Record<string, string>;
  MessageAttributes?: Record<string, { StringValue?: string; DataType?: string }>;
}

export interface SqsPollerOptions<T> extends Omit<SqsHandlerOptions<T>, 'requeue'> {
  readonly client: SqsClientLike;
  readonly queueUrl: string;
  readonly commands?: SqsCommandsLike;
  /** Long-poll wait, 0..20 s. Default 20. */
  readonly waitTimeSeconds?: number;
  /** 1..10. Default 10. */
  readonly maxMessages?: number;
  /** Called when a receive fails (the poller backs off `transientDelayMs` and goes on). */
  readonly onError?: (error: unknown) => void;
}

export interface SqsPoller {
  /** Stops after the current batch is settled; unsettled messages reappear after their visibility timeout. */
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts polling `queueUrl` until `stop()`.
 * @example
 * const poller = await startSqsPoller({ client: new SQSClient({}), queueUrl, idempotency, handler: (record) => ship(JSON.parse(record.body)) });
 */
export async function startSqsPoller<T>(options: SqsPollerOptions<T>): Promise<SqsPoller> {
  const { client, queueUrl, waitTimeSeconds = 20, maxMessages = 10, onError = () => {} } = options;
  if (typeof client?.send !== 'function') throw new InvalidOptionsError('Option "client" must be an SQSClient.');
  if (typeof queueUrl !== 'string' || !queueNameOf(queueUrl)) throw new InvalidOptionsError('Option "queueUrl" must be a queue URL.');
  if (!Number.isInteger(waitTimeSeconds) || waitTimeSeconds < 0 || waitTimeSeconds > 20) throw new InvalidOptionsError('Option "waitTimeSeconds" must be 0..20.');
  if (!Number.isInteger(maxMessages) || maxMessages < 1 || maxMessages > 10) throw new InvalidOptionsError('Option "maxMessages" must be 1..10.');
  // Loaded on demand: the SDK is an optional peer of this subpath only.
  const commands = options.commands ?? ((await import('@aws-sdk/client-sqs')) as unknown as SqsCommandsLike);
  const send = (sdkCommand: unknown, signal?: AbortSignal) => client.send(sdkCommand as never, signal ? { abortSignal: signal } : undefined);
  const { settle, concurrency } = createSqsSettler<T>({
    ...options,
    scope: options.scope ?? queueNameOf(queueUrl)!,
    requeue: async (record, decision) => {
      // Back after `delayMs` instead of the queue's full visibility timeout.
      await send(command(commands.ChangeMessageVisibilityCommand, { QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle, VisibilityTimeout: Math.ceil(decision.delayMs / 1000) }));
    },
  });
  const abort = new AbortController();
  let stopping = false;

  const loop = (async () => {
    while (!stopping) {
      let messages: SdkMessage[];
      try {
        const answer = (await send(
          command(commands.ReceiveMessageCommand, {
            QueueUrl: queueUrl, MaxNumberOfMessages: maxMessages, WaitTimeSeconds: waitTimeSeconds,
            MessageAttributeNames: ['All'], MessageSystemAttributeNames: ['All'],
          }),
          abort.signal,
        )) as { Messages?: SdkMessage[] };
        messages = answer.Messages ?? [];
      } catch (error) {
        if (stopping) break;
        onError(error);
        await sleep(options.transientDelayMs ?? 1_000);
        continue;
      }
      const records: SqsRecordLike[] = messages.map((m) => ({
        messageId: m.MessageId ?? '',
        receiptHandle: m.ReceiptHandle ?? '',
        body: m.Body ?? '',
        attributes: m.Attributes ?? {},
        messageAttributes: Object.fromEntries(Object.entries(m.MessageAttributes ?? {}).map(([name, a]) => [name, { stringValue: a.StringValue, dataType: a.DataType }])),
      }));
      const done = await mapBatch(records, settle, concurrency);
      await Promise.all(
        records.map((record, i) =>
          done[i] ? send(command(commands.DeleteMessageCommand, { QueueUrl: queueUrl, ReceiptHandle: record.receiptHandle })).catch(onError) : undefined,
        ),
      );
    }
  })();

  return {
    async stop() {
      stopping = true;
      abort.abort();
      await loop;
    },
  };
}
