/** Test helper: a NATS connection and a per-test stream + durable pull consumer on the real JetStream server. */
import { AckPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, headers, nanos, type NatsConnection } from '@nats-io/transport-node';

export const NATS_SERVERS = process.env.NATS_URL ?? '127.0.0.1:4222';

export interface TestStream {
  readonly stream: string;
  readonly subject: string;
  readonly durable: string;
  /** Publishes with `Nats-Msg-Id` (when given); answers whether the server dropped it as a duplicate. */
  publish(id: string | undefined, body: object): Promise<boolean>;
  delete(): Promise<void>;
}

export async function openNats(): Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }> {
  const nc = await connect({ servers: NATS_SERVERS });
  return { nc, js: jetstream(nc), jsm: await jetstreamManager(nc) };
}

/** A stream with its own duplicate window, and one durable explicit-ack consumer on it. */
export async function testStream(
  { js, jsm }: { js: JetStreamClient; jsm: JetStreamManager },
  label: string,
  { duplicateWindowMs = 100, ackWaitMs = 5_000, maxDeliver = -1 }: { duplicateWindowMs?: number; ackWaitMs?: number; maxDeliver?: number } = {},
): Promise<TestStream> {
  const stream = `IB_${label.toUpperCase()}_${process.pid}_${Date.now().toString(36)}`;
  const subject = `ib.${stream.toLowerCase()}`;
  const durable = 'worker';
  await jsm.streams.add({ name: stream, subjects: [subject], duplicate_window: nanos(duplicateWindowMs) });
  await jsm.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, ack_wait: nanos(ackWaitMs), max_deliver: maxDeliver });
  return {
    stream,
    subject,
    durable,
    async publish(id, body) {
      const h = headers();
      const ack = await js.publish(subject, JSON.stringify(body), id === undefined ? { headers: h } : { msgID: id });
      return ack.duplicate;
    },
    async delete() {
      await jsm.streams.delete(stream).catch(() => {});
    },
  };
}
