/** `@idempotency-builder/runtime/consumers/mqtt`: idempotent MQTT 5 consumers (optional peer: mqtt 5). */
export { startMqttConsumer, type MqttClientLike, type MqttConsumer, type MqttConsumerOptions, type MqttPacketLike } from './mqtt-consumer.js';
export { topicMatches } from './topic-match.js';
export * from '../shared/index.js';
