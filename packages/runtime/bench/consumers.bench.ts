/**
 * Message consumers: per-message overhead of the idempotent RabbitMQ consumer as a ratio to a
 * bare amqplib consumer (consume + ack, same prefetch, same broker, same run). Each case drains
 * its own queue of N pre-published messages; N = BENCH_CONSUMERS_N (default 3000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { createIdempotency, type Idempotency } from '@idempotency-builder/runtime';
import { startRabbitConsumer } from '@idempotency-builder/runtime/consumers/rabbitmq';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { probeTcp } from '../test/support/services.js';
import type { BenchSuite, Row } from './harness.js';

const URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const N = Number(process.env.BENCH_CONSUMERS_N ?? 3_000);
const PREFETCH = 50;

async function fill(admin: Channel, queue: string): Promise<void> {
  await admin.assertQueue(queue, { durable: false, autoDelete: false });
  await admin.purgeQueue(queue);
  for (let i = 0; i < N; i++) admin.sendToQueue(queue, Buffer.from(JSON.stringify({ id: `m-${i}`, amount: i })), { messageId: `m-${i}` });
  for (let i = 0; i < 200 && (await admin.checkQueue(queue)).messageCount < N; i++) await new Promise((r) => setTimeout(r, 25));
}

/** Drains `queue` with `start` and returns messages per second. */
async function drain(connection: ChannelModel, start: (channel: Channel, done: () => void) => Promise<() => Promise<void>>): Promise<number> {
  const channel = await connection.createChannel();
  await channel.prefetch(PREFETCH);
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const begun = performance.now();
  const stop = await start(channel, finish);
  await finished;
  const seconds = (performance.now() - begun) / 1000;
  await stop();
  await channel.close();
  return N / seconds;
}

function counter(done: () => void) {
  let seen = 0;
  return () => {
    if (++seen === N) done();
  };
}

const bare = (queue: string) => async (channel: Channel, done: () => void) => {
  const count = counter(done);
  const { consumerTag } = await channel.consume(queue, (message: ConsumeMessage | null) => {
    if (!message) return;
    JSON.parse(message.content.toString()); // the same work the handler below does
    channel.ack(message);
    count();
  });
  return async () => void (await channel.cancel(consumerTag));
};

const idempotent = (queue: string, idempotency: Idempotency) => async (channel: Channel, done: () => void) => {
  const count = counter(done);
  const consumer = await startRabbitConsumer<ConsumeMessage, void>({
    channel, queue, idempotency,
    handler: (message) => void JSON.parse(message.content.toString()),
    onDecision: (decision) => decision.kind === 'ack' && count(),
  });
  return () => consumer.stop();
};

const suite: BenchSuite = {
  name: `RabbitMQ consumer: ${N} messages, prefetch ${PREFETCH}, idempotent vs bare`,
  async available() {
    return probeTcp(5672).then(() => null, () => 'RabbitMQ not reachable on 127.0.0.1:5672');
  },
  async run(report) {
    const dir = mkdtempSync(join(tmpdir(), 'ib-bench-consumers-'));
    const connection = await amqp.connect(URL);
    const admin = await connection.createChannel();
    const queue = `ib-bench-consumers-${process.pid}`;
    const sqlite = createSqliteStore({ filename: join(dir, 'bench.db'), synchronous: 'NORMAL' });
    const cases: { label: string; start: () => (channel: Channel, done: () => void) => Promise<() => Promise<void>>; note?: string }[] = [
      { label: 'bare amqplib consume + ack', start: () => bare(queue) },
      { label: 'startRabbitConsumer, memory store', start: () => idempotent(queue, createIdempotency({ store: createMemoryStore() })), note: 'wrapper + engine cost' },
      { label: 'startRabbitConsumer, SQLite store (NORMAL)', start: () => idempotent(queue, createIdempotency({ store: sqlite })), note: 'claim + complete on disk' },
    ];
    const rows: Row[] = [];
    try {
      for (const c of cases) {
        await fill(admin, queue);
        rows.push({ label: c.label, opsPerSec: await drain(connection, c.start()), note: c.note });
      }
    } finally {
      await admin.deleteQueue(queue).catch(() => {});
      await connection.close();
      await sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    }
    const base = rows[0]!.opsPerSec!;
    report.table(
      'messages/s (ratio = idempotent / bare; µs added per message)',
      rows.map((row, i) => ({
        ...row,
        ratio: row.opsPerSec! / base,
        note: [row.note, i === 0 ? undefined : `+${(1e6 / row.opsPerSec! - 1e6 / base).toFixed(1)} µs/msg`].filter(Boolean).join('; ') || undefined,
      })),
    );
  },
};

export default suite;
