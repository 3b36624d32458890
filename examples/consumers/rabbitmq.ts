/**
 * Idempotent RabbitMQ consumer: a message published twice ships once; a poison message lands in
 * the dead-letter queue. Needs RabbitMQ on 127.0.0.1:5672 (guest/guest).
 * Run: npx tsx examples/consumers/rabbitmq.ts
 */
import amqp from 'amqplib';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { startRabbitConsumer } from '@idempotency-builder/runtime/consumers/rabbitmq';

class UnknownSkuError extends Error {}

const connection = await amqp.connect(process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
const channel = await connection.createChannel();
const queue = `example-orders-${process.pid}`;
// Rejected messages go to <queue>.dlq through the default exchange — without a DLX RabbitMQ would drop them.
await channel.assertQueue(`${queue}.dlq`, { autoDelete: true });
await channel.assertQueue(queue, { autoDelete: true, arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': `${queue}.dlq` } });
await channel.prefetch(16);

const idempotency = createIdempotency({ store: createMemoryStore(), isPermanent: (error) => error instanceof UnknownSkuError });
let shipped = 0;
const consumer = await startRabbitConsumer({
  channel,
  queue,
  idempotency,
  handler: async (message) => {
    const order = JSON.parse(message.content.toString()) as { id: string; sku: string };
    if (order.sku === '???') throw new UnknownSkuError(`unknown sku in ${order.id}`);
    shipped++;
    return { shipped: order.id };
  },
  onDecision: (decision, message) => console.log(message.properties.messageId, decision.kind, decision.kind === 'ack' ? `replayed=${decision.replayed}` : decision.reason),
});

const publish = (id: string, body: object) => channel.sendToQueue(queue, Buffer.from(JSON.stringify(body)), { messageId: id });
publish('order-1', { id: 'order-1', sku: 'A' });
publish('order-1', { id: 'order-1', sku: 'A' }); // a producer retry: same messageId
publish('order-2', { id: 'order-2', sku: '???' }); // poison
// The duplicate arrived while the first copy ran: requeued, it comes back within a second and replays.
await new Promise((resolve) => setTimeout(resolve, 2000));

const dead = await channel.get(`${queue}.dlq`, { noAck: true });
console.log(`shipped ${shipped} time(s); dead-lettered: ${dead ? dead.content.toString() : 'nothing'}`);
await consumer.stop();
await connection.close();
