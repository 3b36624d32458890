/**
 * MQTT 5 (mqtt.js 5). MQTT has no nack, no delayed redelivery and no dead-letter queue, so:
 * the PUBACK is held until the outcome is stored (mqtt.js sends it when `handleMessage` calls
 * back); an in-progress duplicate or a transient failure is retried in this process while the
 * PUBACK stays held; a permanent failure is published to `deadLetterTopic`, then acked. If the
 * process dies, the broker resends the unacked message when the same client id reconnects with
 * a persistent session (cleanStart false + sessionExpiryInterval) — QoS 1 only; see docs.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage, type MessageView } from '../shared/process-message.js';
import { topicMatches } from './topic-match.js';

/** The parts of an mqtt.js `IPublishPacket` the consumer reads. */
export interface MqttPacketLike {
  readonly topic: string;
  readonly payload: Uint8Array | string;
  readonly qos: 0 | 1 | 2;
  readonly properties?: {
    readonly correlationData?: Uint8Array;
    readonly userProperties?: Record<string, string | string[]>;
  };
}

/** The parts of an mqtt.js `MqttClient` the consumer uses. */
export interface MqttClientLike<P extends MqttPacketLike = MqttPacketLike> {
  handleMessage: (packet: P, callback: (error?: Error) => void) => void;
  subscribeAsync(topic: string, options: { qos: 0 | 1 | 2 }): Promise<unknown>;
  publish(
    topic: string,
    message: Uint8Array | string,
    options: { qos: 0 | 1 | 2; properties?: { userProperties?: Record<string, string> } },
    callback?: (error?: Error) => void,
  ): unknown;
}

export interface MqttConsumerOptions<P extends MqttPacketLike, T> extends ConsumerOptions<P, T> {
  readonly client: MqttClientLike<P>;
  /** Subscription filter (may be `$share/<group>/...`); also the default scope. */
  readonly topic: string;
  /** Where the producer's id is: the user property `idProperty` (default) or the correlation data. */
  readonly idFrom?: 'user-property' | 'correlation-data';
  /** User property holding the producer's id. Default `message-id`. */
  readonly idProperty?: string;
  /** Failed messages are published here (QoS 1, user properties `reason`, `source-topic`) and then acked. Required. */
  readonly deadLetterTopic: string;
  /** Transient failures retried in-process before the message is dead-lettered. Default 5. */
  readonly maxAttempts?: number;
  /** Subscription QoS. Default 1: with QoS 2 mqtt.js acknowledges (PUBREC) before the handler runs; see docs. */
  readonly qos?: 1 | 2;
}

export interface MqttConsumer {
  /**
   * Stops taking messages. A message still waiting for a retry is left unacked, so the broker
   * resends it to this client id's next session.
   */
  stop(): void;
}

const utf8 = new TextDecoder();
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Subscribes and takes over `client.handleMessage` for packets matching `topic` (others are
 * acked straight away as before).
 * @example
 * const client = await mqtt.connectAsync(url, { clientId: 'billing-1', clean: false, protocolVersion: 5, properties: { sessionExpiryInterval: 3600 } });
 * await startMqttConsumer({ client, topic: 'orders/created', deadLetterTopic: 'dlq/orders', idempotency, handler });
 */
export async function startMqttConsumer<P extends MqttPacketLike, T>(options: MqttConsumerOptions<P, T>): Promise<MqttConsumer> {
  const { client, topic, idFrom = 'user-property', idProperty = 'message-id', deadLetterTopic, maxAttempts = 5, qos = 1 } = options;
  if (typeof client?.publish !== 'function' || typeof client.subscribeAsync !== 'function') {
    throw new InvalidOptionsError('Option "client" must be an mqtt.js 5 client.');
  }
  if (typeof topic !== 'string' || topic === '') throw new InvalidOptionsError('Option "topic" must be a topic filter.');
  if (typeof deadLetterTopic !== 'string' || deadLetterTopic === '' || /[+#]/.test(deadLetterTopic)) {
    throw new InvalidOptionsError('Option "deadLetterTopic" must be a plain topic: MQTT has no dead-letter queue of its own.');
  }
  if (idFrom !== 'user-property' && idFrom !== 'correlation-data') throw new InvalidOptionsError('Option "idFrom" must be "user-property" or "correlation-data".');
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new InvalidOptionsError('Option "maxAttempts" must be an integer >= 1.');
  if (qos !== 1 && qos !== 2) throw new InvalidOptionsError('Option "qos" must be 1 or 2 (QoS 0 is never redelivered).');
  const resolved = resolveConsumerOptions(options, topic);
  const view: MessageView<P> = {
    messageId(packet) {
      if (idFrom === 'correlation-data') {
        const data = packet.properties?.correlationData;
        return data && data.byteLength > 0 ? utf8.decode(data) : undefined;
      }
      const value = packet.properties?.userProperties?.[idProperty];
      return Array.isArray(value) ? value[0] : value;
    },
    payload: (packet) => packet.payload,
    where: idFrom === 'correlation-data' ? 'correlation data' : `user property ${idProperty}`,
  };
  let stopped = false;

  /**
   * Publishes the dead letter, then lets the original be acked — without waiting for the dead
   * letter's own PUBACK: that ack arrives through the very packet stream this handler holds,
   * so awaiting it would deadlock. Safe anyway: both go out in order on one TCP connection, so
   * the broker has the dead letter before it sees the original's PUBACK; if the connection
   * drops first, neither arrived and the original is resent (and replays its failure).
   */
  function deadLetter(packet: P, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>): boolean {
    const id = view.messageId(packet);
    client.publish(
      deadLetterTopic,
      packet.payload,
      { qos: 1, properties: { userProperties: { reason: decision.reason, 'source-topic': packet.topic, ...(id ? { [idProperty]: id } : {}) } } },
      () => {},
    );
    return true;
  }

  /** Resolves true when the packet may be acked (outcome stored or dead-lettered), false to leave it unacked. */
  async function consume(packet: P): Promise<boolean> {
    for (let failures = 0; !stopped; ) {
      let { decision } = await processMessage(resolved, view, packet);
      if (decision.kind === 'requeue' && decision.reason !== 'in_progress' && ++failures >= maxAttempts) {
        decision = { kind: 'dead-letter', reason: 'retries_exhausted', error: decision.error };
      }
      resolved.onDecision(decision, packet);
      if (decision.kind === 'ack') return true;
      if (decision.kind === 'dead-letter') return deadLetter(packet, decision);
      // No nack in MQTT: keep the PUBACK back and try again here.
      await sleep(decision.delayMs);
    }
    return false;
  }

  const previous = client.handleMessage.bind(client);
  client.handleMessage = (packet, callback) => {
    if (stopped || !topicMatches(topic, packet.topic)) return previous(packet, callback);
    consume(packet).then(
      (ack) => (ack ? callback() : undefined), // not acked: the broker resends it to the next session
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  };
  await client.subscribeAsync(topic, { qos });
  return {
    stop() {
      stopped = true;
    },
  };
}
