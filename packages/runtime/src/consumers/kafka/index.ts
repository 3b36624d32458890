/** `@idempotency-builder/runtime/consumers/kafka`: idempotent kafkajs handlers (optional peer: kafkajs 2). Type-checked; no Kafka broker runs in this project's tests. */
export {
  createKafkaEachBatch,
  createKafkaEachMessage,
  type EachBatchPayloadLike,
  type EachMessagePayloadLike,
  type KafkaHandlerOptions,
  type KafkaRecordLike,
} from './kafka-consumer.js';
export * from '../shared/index.js';
