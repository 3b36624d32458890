/** MQTT 5 consumer against the real Mosquitto (127.0.0.1:1883): duplicates, in-progress (shared subscription), poison, SIGKILL. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMqttConsumer, topicMatches, type ConsumeDecision, type MessageContext } from '../../src/consumers/mqtt/index.js';
import { probeTcp, serviceAvailable } from '../support/services.js';
import { spawnWorker } from '../stores/workers/spawn-worker.js';
import { openEffects, type Effects } from './support/effects.js';
import { createTestEngine, FlakyError, PoisonError, sleep, until } from './support/engine.js';

const available = await serviceAvailable('Mosquitto', () => probeTcp(1883));
const URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const run = `${process.pid}-${Date.now().toString(36)}`;
type Body = { id: string; poison?: boolean };

const connect = (clientId: string, persistent = false) =>
  mqtt.connectAsync(URL, { clientId, protocolVersion: 5, reconnectPeriod: 0, clean: !persistent, ...(persistent ? { properties: { sessionExpiryInterval: 300 } } : {}) });

it('topic filters match like the broker', () => {
  expect(topicMatches('a/+/c', 'a/b/c')).toBe(true);
  expect(topicMatches('a/#', 'a/b/c')).toBe(true);
  expect(topicMatches('$share/g/a/+', 'a/b')).toBe(true);
  expect(topicMatches('a/+', 'a/b/c')).toBe(false);
  expect(topicMatches('a/b', 'a/c')).toBe(false);
});

describe.skipIf(!available)('MQTT 5 consumer (real Mosquitto)', () => {
  let dir: string;
  let publisher: MqttClient;
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ib-mqtt-'));
    publisher = await connect(`ib-pub-${run}`);
  });
  afterAll(async () => {
    for (const client of clients) await client.endAsync(true).catch(() => {});
    await publisher?.endAsync();
    rmSync(dir, { recursive: true, force: true });
  });

  const publish = (topic: string, id: string | undefined, body: Body, via: 'user-property' | 'correlation-data' = 'user-property') =>
    publisher.publishAsync(topic, JSON.stringify(body), {
      qos: 1,
      properties: id === undefined ? {} : via === 'user-property' ? { userProperties: { 'message-id': id } } : { correlationData: Buffer.from(id) },
    });

  async function consumer(label: string, topic: string, handler: (body: Body, context: MessageContext, effects: Effects) => Promise<void>, decisions: ConsumeDecision[], extra: { idFrom?: 'correlation-data' } = {}) {
    const client = await connect(`ib-${label}-${run}-${clients.length}`);
    clients.push(client);
    const engine = createTestEngine(join(dir, `${label}.db`));
    const effects = openEffects(join(dir, `${label}-effects.db`));
    await startMqttConsumer({
      client, topic, deadLetterTopic: `ib/${run}/${label}/dlq`, idempotency: engine.idempotency, minRequeueDelayMs: 50, transientDelayMs: 50, maxAttempts: 3, ...extra,
      handler: (packet, context) => handler(JSON.parse(packet.payload.toString()) as Body, context, effects),
      onDecision: (decision) => decisions.push(decision),
    });
    return { effects };
  }

  it('the same message published twice (user property message-id) has its effect once', async () => {
    const topic = `ib/${run}/twice`;
    const decisions: ConsumeDecision[] = [];
    const { effects } = await consumer('twice', topic, async (body, _c, fx) => fx.record(body.id), decisions);
    await publish(topic, 'm-1', { id: 'm-1' });
    await publish(topic, 'm-1', { id: 'm-1' });
    await until('two decisions', () => decisions.length === 2);
    expect(decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
  });

  it('correlation data works as the message id too', async () => {
    const topic = `ib/${run}/corr`;
    const decisions: ConsumeDecision[] = [];
    const keys: string[] = [];
    await consumer('corr', topic, async (body, context, fx) => (keys.push(context.key), fx.record(body.id)), decisions, { idFrom: 'correlation-data' });
    await publish(topic, 'c-1', { id: 'c-1' }, 'correlation-data');
    await publish(topic, 'c-1', { id: 'c-1' }, 'correlation-data');
    await until('two decisions', () => decisions.length === 2);
    expect(keys).toEqual(['c-1']);
    expect(decisions.map((d) => d.kind === 'ack' && d.replayed)).toEqual([false, true]);
  });

  it('an in-progress duplicate on another subscriber of a shared subscription is retried, not dropped, then acked as a replay', async () => {
    const topic = `ib/${run}/shared`;
    const decisions: ConsumeDecision[] = [];
    const slow = async (body: Body, _c: MessageContext, fx: Effects) => {
      await sleep(500);
      fx.record(body.id);
    };
    const a = await consumer('shared', `$share/g/${topic}`, slow, decisions);
    await consumer('shared', `$share/g/${topic}`, slow, decisions);
    await publish(topic, 's-1', { id: 's-1' });
    await publish(topic, 's-1', { id: 's-1' });
    await until('both acked', () => decisions.filter((d) => d.kind === 'ack').length === 2);
    expect(decisions.some((d) => d.kind === 'requeue' && d.reason === 'in_progress')).toBe(true);
    expect(decisions.filter((d) => d.kind === 'ack')).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
    expect(a.effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
  });

  it('a poison message goes to the dead-letter topic with its reason; a transient one that never recovers too, after maxAttempts', async () => {
    const topic = `ib/${run}/poison`;
    const dead: { body: Body; reason: string }[] = [];
    const watcher = await connect(`ib-dlq-${run}`);
    clients.push(watcher);
    watcher.on('message', (_t, payload, packet) => dead.push({ body: JSON.parse(payload.toString()) as Body, reason: String(packet.properties?.userProperties?.reason) }));
    await watcher.subscribeAsync(`ib/${run}/poison/dlq`, { qos: 1 });
    const decisions: ConsumeDecision[] = [];
    const { effects } = await consumer('poison', topic, async (body, _c, fx) => {
      if (body.poison) throw new PoisonError('bad');
      if (body.id === 'never') throw new FlakyError('still down');
      fx.record(body.id);
    }, decisions);
    await publish(topic, 'p-1', { id: 'p-1', poison: true });
    await publish(topic, 'p-1', { id: 'p-1', poison: true });
    await publish(topic, 'never', { id: 'never' });
    await until('three dead letters', () => dead.length === 3);
    expect(dead).toEqual([
      { body: { id: 'p-1', poison: true }, reason: 'permanent_failure' },
      { body: { id: 'p-1', poison: true }, reason: 'replayed_failure' },
      { body: { id: 'never' }, reason: 'retries_exhausted' },
    ]);
    expect(decisions.filter((d) => d.kind === 'requeue').length).toBe(2); // attempts 1 and 2 of 3
    expect(effects.counts().runs).toBe(0);
  });

  it('a subscriber SIGKILLed mid-message: the broker resends to the same persistent session, the effect happens once', async () => {
    const topic = `ib/${run}/kill`;
    const clientId = `ib-kill-${run}`;
    const storeFile = join(dir, 'kill.db');
    const worker = spawnWorker<{ type: string; id?: string }>('../../consumers/workers/mqtt-worker.ts', { url: URL, clientId, topic, storeFile, leaseMs: 800 });
    await worker.next('ready');
    await publish(topic, 'k-1', { id: 'k-1' });
    expect((await worker.next<{ type: string; id: string }>('started')).id).toBe('k-1');
    worker.child.kill('SIGKILL');
    expect((await worker.exited).signal).toBe('SIGKILL');

    // Same client id, session kept by the broker. The broker resends right after CONNACK, so the
    // consumer must own handleMessage before connecting (manualConnect), or the default handler acks it.
    const client = mqtt.connect(URL, { clientId, protocolVersion: 5, reconnectPeriod: 0, clean: false, properties: { sessionExpiryInterval: 300 }, manualConnect: true });
    clients.push(client);
    const engine = createTestEngine(storeFile, 800);
    const effects = openEffects(join(dir, 'kill-effects.db'));
    const decisions: ConsumeDecision[] = [];
    const reclaimed: boolean[] = [];
    const started = startMqttConsumer({
      client, topic, deadLetterTopic: `${topic}/dlq`, idempotency: engine.idempotency, minRequeueDelayMs: 50,
      handler: (packet, context) => {
        reclaimed.push(context.reclaimed);
        effects.record((JSON.parse(packet.payload.toString()) as Body).id);
      },
      onDecision: (decision) => decisions.push(decision),
    });
    client.connect();
    await started;
    await until('the resent message is acked', () => decisions.some((d) => d.kind === 'ack'), 10_000);
    expect(decisions[0]).toMatchObject({ kind: 'requeue', reason: 'in_progress' });
    expect(reclaimed).toEqual([true]);
    expect(effects.counts()).toEqual({ distinct: 1, runs: 1, duplicates: 0 });
  });
});
