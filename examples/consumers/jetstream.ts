/**
 * Idempotent NATS JetStream consumer keyed by `Nats-Msg-Id`. JetStream drops a re-publish inside
 * the stream's duplicate window; the consumer catches the ones after it (and redeliveries).
 * Needs nats-server with JetStream on 127.0.0.1:4222.
 * Run: npx tsx examples/consumers/jetstream.ts
 */
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, nanos } from '@nats-io/transport-node';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { startJetStreamConsumer } from '@idempotency-builder/runtime/consumers/jetstream';

const nc = await connect({ servers: process.env.NATS_URL ?? '127.0.0.1:4222' });
const jsm = await jetstreamManager(nc);
const js = jetstream(nc);
const stream = `EXAMPLE_ORDERS_${process.pid}`;
await jsm.streams.add({ name: stream, subjects: [`example.orders.${process.pid}`], duplicate_window: nanos(100) });
await jsm.consumers.add(stream, { durable_name: 'shipper', ack_policy: AckPolicy.Explicit, ack_wait: nanos(30_000) });

const idempotency = createIdempotency({ store: createMemoryStore() });
let shipped = 0;
const running = await startJetStreamConsumer({
  consumer: await js.consumers.get(stream, 'shipper'),
  idempotency,
  handler: () => void shipped++,
  onDecision: (decision, msg) => console.log(msg.headers?.get('Nats-Msg-Id'), decision.kind, decision.kind === 'ack' ? `replayed=${decision.replayed}` : decision.reason),
});

const subject = `example.orders.${process.pid}`;
console.log('first publish duplicate?', (await js.publish(subject, '{"id":"o-1"}', { msgID: 'o-1' })).duplicate);
console.log('inside the window duplicate?', (await js.publish(subject, '{"id":"o-1"}', { msgID: 'o-1' })).duplicate);
await new Promise((resolve) => setTimeout(resolve, 200));
console.log('after the window duplicate?', (await js.publish(subject, '{"id":"o-1"}', { msgID: 'o-1' })).duplicate);
await new Promise((resolve) => setTimeout(resolve, 500));

console.log(`shipped ${shipped} time(s)`);
await running.stop();
await jsm.streams.delete(stream);
await nc.close();
