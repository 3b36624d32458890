/** Test worker: one RabbitMQ consumer process (flood and SIGKILL tests); reports over IPC. */
import amqp from 'amqplib';
import { startRabbitConsumer } from '../../../src/consumers/rabbitmq/index.js';
import { openEffects } from '../support/effects.js';
import { createTestEngine } from '../support/engine.js';

const config = JSON.parse(process.argv[2]!) as {
  url: string; queue: string; storeFile: string; effectsFile: string; leaseMs: number; prefetch: number; hang: boolean;
};
const send = (message: object) => process.send?.(message);

const effects = openEffects(config.effectsFile);
const { idempotency, close } = createTestEngine(config.storeFile, config.leaseMs);
const connection = await amqp.connect(config.url);
const channel = await connection.createChannel();
await channel.prefetch(config.prefetch);
const tally = { ack: 0, replayed: 0, requeue: 0, deadLetter: 0 };
const consumer = await startRabbitConsumer({
  channel,
  queue: config.queue,
  idempotency,
  handler: async (message) => {
    const body = JSON.parse(message.content.toString()) as { id: string };
    send({ type: 'started', id: body.id });
    if (config.hang) await new Promise(() => {}); // the parent SIGKILLs us here, mid-message
    effects.record(body.id);
  },
  onDecision: (decision) => {
    if (decision.kind === 'ack') tally[decision.replayed ? 'replayed' : 'ack']++;
    else if (decision.kind === 'requeue') tally.requeue++;
    else tally.deadLetter++;
  },
});
process.on('message', async (message: { type: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(ticker);
  await consumer.stop();
  await channel.close();
  await connection.close();
  await close();
  effects.close();
  send({ type: 'stopped', tally });
  process.exit(0);
});
const ticker = setInterval(() => send({ type: 'tally', tally }), 100);
send({ type: 'ready' });
