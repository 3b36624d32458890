/** RabbitMQ consumer against the real broker (127.0.0.1:5672): duplicates, in-progress, poison, SIGKILL, a 4-process flood. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRabbitConsumer, type ConsumeDecision, type MessageContext } from '../../src/consumers/rabbitmq/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import { openEffects, type Effects } from './support/effects.js';
import { createTestEngine, FlakyError, PoisonError, sleep, until } from './support/engine.js';
import { openRabbit, RABBIT_URL, testQueue, type TestQueue } from './support/rabbitmq.js';

const available = await serviceAvailable('RabbitMQ', () => probeTcp(5672));
const FLOOD = Number(process.env.CONSUMERS_FLOOD ?? 10_000);

describe.skipIf(!available)('RabbitMQ consumer (real broker)', () => {
  let dir: string;
  let connection: ChannelModel;
  let admin: Channel;
  const queues: TestQueue[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ib-rabbit-'));
    ({ connection, admin } = await openRabbit());
  });
  afterAll(async () => {
    for (const queue of queues) await queue.delete();
    await connection?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An in-process consumer over a fresh queue, store and effects table. */
  async function setup(label: string, handler: (body: { id: string; [k: string]: unknown }, context: MessageContext, effects: Effects) => Promise<void>, extra: { prefetch?: number; keyFrom?: 'message-id' | 'message-id-or-payload'; maxRequeueDelayMs?: number; leaseMs?: number } = {}) {
    const queue = await testQueue(admin, label);
    queues.push(queue);
    const engine = createTestEngine(join(dir, `${label}.db`), extra.leaseMs);
    const effects = openEffects(join(dir, `${label}-effects.db`));
    const channel = await connection.createChannel();
    // prefetch 1 makes delivery order deterministic; the in-progress test raises it to get overlap.
    await channel.prefetch(extra.prefetch ?? 1);
    const decisions: ConsumeDecision[] = [];
    const consumer = await startRabbitConsumer<ConsumeMessage, void>({
      channel,
      queue: queue.name,
      idempotency: engine.idempotency,
      keyFrom: extra.keyFrom,
      minRequeueDelayMs: 50,
      maxRequeueDelayMs: extra.maxRequeueDelayMs,
      transientDelayMs: 50,
      handler: (message, context) => handler(JSON.parse(message.content.toString()), context, effects),
      onDecision: (decision) => decisions.push(decision),
    });
    const stop = async () => {
      await consumer.stop();
      await channel.close();
      await engine.close();
      effects.close();
    };
    return { queue, effects, decisions, stop, consumer };
  }

  it('the same message published twice has its effect once; the second delivery is acked as a replay', async () => {
    const t = await setup('twice', async (body, _c, effects) => effects.record(body.id));
    t.queue.publish('order-1', { id: 'order-1', amount: 5 });
    t.queue.publish('order-1', { id: 'order-1', amount: 5 });
    await until('two decisions', () => t.decisions.length === 2);
    expect(t.decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    expect(await t.queue.ready()).toBe(0);
    await t.stop();
  });

  it('an in-progress duplicate is requeued (not dropped) and acked once the first delivery finished', async () => {
    const t = await setup('inprogress', async (body, _c, effects) => {
      await sleep(400);
      effects.record(body.id);
    }, { prefetch: 10 });
    t.queue.publish('slow-1', { id: 'slow-1' });
    t.queue.publish('slow-1', { id: 'slow-1' });
    await until('both deliveries acked', () => t.decisions.filter((d) => d.kind === 'ack').length === 2);
    const kinds = t.decisions.map((d) => (d.kind === 'requeue' ? `requeue:${d.reason}` : d.kind === 'ack' ? `ack:${d.replayed}` : d.kind));
    expect(kinds[0]).toBe('requeue:in_progress');
    expect(kinds.at(-1)).toBe('ack:true');
    expect(kinds).toContain('ack:false');
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await t.stop();
  });

  it('stop() requeues a held in-progress duplicate at once instead of keeping it until its delay ends', async () => {
    const t = await setup('stopheld', async (body, _c, effects) => {
      await sleep(300);
      effects.record(body.id);
    }, { prefetch: 10, maxRequeueDelayMs: 10_000, leaseMs: 8_000 });
    t.queue.publish('held-1', { id: 'held-1' });
    t.queue.publish('held-1', { id: 'held-1' });
    await until('the duplicate is held', () => t.decisions.some((d) => d.kind === 'requeue'));
    const stopped = Date.now();
    await t.consumer.stop(); // the channel stays open: only releaseHeld() can requeue it now
    await until('the held duplicate is back in the queue', async () => (await t.queue.ready()) === 1, 3_000);
    expect(Date.now() - stopped).toBeLessThan(3_000); // its own delay would have been the ~8 s lease
    expect(t.decisions.filter((d) => d.kind === 'ack')).toEqual([{ kind: 'ack', replayed: false }]);
    await t.stop();
  });

  it('a transient failure is redelivered and then succeeds once', async () => {
    let attempts = 0;
    const t = await setup('transient', async (body, _c, effects) => {
      if (++attempts === 1) throw new FlakyError('database blip');
      effects.record(body.id);
    });
    t.queue.publish('flaky-1', { id: 'flaky-1' });
    await until('ack', () => t.decisions.some((d) => d.kind === 'ack'));
    expect(t.decisions.map((d) => d.kind)).toEqual(['requeue', 'ack']);
    expect(t.decisions[0]).toMatchObject({ reason: 'transient_failure' });
    expect(t.effects.counts().runs).toBe(1);
    await t.stop();
  });

  it('a poison message reaches the dead-letter queue; its replayed failure does too; no effect', async () => {
    const t = await setup('poison', async (body, _c, effects) => {
      if (body.poison) throw new PoisonError('cannot ship to the moon');
      effects.record(body.id);
    });
    t.queue.publish('bad-1', { id: 'bad-1', poison: true });
    await until('dead-letter', () => t.decisions.length === 1);
    // Published again by a retrying producer: answered from the stored failure, not run again.
    t.queue.publish('bad-1', { id: 'bad-1', poison: true });
    await until('second dead-letter', () => t.decisions.length === 2);
    expect(t.decisions.map((d) => d.kind === 'dead-letter' && d.reason)).toEqual(['permanent_failure', 'replayed_failure']);
    let dead: object[] = [];
    await until('two messages in the DLQ', async () => (dead = dead.concat(await t.queue.drainDlq())).length === 2);
    expect(dead).toEqual([{ id: 'bad-1', poison: true }, { id: 'bad-1', poison: true }]);
    expect(t.effects.counts().runs).toBe(0);
    await t.stop();
  });

  it('a message without messageId is dead-lettered by default, and keyed by its payload when opted in', async () => {
    const strict = await setup('noid', async (body, _c, effects) => effects.record(body.id));
    strict.queue.publish(undefined, { id: 'x' });
    await until('decision', () => strict.decisions.length === 1);
    expect(strict.decisions[0]).toMatchObject({ kind: 'dead-letter', reason: 'invalid_message' });
    expect(await strict.queue.drainDlq()).toEqual([{ id: 'x' }]);
    await strict.stop();

    const keys: string[] = [];
    const loose = await setup('payloadkey', async (body, context, effects) => (keys.push(context.key), effects.record(body.id)), { keyFrom: 'message-id-or-payload' });
    loose.queue.publish(undefined, { id: 'y', amount: 1 });
    loose.queue.publish(undefined, { amount: 1, id: 'y' }); // same JSON, other key order: same key
    await until('two decisions', () => loose.decisions.length === 2);
    expect(loose.decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(keys[0]).toMatch(/^p:[0-9a-f]{64}$/);
    expect(loose.effects.counts().runs).toBe(1);
    await loose.stop();
  });

  it('a consumer SIGKILLed mid-message: the broker redelivers, the lease lapses, the effect happens once', async () => {
    const queue = await testQueue(admin, 'kill');
    queues.push(queue);
    const storeFile = join(dir, 'kill.db');
    const effectsFile = join(dir, 'kill-effects.db');
    const worker = spawnWorker<{ type: string; id?: string }>('../../consumers/workers/rabbitmq-worker.ts', {
      url: RABBIT_URL, queue: queue.name, storeFile, effectsFile, leaseMs: 800, prefetch: 1, hang: true,
    });
    await worker.next('ready');
    queue.publish('kill-1', { id: 'kill-1' });
    expect((await worker.next<{ type: string; id: string }>('started')).id).toBe('kill-1');
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');

    const engine = createTestEngine(storeFile, 800);
    const effects = openEffects(effectsFile);
    const channel = await connection.createChannel();
    const decisions: ConsumeDecision[] = [];
    const reclaimed: boolean[] = [];
    const consumer = await startRabbitConsumer({
      channel, queue: queue.name, idempotency: engine.idempotency, minRequeueDelayMs: 50,
      handler: (message, context) => {
        reclaimed.push(context.reclaimed);
        effects.record((JSON.parse(message.content.toString()) as { id: string }).id);
      },
      onDecision: (decision) => decisions.push(decision),
    });
    await until('the redelivered message is acked', () => decisions.some((d) => d.kind === 'ack'), 10_000);
    // Redelivered while the dead worker's lease still ran: requeued, then run by reclaiming the orphan.
    expect(decisions[0]).toMatchObject({ kind: 'requeue', reason: 'in_progress' });
    expect(reclaimed).toEqual([true]);
    expect(effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await consumer.stop();
    await channel.close();
    await engine.close();
    effects.close();
  });

  it(`${FLOOD} messages + 20 % duplicates across 4 consumer processes: effects equal the distinct messages`, async () => {
    const queue = await testQueue(admin, 'flood');
    queues.push(queue);
    const storeFile = join(dir, 'flood.db');
    const effectsFile = join(dir, 'flood-effects.db');
    createTestEngine(storeFile).close(); // create the schema once, before four processes race to
    openEffects(effectsFile).close();
    const workers = Array.from({ length: 4 }, () =>
      spawnWorker<{ type: string; tally?: Record<string, number> }>('../../consumers/workers/rabbitmq-worker.ts', {
        url: RABBIT_URL, queue: queue.name, storeFile, effectsFile, leaseMs: 5_000, prefetch: 20, hang: false,
      }),
    );
    await Promise.all(workers.map((w) => w.next('ready')));
    const latest = new Map<number, Record<string, number>>();
    workers.forEach((w, i) => w.child.on('message', (m: { type: string; tally?: Record<string, number> }) => m.type === 'tally' && latest.set(i, m.tally!)));
    const settled = () => [...latest.values()].reduce((total, t) => total + t.ack! + t.replayed!, 0);
    const duplicates = Math.round(FLOOD * 0.2);
    const ids = Array.from({ length: FLOOD }, (_, i) => `m-${i}`);
    // Duplicates interleaved right after (or close to) their originals, so many arrive concurrently.
    const order = [...ids];
    for (let d = 0; d < duplicates; d++) {
      const i = (d * 7919) % FLOOD;
      order.splice(Math.min(order.length, order.indexOf(ids[i]!) + 1 + (d % 3)), 0, ids[i]!);
    }
    for (const id of order) queue.publish(id, { id });
    const effects = openEffects(effectsFile);
    await until('every distinct message has its effect', () => effects.counts().distinct === FLOOD, 120_000);
    await until('every delivery is acked', () => settled() === FLOOD + duplicates, 60_000);
    expect(await queue.ready()).toBe(0);
    for (const w of workers) w.child.send({ type: 'stop' });
    const tallies = await Promise.all(workers.map((w) => w.next<{ type: string; tally: Record<string, number> }>('stopped', 30_000)));
    const sum = (field: string) => tallies.reduce((total, t) => total + (t.tally[field] ?? 0), 0);
    expect(effects.counts()).toEqual({ distinct: FLOOD, runs: FLOOD, duplicates: 0 });
    expect(sum('ack')).toBe(FLOOD);
    expect(sum('ack') + sum('replayed')).toBe(FLOOD + duplicates);
    expect(sum('deadLetter')).toBe(0);
    expect(tallies.every((t) => t.tally.ack! > 0)).toBe(true); // all four really consumed
    effects.close();
  }, 180_000);
});
