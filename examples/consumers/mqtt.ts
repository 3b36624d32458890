/**
 * Idempotent MQTT 5 consumer: the producer's id travels as the user property `message-id`; the
 * PUBACK is held until the outcome is stored; a poison message is published to a dead-letter
 * topic. Needs Mosquitto (MQTT 5) on 127.0.0.1:1883.
 * Run: npx tsx examples/consumers/mqtt.ts
 */
import mqtt from 'mqtt';
import { createIdempotency } from '@idempotency-builder/runtime';
import { createMemoryStore } from '@idempotency-builder/runtime/memory';
import { startMqttConsumer } from '@idempotency-builder/runtime/consumers/mqtt';

class BadReadingError extends Error {}

const url = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const topic = `example/${process.pid}/meter-readings`;
// A persistent session (fixed client id, cleanStart false) is what makes the broker resend an unacked message after a crash.
const client = mqtt.connect(url, { clientId: `billing-${process.pid}`, clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 60 }, manualConnect: true });
const idempotency = createIdempotency({ store: createMemoryStore(), isPermanent: (error) => error instanceof BadReadingError });
let billed = 0;
// Installed before connecting, so a message resent right after CONNACK is already ours.
const started = startMqttConsumer({
  client,
  topic,
  deadLetterTopic: `${topic}/dlq`,
  idempotency,
  handler: (packet) => {
    const reading = JSON.parse(packet.payload.toString()) as { kwh: number };
    if (reading.kwh < 0) throw new BadReadingError('negative reading');
    billed++;
  },
  onDecision: (decision) => console.log(decision.kind, decision.kind === 'ack' ? `replayed=${decision.replayed}` : decision.reason),
});
client.connect();
await started;

const publisher = await mqtt.connectAsync(url, { protocolVersion: 5 });
await publisher.subscribeAsync(`${topic}/dlq`, { qos: 1 });
publisher.on('message', (_t, payload, packet) => console.log('dead letter:', payload.toString(), packet.properties?.userProperties));
const send = (id: string, body: object) => publisher.publishAsync(topic, JSON.stringify(body), { qos: 1, properties: { userProperties: { 'message-id': id } } });
await send('r-1', { kwh: 12 });
await send('r-1', { kwh: 12 }); // a retried publish
await send('r-2', { kwh: -1 }); // poison
await new Promise((resolve) => setTimeout(resolve, 800));

console.log(`billed ${billed} time(s)`);
await publisher.endAsync();
await client.endAsync();
