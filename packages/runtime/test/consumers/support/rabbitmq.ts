/** Test helper: RabbitMQ connection, per-test queues with a dead-letter queue, and publishing. */
import amqp, { type Channel, type ChannelModel } from 'amqplib';

export const RABBIT_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export interface TestQueue {
  readonly name: string;
  readonly dlq: string;
  publish(id: string | undefined, body: object): void;
  /** Messages ready in the queue (not counting unacked ones). */
  ready(): Promise<number>;
  /** Drains the dead-letter queue and returns the bodies found. */
  drainDlq(): Promise<object[]>;
  delete(): Promise<void>;
}

export async function openRabbit(): Promise<{ connection: ChannelModel; admin: Channel }> {
  const connection = await amqp.connect(RABBIT_URL);
  const admin = await connection.createChannel();
  return { connection, admin };
}

/** A queue named after the test, dead-lettering (reject without requeue) into `<name>.dlq`. */
export async function testQueue(admin: Channel, label: string): Promise<TestQueue> {
  const name = `ib-consumers-${label}-${process.pid}-${Date.now().toString(36)}`;
  const dlq = `${name}.dlq`;
  await admin.assertQueue(dlq, { durable: false, autoDelete: false });
  await admin.assertQueue(name, {
    durable: false,
    autoDelete: false,
    arguments: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': dlq },
  });
  return {
    name,
    dlq,
    publish(id, body) {
      admin.sendToQueue(name, Buffer.from(JSON.stringify(body)), id === undefined ? {} : { messageId: id });
    },
    async ready() {
      return (await admin.checkQueue(name)).messageCount;
    },
    async drainDlq() {
      const bodies: object[] = [];
      for (let i = 0; i < 10_000; i++) {
        const message = await admin.get(dlq, { noAck: true });
        if (message === false) break;
        bodies.push(JSON.parse(message.content.toString()) as object);
      }
      return bodies;
    },
    async delete() {
      await admin.deleteQueue(name).catch(() => {});
      await admin.deleteQueue(dlq).catch(() => {});
    },
  };
}
