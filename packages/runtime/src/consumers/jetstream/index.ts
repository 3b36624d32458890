/** `@idempotency-builder/runtime/consumers/jetstream`: idempotent NATS JetStream consumers (optional peers: @nats-io/jetstream 3, @nats-io/transport-node 3). */
export {
  createJetStreamHandler,
  startJetStreamConsumer,
  NATS_MSG_ID,
  type JetStreamConsumerLike,
  type JetStreamConsumerOptions,
  type JetStreamHandlerOptions,
  type JetStreamMessageLike,
  type JetStreamMessagesLike,
  type RunningJetStreamConsumer,
} from './jetstream-consumer.js';
export * from '../shared/index.js';
