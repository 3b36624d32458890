/**
 * Kafka (kafkajs 2) `eachMessage` / `eachBatch` handlers. Kafka has no per-message ack: a
 * message is "acknowledged" when its offset may be committed (eachMessage resolves, or
 * `resolveOffset` in eachBatch). The key is a producer header, never the offset: a message
 * re-produced by a retrying producer gets a new offset. No broker runs in this project's test
 * environment: this file is type-checked and exercised with messages decoded by kafkajs's own
 * wire decoder, not against a live cluster.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage, type MessageView } from '../shared/process-message.js';

type HeaderValue = Uint8Array | string | (Uint8Array | string)[] | undefined;

/** A kafkajs `KafkaMessage` plus the topic and partition it came from. */
export interface KafkaRecordLike {
  readonly topic: string;
  readonly partition: number;
  readonly message: {
    readonly offset: string;
    readonly key: Uint8Array | null;
    readonly value: Uint8Array | null;
    readonly headers?: Record<string, HeaderValue>;
  };
}

/** kafkajs `EachMessagePayload`, structurally. */
export interface EachMessagePayloadLike {
  readonly topic: string;
  readonly partition: number;
  readonly message: KafkaRecordLike['message'];
  heartbeat(): Promise<void>;
}

/** kafkajs `EachBatchPayload`, structurally. */
export interface EachBatchPayloadLike {
  readonly batch: { readonly topic: string; readonly partition: number; readonly messages: readonly KafkaRecordLike['message'][] };
  resolveOffset(offset: string): void;
  heartbeat(): Promise<void>;
  isRunning(): boolean;
  isStale(): boolean;
}

export interface KafkaHandlerOptions<T> extends Omit<ConsumerOptions<KafkaRecordLike, T>, 'scope'> {
  /** Default: the topic name. */
  readonly scope?: ConsumerOptions<KafkaRecordLike, T>['scope'];
  /** Header carrying the producer's message id. Default `message-id`. */
  readonly idHeader?: string;
  /**
   * The dead-letter path, required (Kafka has none): e.g. `producer.send({ topic: 'orders.dlq', messages: [...] })`.
   * Once it resolves the offset is committed; if it rejects, the message is retried.
   */
  readonly deadLetter: (record: KafkaRecordLike, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>;
}

const utf8 = new TextDecoder();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function headerText(value: HeaderValue): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  return typeof first === 'string' ? first : utf8.decode(first);
}

function createRecordHandler<T>(options: KafkaHandlerOptions<T>) {
  const { idHeader = 'message-id', deadLetter } = options;
  if (typeof idHeader !== 'string' || idHeader === '') throw new InvalidOptionsError('Option "idHeader" must be a header name.');
  if (typeof deadLetter !== 'function') throw new InvalidOptionsError('Option "deadLetter" is required: Kafka has no dead-letter queue of its own.');
  const resolved = resolveConsumerOptions<KafkaRecordLike, T>({ ...options, scope: options.scope ?? ((record) => record.topic) }, undefined);
  const view: MessageView<KafkaRecordLike> = {
    messageId: (record) => headerText(record.message.headers?.[idHeader]),
    payload: (record) => record.message.value ?? new Uint8Array(0),
    where: `header ${idHeader}`,
  };

  /**
   * Settles one record: resolves once its offset may be committed; throws (the original error)
   * to make kafkajs deliver it again from the uncommitted offset.
   */
  return async function handleRecord(record: KafkaRecordLike, heartbeat: () => Promise<void>, running: () => boolean): Promise<void> {
    for (;;) {
      const { decision } = await processMessage(resolved, view, record);
      resolved.onDecision(decision, record);
      if (decision.kind === 'ack') return;
      if (decision.kind === 'dead-letter') return deadLetter(record, decision);
      if (decision.reason !== 'in_progress' || !running()) throw decision.error instanceof Error ? decision.error : new Error(String(decision.error));
      // Another consumer (a rebalance left two on this partition for a moment) holds the key:
      // wait here, heartbeating, rather than skip the offset and lose the message.
      await sleep(decision.delayMs);
      await heartbeat();
    }
  };
}

/**
 * An `eachMessage` handler: resolves (offset committed by kafkajs) once the outcome is stored or
 * dead-lettered; throws for a transient failure so kafkajs redelivers from the same offset.
 * @example
 * await consumer.run({ eachMessage: createKafkaEachMessage({ idempotency, handler: ({ message }) => ship(message.value), deadLetter: (r) => producer.send({ topic: 'orders.dlq', messages: [r.message] }).then(() => {}) }) });
 */
export function createKafkaEachMessage<T>(options: KafkaHandlerOptions<T>): (payload: EachMessagePayloadLike) => Promise<void> {
  const handleRecord = createRecordHandler(options);
  return (payload) => handleRecord({ topic: payload.topic, partition: payload.partition, message: payload.message }, payload.heartbeat, () => true);
}

/**
 * An `eachBatch` handler reporting partial failures the Kafka way: every message up to the first
 * transient failure has its offset resolved; the failure is thrown, so kafkajs re-fetches from
 * that message on. Use with `eachBatchAutoResolve: false`.
 * @example
 * await consumer.run({ eachBatchAutoResolve: false, eachBatch: createKafkaEachBatch({ idempotency, handler, deadLetter }) });
 */
export function createKafkaEachBatch<T>(options: KafkaHandlerOptions<T>): (payload: EachBatchPayloadLike) => Promise<void> {
  const handleRecord = createRecordHandler(options);
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
    for (const message of batch.messages) {
      // After a rebalance took the partition away, the rest belongs to the new owner.
      if (!isRunning() || isStale()) return;
      await handleRecord({ topic: batch.topic, partition: batch.partition, message }, heartbeat, () => isRunning() && !isStale());
      resolveOffset(message.offset);
      await heartbeat();
    }
  };
}
