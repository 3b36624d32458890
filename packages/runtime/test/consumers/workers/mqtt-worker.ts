/** Test worker: an MQTT subscriber with a persistent session that hangs mid-message (SIGKILL test). */
import mqtt from 'mqtt';
import { startMqttConsumer } from '../../../src/consumers/mqtt/index.js';
import { createTestEngine } from '../support/engine.js';

const config = JSON.parse(process.argv[2]!) as { url: string; clientId: string; topic: string; storeFile: string; leaseMs: number };
const send = (message: object) => process.send?.(message);

const { idempotency } = createTestEngine(config.storeFile, config.leaseMs);
const client = await mqtt.connectAsync(config.url, {
  clientId: config.clientId, clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 300 }, reconnectPeriod: 0,
});
await startMqttConsumer({
  client,
  topic: config.topic,
  deadLetterTopic: `${config.topic}/dlq`,
  idempotency,
  handler: async (packet) => {
    send({ type: 'started', id: packet.properties?.userProperties?.['message-id'] });
    await new Promise(() => {}); // the parent SIGKILLs us here; the PUBACK was never sent
  },
});
send({ type: 'ready' });
