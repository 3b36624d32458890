/**
 * kafkajs handlers. NO Kafka broker runs here: the handlers are checked against kafkajs's own
 * types (EachMessageHandler / EachBatchHandler) and fed KafkaMessage objects produced by
 * kafkajs's wire encoder/decoder and consumer Batch class; offsets and heartbeats are recorded.
 */
import type { ConsumerRunConfig, EachBatchPayload, EachMessagePayload, KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createKafkaEachBatch, createKafkaEachMessage, type ConsumeDecision, type KafkaHandlerOptions, type KafkaRecordLike } from '../../src/consumers/kafka/index.js';
import { FlakyError, PoisonError, sleep } from './support/engine.js';
import { wireBatch } from './support/kafka-wire.js';

function harness(behaviour: (body: { id: string; poison?: boolean; slowMs?: number }) => Promise<void> = async () => {}) {
  const idempotency = createIdempotency({ store: createMemoryStore(), leaseMs: 1_000, isPermanent: (e) => e instanceof PoisonError });
  const effects: string[] = [];
  const dead: { offset: string; reason: string }[] = [];
  const decisions: ConsumeDecision[] = [];
  const options: KafkaHandlerOptions<void> = {
    idempotency,
    minRequeueDelayMs: 20,
    handler: async (record: KafkaRecordLike) => {
      const body = JSON.parse(Buffer.from(record.message.value!).toString()) as { id: string; poison?: boolean; slowMs?: number };
      await behaviour(body);
      if (body.slowMs) await sleep(body.slowMs);
      if (body.poison) throw new PoisonError('bad');
      effects.push(body.id);
    },
    deadLetter: async (record, decision) => void dead.push({ offset: record.message.offset, reason: decision.reason }),
    onDecision: (decision) => decisions.push(decision),
  };
  return { options, effects, dead, decisions };
}

const payload = (topic: string, partition: number, message: KafkaMessage, heartbeats: { n: number }): EachMessagePayload => ({
  topic, partition, message, heartbeat: async () => void heartbeats.n++, pause: () => () => {},
});

describe('kafkajs eachMessage (no broker: kafkajs-decoded messages)', () => {
  it('type-checks as kafkajs handlers', () => {
    const { options } = harness();
    const config: ConsumerRunConfig = { eachMessage: createKafkaEachMessage(options) };
    const batchConfig: ConsumerRunConfig = { eachBatchAutoResolve: false, eachBatch: createKafkaEachBatch(options) };
    expect(typeof config.eachMessage).toBe('function');
    expect(typeof batchConfig.eachBatch).toBe('function');
  });

  it('keys on the producer header, not the offset: the same message at two offsets has its effect once', async () => {
    const t = harness();
    const each = createKafkaEachMessage(t.options);
    const batch = await wireBatch('orders', 0, 100, [
      { value: '{"id":"o-1"}', headers: { 'message-id': 'o-1' } },
      { value: '{"id":"o-1"}', headers: { 'message-id': 'o-1' } }, // re-produced by a retrying producer
    ]);
    expect(batch.messages.map((m) => m.offset)).toEqual(['100', '101']);
    const beats = { n: 0 };
    for (const message of batch.messages) await each(payload('orders', batch.partition, message, beats));
    expect(t.effects).toEqual(['o-1']);
    expect(t.decisions).toEqual([{ kind: 'ack', replayed: false }, { kind: 'ack', replayed: true }]);
  });

  it('a message without the header is dead-lettered (or keyed by payload when opted in)', async () => {
    const t = harness();
    const [message] = (await wireBatch('orders', 0, 7, [{ value: '{"id":"x"}' }])).messages;
    await createKafkaEachMessage(t.options)(payload('orders', 0, message!, { n: 0 }));
    expect(t.dead).toEqual([{ offset: '7', reason: 'invalid_message' }]);
    const loose = harness();
    const each = createKafkaEachMessage({ ...loose.options, keyFrom: 'message-id-or-payload' });
    await each(payload('orders', 0, message!, { n: 0 }));
    await each(payload('orders', 0, message!, { n: 0 }));
    expect(loose.effects).toEqual(['x']);
  });

  it('a poison message goes to deadLetter and resolves (offset committable); a transient failure throws for redelivery', async () => {
    let flaky = true;
    const t = harness(async (body) => {
      if (body.id === 'f-1' && flaky) throw new FlakyError('down');
    });
    const each = createKafkaEachMessage(t.options);
    const [poison, transient] = (await wireBatch('orders', 1, 0, [
      { value: '{"id":"p-1","poison":true}', headers: { 'message-id': 'p-1' } },
      { value: '{"id":"f-1"}', headers: { 'message-id': 'f-1' } },
    ])).messages;
    await each(payload('orders', 1, poison!, { n: 0 }));
    await expect(each(payload('orders', 1, transient!, { n: 0 }))).rejects.toThrow(FlakyError);
    flaky = false;
    await each(payload('orders', 1, transient!, { n: 0 })); // kafkajs redelivers from the same offset
    expect(t.dead).toEqual([{ offset: '0', reason: 'permanent_failure' }]);
    expect(t.effects).toEqual(['f-1']);
  });

  it('an in-progress duplicate waits (heartbeating) and then replays instead of skipping the offset', async () => {
    const t = harness();
    const each = createKafkaEachMessage(t.options);
    const batch = await wireBatch('orders', 2, 0, [
      { value: '{"id":"s-1","slowMs":300}', headers: { 'message-id': 's-1' } },
      { value: '{"id":"s-1","slowMs":300}', headers: { 'message-id': 's-1' } },
    ]);
    const beats = { n: 0 };
    // Two consumers on one partition for a moment (a rebalance): both got the message.
    await Promise.all(batch.messages.map((m) => each(payload('orders', 2, m, beats))));
    expect(t.effects).toEqual(['s-1']);
    expect(t.decisions.some((d) => d.kind === 'requeue' && d.reason === 'in_progress')).toBe(true);
    expect(beats.n).toBeGreaterThan(0);
  });
});

describe('kafkajs eachBatch partial failures (no broker)', () => {
  it('resolves offsets up to the first transient failure, throws, and the re-fetched rest completes once', async () => {
    let down = true;
    const t = harness(async (body) => {
      if (body.id === 'b-3' && down) throw new FlakyError('down');
    });
    const eachBatch = createKafkaEachBatch(t.options);
    const records = ['b-1', 'b-2', 'b-1', 'b-3', 'b-4'].map((id) => ({ value: JSON.stringify({ id }), headers: { 'message-id': id } }));
    const batch = await wireBatch('orders', 0, 10, records);
    const resolved: string[] = [];
    const run = (messages: KafkaMessage[]) =>
      eachBatch({
        batch: { ...batch, messages } as unknown as EachBatchPayload['batch'],
        resolveOffset: (offset: string) => void resolved.push(offset),
        heartbeat: async () => {},
        isRunning: () => true,
        isStale: () => false,
      } as unknown as EachBatchPayload);
    await expect(run(batch.messages)).rejects.toThrow(FlakyError);
    expect(resolved).toEqual(['10', '11', '12']); // b-1, b-2, and b-1's duplicate (replayed)
    down = false;
    await run(batch.messages.filter((m) => Number(m.offset) > 12)); // kafkajs re-fetches from offset 13
    expect(resolved).toEqual(['10', '11', '12', '13', '14']);
    expect(t.effects).toEqual(['b-1', 'b-2', 'b-3', 'b-4']);
  });
});
