/** Test worker: one JetStream consumer process (flood and SIGKILL tests); reports over IPC. */
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { startJetStreamConsumer } from '../../../src/consumers/jetstream/index.js';
import { openEffects } from '../support/effects.js';
import { createTestEngine } from '../support/engine.js';

const config = JSON.parse(process.argv[2]!) as {
  servers: string; stream: string; durable: string; storeFile: string; effectsFile: string; leaseMs: number; concurrency: number; hang: boolean;
};
const send = (message: object) => process.send?.(message);

const effects = openEffects(config.effectsFile);
const { idempotency, close } = createTestEngine(config.storeFile, config.leaseMs);
const nc = await connect({ servers: config.servers });
const consumer = await jetstream(nc).consumers.get(config.stream, config.durable);
const tally = { ack: 0, replayed: 0, requeue: 0, deadLetter: 0 };
const running = await startJetStreamConsumer({
  consumer,
  idempotency,
  concurrency: config.concurrency,
  minRequeueDelayMs: 50,
  handler: async (message) => {
    const body = JSON.parse(new TextDecoder().decode(message.data)) as { id: string };
    send({ type: 'started', id: body.id });
    if (config.hang) await new Promise(() => {}); // the parent SIGKILLs us here, mid-message
    effects.record(body.id);
  },
  onDecision: (decision) => {
    if (decision.kind === 'ack') tally[decision.replayed ? 'replayed' : 'ack']++;
    else if (decision.kind === 'requeue') tally.requeue++;
    else tally.deadLetter++;
  },
});
const ticker = setInterval(() => send({ type: 'tally', tally }), 100);
process.on('message', async (message: { type: string }) => {
  if (message.type !== 'stop') return;
  clearInterval(ticker);
  await running.stop();
  await nc.drain();
  await close();
  effects.close();
  send({ type: 'stopped', tally });
  process.exit(0);
});
send({ type: 'ready' });
