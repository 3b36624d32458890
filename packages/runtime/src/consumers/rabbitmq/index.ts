/** `@idempotency-builder/runtime/consumers/rabbitmq`: idempotent RabbitMQ consumers (optional peer: amqplib 2). */
export {
  createRabbitHandler,
  startRabbitConsumer,
  type RabbitChannelLike,
  type RabbitConsumer,
  type RabbitConsumerOptions,
  type RabbitMessageLike,
} from './rabbitmq-consumer.js';
export * from '../shared/index.js';
