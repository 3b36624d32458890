/** NATS JetStream consumer against the real server (127.0.0.1:4222): duplicates, in-progress, poison, SIGKILL, a 4-process flood. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JetStreamClient, JetStreamManager, JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJetStreamConsumer, type ConsumeDecision, type MessageContext } from '../../src/consumers/jetstream/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import { openEffects, type Effects } from './support/effects.js';
import { createTestEngine, FlakyError, PoisonError, sleep, until } from './support/engine.js';
import { NATS_SERVERS, openNats, testStream, type TestStream } from './support/jetstream.js';

const available = await serviceAvailable('NATS JetStream', () => probeTcp(4222));
const FLOOD = Number(process.env.CONSUMERS_FLOOD ?? 10_000);
const text = new TextDecoder();

describe.skipIf(!available)('NATS JetStream consumer (real server)', () => {
  let dir: string;
  let nats: { nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager };
  const streams: TestStream[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ib-jetstream-'));
    nats = await openNats();
  });
  afterAll(async () => {
    for (const stream of streams) await stream.delete();
    await nats?.nc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function setup(label: string, handler: (body: { id: string; [k: string]: unknown }, context: MessageContext, effects: Effects) => Promise<void>, concurrency = 1) {
    const stream = await testStream(nats, label);
    streams.push(stream);
    const engine = createTestEngine(join(dir, `${label}.db`));
    const effects = openEffects(join(dir, `${label}-effects.db`));
    const decisions: ConsumeDecision[] = [];
    const running = await startJetStreamConsumer<JsMsg, void>({
      consumer: await nats.js.consumers.get(stream.stream, stream.durable),
      idempotency: engine.idempotency,
      concurrency,
      minRequeueDelayMs: 50,
      transientDelayMs: 50,
      handler: (message, context) => handler(JSON.parse(text.decode(message.data)), context, effects),
      onDecision: (decision) => decisions.push(decision),
    });
    const stop = async () => {
      await running.stop();
      await engine.close();
      effects.close();
    };
    return { stream, effects, decisions, stop };
  }

  it('JetStream drops a re-publish inside the duplicate window; after it, the consumer replays instead of running twice', async () => {
    const t = await setup('twice', async (body, _c, effects) => effects.record(body.id));
    expect(await t.stream.publish('order-1', { id: 'order-1' })).toBe(false);
    expect(await t.stream.publish('order-1', { id: 'order-1' })).toBe(true); // the server's own dedupe
    await sleep(200); // past the stream's 100 ms duplicate_window: the server stores it again
    expect(await t.stream.publish('order-1', { id: 'order-1' })).toBe(false);
    await until('two decisions', () => t.decisions.length === 2);
    expect(t.decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await t.stop();
  });

  it('an in-progress duplicate is nak-ed with a delay, redelivered, and acked as a replay', async () => {
    const t = await setup('inprogress', async (body, _c, effects) => {
      await sleep(600);
      effects.record(body.id);
    }, 2);
    await t.stream.publish('slow-1', { id: 'slow-1' });
    await sleep(150);
    await t.stream.publish('slow-1', { id: 'slow-1' });
    await until('both acked', () => t.decisions.filter((d) => d.kind === 'ack').length === 2);
    expect(t.decisions[0]).toMatchObject({ kind: 'requeue', reason: 'in_progress' });
    expect(t.decisions.filter((d) => d.kind === 'ack')).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(t.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await t.stop();
  });

  it('a transient failure is nak-ed and redelivered, then has its effect once', async () => {
    let attempts = 0;
    const t = await setup('transient', async (body, _c, effects) => {
      if (++attempts === 1) throw new FlakyError('blip');
      effects.record(body.id);
    });
    await t.stream.publish('flaky-1', { id: 'flaky-1' });
    await until('ack', () => t.decisions.some((d) => d.kind === 'ack'));
    expect(t.decisions.map((d) => d.kind === 'requeue' ? d.reason : d.kind)).toEqual(['transient_failure', 'ack']);
    expect(t.effects.counts().runs).toBe(1);
    await t.stop();
  });

  it('a poison message is terminated (MSG_TERMINATED advisory); a re-published copy replays the failure and is terminated too', async () => {
    const t = await setup('poison', async (body, _c, effects) => {
      if (body.poison) throw new PoisonError('bad address');
      effects.record(body.id);
    });
    const advisories: { stream_seq: number; reason?: string }[] = [];
    const sub = nats.nc.subscribe(`$JS.EVENT.ADVISORY.CONSUMER.MSG_TERMINATED.${t.stream.stream}.${t.stream.durable}`, {
      callback: (_error, msg) => {
        advisories.push(msg.json());
      },
    });
    await nats.nc.flush();
    await t.stream.publish('bad-1', { id: 'bad-1', poison: true });
    await until('dead-letter', () => t.decisions.length === 1);
    await sleep(150);
    await t.stream.publish('bad-1', { id: 'bad-1', poison: true });
    await until('two advisories', () => advisories.length === 2);
    expect(t.decisions.map((d) => d.kind === 'dead-letter' && d.reason)).toEqual(['permanent_failure', 'replayed_failure']);
    expect(advisories.map((a) => a.stream_seq)).toEqual([1, 2]);
    expect(t.effects.counts().runs).toBe(0);
    sub.unsubscribe();
    await t.stop();
  });

  it('a consumer SIGKILLed mid-message: redelivered after ack_wait, the orphaned claim is reclaimed, the effect happens once', async () => {
    const stream = await testStream(nats, 'kill', { ackWaitMs: 1_500 });
    streams.push(stream);
    const storeFile = join(dir, 'kill.db');
    const effectsFile = join(dir, 'kill-effects.db');
    const worker = spawnWorker<{ type: string; id?: string }>('../../consumers/workers/jetstream-worker.ts', {
      servers: NATS_SERVERS, stream: stream.stream, durable: stream.durable, storeFile, effectsFile, leaseMs: 3_000, concurrency: 1, hang: true,
    });
    await worker.next('ready');
    await stream.publish('kill-1', { id: 'kill-1' });
    expect((await worker.next<{ type: string; id: string }>('started')).id).toBe('kill-1');
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');

    const engine = createTestEngine(storeFile, 3_000);
    const effects = openEffects(effectsFile);
    const decisions: ConsumeDecision[] = [];
    const reclaimed: boolean[] = [];
    const running = await startJetStreamConsumer({
      consumer: await nats.js.consumers.get(stream.stream, stream.durable),
      idempotency: engine.idempotency,
      minRequeueDelayMs: 100,
      handler: (message, context) => {
        reclaimed.push(context.reclaimed);
        effects.record((JSON.parse(text.decode(message.data)) as { id: string }).id);
      },
      onDecision: (decision) => decisions.push(decision),
    });
    await until('the redelivered message is acked', () => decisions.some((d) => d.kind === 'ack'), 15_000);
    // ack_wait (1.5 s) < lease (3 s): the redelivery meets the dead worker's live claim first.
    expect(decisions[0]).toMatchObject({ kind: 'requeue', reason: 'in_progress' });
    expect(reclaimed).toEqual([true]);
    expect(effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
    await running.stop();
    await engine.close();
    effects.close();
  });

  it(`${FLOOD} messages + 20 % duplicates across 4 consumer processes: effects equal the distinct messages`, async () => {
    // Duplicates go out >= 100 ms (the server's minimum window) after their originals, so the
    // consumers, not the server, have to catch them; chunking keeps many of them concurrent.
    const stream = await testStream(nats, 'flood', { duplicateWindowMs: 100, ackWaitMs: 30_000 });
    streams.push(stream);
    const storeFile = join(dir, 'flood.db');
    const effectsFile = join(dir, 'flood-effects.db');
    await createTestEngine(storeFile).close();
    openEffects(effectsFile).close();
    const workers = Array.from({ length: 4 }, () =>
      spawnWorker<{ type: string }>('../../consumers/workers/jetstream-worker.ts', {
        servers: NATS_SERVERS, stream: stream.stream, durable: stream.durable, storeFile, effectsFile, leaseMs: 5_000, concurrency: 8, hang: false,
      }),
    );
    await Promise.all(workers.map((w) => w.next('ready')));
    const latest = new Map<number, Record<string, number>>();
    workers.forEach((w, i) => w.child.on('message', (m: { type: string; tally?: Record<string, number> }) => m.type === 'tally' && latest.set(i, m.tally!)));
    const settled = () => [...latest.values()].reduce((total, t) => total + t.ack! + t.replayed!, 0);
    const duplicates = Math.round(FLOOD * 0.2);
    const chunk = 500;
    let serverDropped = 0;
    const publish = (i: number) => nats.js.publish(stream.subject, JSON.stringify({ id: `m-${i}` }), { msgID: `m-${i}` });
    for (let start = 0; start < FLOOD + chunk; start += chunk) {
      const acks = [];
      for (let i = start; i < Math.min(start + chunk, FLOOD); i++) acks.push(publish(i));
      for (let i = start - chunk; i >= 0 && i < start; i++) if (i % 5 === 0) acks.push(publish(i));
      for (const ack of await Promise.all(acks)) if (ack.duplicate) serverDropped++;
      await sleep(110);
    }
    const delivered = FLOOD + duplicates - serverDropped;
    const effects = openEffects(effectsFile);
    await until('every distinct message has its effect', () => effects.counts().distinct === FLOOD, 120_000);
    await until('every delivery is acked', () => settled() === delivered, 60_000);
    for (const w of workers) w.child.send({ type: 'stop' });
    const tallies = await Promise.all(workers.map((w) => w.next<{ type: string; tally: Record<string, number> }>('stopped', 30_000)));
    const sum = (field: string) => tallies.reduce((total, t) => total + (t.tally[field] ?? 0), 0);
    expect(effects.counts()).toEqual({ distinct: FLOOD, runs: FLOOD, duplicates: 0 });
    expect(serverDropped).toBeLessThan(duplicates / 2); // most duplicates really reached the consumers
    expect(sum('ack')).toBe(FLOOD);
    expect(sum('replayed')).toBe(delivered - FLOOD);
    expect(sum('deadLetter')).toBe(0);
    expect(tallies.every((t) => t.tally.ack! > 0)).toBe(true);
    effects.close();
  }, 180_000);
});
