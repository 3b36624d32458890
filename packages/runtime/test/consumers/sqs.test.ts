/**
 * SQS. No SQS server runs here: the Lambda batch handler is fed SQS event records; the poller
 * uses the real @aws-sdk/client-sqs SQSClient, which sends real HTTP requests (JSON protocol,
 * signed, MD5-checked) to a small fake SQS server started by the test (support/fake-sqs.ts).
 */
import { ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createSqsBatchHandler, startSqsPoller, type ConsumeDecision, type SqsRecordLike } from '../../src/consumers/sqs/index.js';
import { FlakyError, PoisonError, sleep, until } from './support/engine.js';
import { startFakeSqs, type FakeSqs } from './support/fake-sqs.js';

type Body = { id: string; poison?: boolean; flaky?: boolean; slowMs?: number };

function harness() {
  const idempotency = createIdempotency({ store: createMemoryStore(), leaseMs: 2_000, isPermanent: (e) => e instanceof PoisonError });
  const effects: string[] = [];
  const decisions: ConsumeDecision[] = [];
  const flaky = new Set<string>();
  const handler = async (record: SqsRecordLike) => {
    const body = JSON.parse(record.body) as Body;
    if (body.slowMs) await sleep(body.slowMs);
    if (body.poison) throw new PoisonError('bad');
    if (body.flaky && !flaky.has(body.id)) {
      flaky.add(body.id);
      throw new FlakyError('down');
    }
    effects.push(body.id);
  };
  return { idempotency, effects, decisions, handler, onDecision: (d: ConsumeDecision) => decisions.push(d) };
}

const ARN = 'arn:aws:sqs:eu-west-1:000000000000:orders';
const record = (messageId: string, id: string | undefined, body: Body, extra: Partial<SqsRecordLike> = {}): SqsRecordLike => ({
  messageId, receiptHandle: `rh-${messageId}`, body: JSON.stringify(body), eventSourceARN: ARN,
  attributes: { ApproximateReceiveCount: '1' },
  messageAttributes: id === undefined ? {} : { 'message-id': { stringValue: id, dataType: 'String' } },
  ...extra,
});

describe('SQS Lambda batch handler (batchItemFailures)', () => {
  it('reports exactly the messages that must come back; duplicates inside one batch have their effect once', async () => {
    const t = harness();
    const handle = createSqsBatchHandler({ idempotency: t.idempotency, handler: t.handler, onDecision: t.onDecision, concurrency: 1 });
    const answer = await handle({
      Records: [
        record('sqs-1', 'o-1', { id: 'o-1' }),
        record('sqs-2', 'o-1', { id: 'o-1' }), // same producer id, new SQS messageId (a retried SendMessage)
        record('sqs-3', 'p-1', { id: 'p-1', poison: true }),
        record('sqs-4', 'f-1', { id: 'f-1', flaky: true }),
        record('sqs-5', undefined, { id: 'anon' }),
      ],
    });
    // Without a deadLetter function, dead-lettered messages are failures: the redrive policy takes them to the DLQ.
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'sqs-3' }, { itemIdentifier: 'sqs-4' }, { itemIdentifier: 'sqs-5' }] });
    expect(t.effects).toEqual(['o-1']);
    expect(t.decisions.map((d) => (d.kind === 'ack' ? `ack:${d.replayed}` : d.reason))).toEqual(['ack:false', 'ack:true', 'permanent_failure', 'transient_failure', 'invalid_message']);
  });

  it('with a deadLetter function, dead-lettered messages count as done; a replayed failure is dead-lettered again', async () => {
    const t = harness();
    const dead: string[] = [];
    const handle = createSqsBatchHandler({ idempotency: t.idempotency, handler: t.handler, deadLetter: async (r, d) => void dead.push(`${r.messageId}:${d.reason}`) });
    expect(await handle({ Records: [record('a', 'p-1', { id: 'p-1', poison: true })] })).toEqual({ batchItemFailures: [] });
    expect(await handle({ Records: [record('b', 'p-1', { id: 'p-1', poison: true })] })).toEqual({ batchItemFailures: [] });
    expect(dead).toEqual(['a:permanent_failure', 'b:replayed_failure']);
  });

  it('FIFO: after the first failure the rest of the batch is reported failed without running', async () => {
    const t = harness();
    const handle = createSqsBatchHandler({ idempotency: t.idempotency, handler: t.handler });
    const fifo = { eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:orders.fifo' };
    const answer = await handle({
      Records: [
        record('1', undefined, { id: 'g-1' }, { ...fifo, attributes: { MessageGroupId: 'g', MessageDeduplicationId: 'g-1' } }),
        record('2', undefined, { id: 'g-2', flaky: true }, { ...fifo, attributes: { MessageGroupId: 'g', MessageDeduplicationId: 'g-2' } }),
        record('3', undefined, { id: 'g-3' }, { ...fifo, attributes: { MessageGroupId: 'g', MessageDeduplicationId: 'g-3' } }),
      ],
    });
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['2', '3']);
    expect(t.effects).toEqual(['g-1']);
  });

  it('an in-progress duplicate in a concurrent invocation is reported failed (comes back), then replays', async () => {
    const t = harness();
    const handle = createSqsBatchHandler({ idempotency: t.idempotency, handler: t.handler, onDecision: t.onDecision });
    const [first, second] = await Promise.all([
      handle({ Records: [record('x1', 's-1', { id: 's-1', slowMs: 200 })] }),
      sleep(50).then(() => handle({ Records: [record('x2', 's-1', { id: 's-1', slowMs: 200 })] })),
    ]);
    expect(first.batchItemFailures).toEqual([]);
    expect(second.batchItemFailures).toEqual([{ itemIdentifier: 'x2' }]);
    expect(await handle({ Records: [record('x2', 's-1', { id: 's-1', slowMs: 200 })] })).toEqual({ batchItemFailures: [] });
    expect(t.effects).toEqual(['s-1']);
    expect(t.decisions.map((d) => (d.kind === 'ack' ? `ack:${d.replayed}` : d.reason))).toEqual(['in_progress', 'ack:false', 'ack:true']);
  });
});

describe('SQS poller through the real SDK client (fake SQS server)', () => {
  let sqs: FakeSqs;
  let client: SQSClient;
  beforeAll(async () => {
    sqs = await startFakeSqs();
    client = new SQSClient({ region: 'eu-west-1', endpoint: sqs.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
  });
  afterAll(async () => {
    client?.destroy();
    await sqs?.close();
  });

  const send = (queueUrl: string, id: string | undefined, body: Body) =>
    client.send(new SendMessageCommand({
      QueueUrl: queueUrl, MessageBody: JSON.stringify(body),
      ...(id === undefined ? {} : { MessageAttributes: { 'message-id': { DataType: 'String', StringValue: id } } }),
    }));

  it('a message sent twice has its effect once; both are deleted; transient failures come back via ChangeMessageVisibility', async () => {
    const t = harness();
    const queueUrl = sqs.createQueue('orders', { visibilityMs: 30_000 });
    await send(queueUrl, 'o-1', { id: 'o-1' });
    await send(queueUrl, 'o-1', { id: 'o-1' });
    await send(queueUrl, 'f-1', { id: 'f-1', flaky: true });
    const poller = await startSqsPoller({
      client, queueUrl, idempotency: t.idempotency, handler: t.handler, onDecision: t.onDecision, waitTimeSeconds: 1, transientDelayMs: 100, concurrency: 1,
      commands: { ReceiveMessageCommand, DeleteMessageCommand, ChangeMessageVisibilityCommand },
    });
    await until('the queue is empty', () => sqs.depth('orders') === 0, 10_000);
    await poller.stop();
    expect(t.effects.sort()).toEqual(['f-1', 'o-1']);
    expect(t.decisions.filter((d) => d.kind === 'ack' && d.replayed).length).toBe(1);
    expect(sqs.calls.ChangeMessageVisibility).toBe(1); // the flaky one, back after 1 s instead of 30 s
    expect(sqs.calls.DeleteMessage).toBe(3);
  });

  it('a poison message is left for the redrive policy (loading the SDK commands itself), reaches the DLQ, and the handler ran once', async () => {
    const t = harness();
    let runs = 0;
    const dlqUrl = sqs.createQueue('orders-dlq');
    const queueUrl = sqs.createQueue('poison', { visibilityMs: 100, redrive: { dlq: 'orders-dlq', maxReceiveCount: 3 } });
    await send(queueUrl, 'p-1', { id: 'p-1', poison: true });
    const poller = await startSqsPoller({
      client, queueUrl, idempotency: t.idempotency, waitTimeSeconds: 1, onDecision: t.onDecision,
      handler: (r) => (runs++, t.handler(r)),
    });
    await until('the message is in the DLQ', () => sqs.depth('orders-dlq') === 1, 10_000);
    await poller.stop();
    expect(dlqUrl).toMatch(/orders-dlq$/);
    expect(sqs.bodies('orders-dlq')).toEqual([JSON.stringify({ id: 'p-1', poison: true })]);
    expect(runs).toBe(1);
    expect(t.decisions.map((d) => d.kind === 'dead-letter' && d.reason)).toEqual(['permanent_failure', 'replayed_failure', 'replayed_failure']);
  });
});
