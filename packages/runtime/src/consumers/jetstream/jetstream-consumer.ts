/**
 * NATS JetStream (@nats-io/jetstream 3): the key is the producer's `Nats-Msg-Id` header (the
 * same id JetStream itself dedupes on inside the stream's duplicate window); ack after the
 * outcome is stored, `nak(delay)` to redeliver later, `term()` to dead-letter (the server then
 * publishes a MSG_TERMINATED advisory).
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage, type MessageView } from '../shared/process-message.js';

/** The parts of a `JsMsg` the consumer uses. */
export interface JetStreamMessageLike {
  readonly data: Uint8Array;
  readonly subject: string;
  readonly headers?: { get(name: string): string } | undefined;
  readonly info: { readonly stream: string; readonly deliveryCount: number };
  ack(): void;
  nak(millis?: number): void;
  term(reason?: string): void;
  working(): void;
}

/** A `ConsumerMessages` iterator from `consumer.consume()`. */
export interface JetStreamMessagesLike<M> extends AsyncIterable<M> {
  close(): Promise<void | Error>;
}

/** A pull consumer from `js.consumers.get(stream, durable)`. */
export interface JetStreamConsumerLike<M> {
  consume(options?: { max_messages?: number }): Promise<JetStreamMessagesLike<M>>;
}

export const NATS_MSG_ID = 'Nats-Msg-Id';

export interface JetStreamHandlerOptions<M extends JetStreamMessageLike, T> extends Omit<ConsumerOptions<M, T>, 'scope'> {
  /** Default: the stream name, the same namespace JetStream's own `Nats-Msg-Id` dedupe uses. */
  readonly scope?: ConsumerOptions<M, T>['scope'];
  /** Header carrying the producer id. Default `Nats-Msg-Id`. */
  readonly idHeader?: string;
  /**
   * While the handler runs, `working()` is sent this often so the server does not redeliver a
   * slow message after `ack_wait`. Keep it below the consumer's ack_wait. Default 10 000; 0 = off.
   */
  readonly workingIntervalMs?: number;
  /**
   * Called before `term()` for a dead-lettered message, e.g. to publish it to a DLQ stream
   * subject. If it rejects, the message is nak'ed and comes back. Default: term only (the
   * MSG_TERMINATED advisory carries stream and sequence; the message stays in a Limits stream).
   */
  readonly deadLetter?: (message: M, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>;
  /**
   * Send the dead-letter reason with `term(reason)`. Needs nats-server >= 2.10.4: older servers
   * (2.9.10 was checked) do not parse `+TERM <reason>`, leave the message pending and redeliver
   * it after ack_wait. Default false: plain `term()`, which every 2.x server honours.
   */
  readonly termWithReason?: boolean;
}

/**
 * A per-message function: runs the handler through the engine, then ack / nak(delay) / term.
 * @example
 * const handle = createJetStreamHandler({ idempotency, handler: (msg) => ship(msg.json()) });
 * for await (const msg of await consumer.consume()) await handle(msg);
 */
export function createJetStreamHandler<M extends JetStreamMessageLike, T>(options: JetStreamHandlerOptions<M, T>) {
  const { idHeader = NATS_MSG_ID, workingIntervalMs = 10_000, deadLetter, termWithReason = false } = options;
  if (typeof idHeader !== 'string' || idHeader === '') throw new InvalidOptionsError('Option "idHeader" must be a header name.');
  if (!Number.isInteger(workingIntervalMs) || workingIntervalMs < 0) throw new InvalidOptionsError('Option "workingIntervalMs" must be an integer >= 0.');
  if (deadLetter !== undefined && typeof deadLetter !== 'function') throw new InvalidOptionsError('Option "deadLetter" must be a function.');
  const resolved = resolveConsumerOptions<M, T>({ ...options, scope: options.scope ?? ((message: M) => message.info.stream) }, undefined);
  const view: MessageView<M> = {
    messageId: (message) => message.headers?.get(idHeader) || undefined,
    payload: (message) => message.data,
    where: `header ${idHeader}`,
  };

  return async function handle(message: M): Promise<ConsumeDecision> {
    const ticker = workingIntervalMs > 0 ? setInterval(() => message.working(), workingIntervalMs) : undefined;
    let processed;
    try {
      processed = await processMessage(resolved, view, message);
    } finally {
      clearInterval(ticker);
    }
    const { decision } = processed;
    // On a closed connection these throw; the server redelivers after ack_wait anyway.
    const settle = (call: () => void) => {
      try {
        call();
      } catch {
        /* connection gone: redelivered after ack_wait */
      }
    };
    if (decision.kind === 'ack') settle(() => message.ack());
    else if (decision.kind === 'requeue') settle(() => message.nak(decision.delayMs));
    else {
      const dead = await Promise.resolve()
        .then(() => deadLetter?.(message, decision))
        .then(() => true, () => false);
      if (!dead) settle(() => message.nak(resolved.transientDelayMs));
      else if (termWithReason) settle(() => message.term(decision.reason));
      else settle(() => message.term());
    }
    resolved.onDecision(decision, message);
    return decision;
  };
}

export interface JetStreamConsumerOptions<M extends JetStreamMessageLike, T> extends JetStreamHandlerOptions<M, T> {
  readonly consumer: JetStreamConsumerLike<M>;
  /** Messages handled at once. Default 1 (keeps the stream's order). */
  readonly concurrency?: number;
}

export interface RunningJetStreamConsumer {
  /** Stops pulling, waits for in-flight handlers; unacked messages are redelivered after ack_wait. */
  stop(): Promise<void>;
  /** Settles when the consume loop ends (after stop(), or with the iterator's error). */
  readonly done: Promise<void>;
}

/**
 * Pulls from a durable consumer and handles each message through `createJetStreamHandler`.
 * @example
 * const consumer = await jetstream(nc).consumers.get('ORDERS', 'shipper');
 * const running = await startJetStreamConsumer({ consumer, idempotency, handler, concurrency: 4 });
 */
export async function startJetStreamConsumer<M extends JetStreamMessageLike, T>(options: JetStreamConsumerOptions<M, T>): Promise<RunningJetStreamConsumer> {
  const { consumer, concurrency = 1 } = options;
  if (typeof consumer?.consume !== 'function') throw new InvalidOptionsError('Option "consumer" must be a JetStream pull consumer.');
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InvalidOptionsError('Option "concurrency" must be an integer >= 1.');
  const handle = createJetStreamHandler(options);
  const messages = await consumer.consume({ max_messages: Math.max(concurrency * 2, 10) });
  const inFlight = new Set<Promise<unknown>>();
  const done = (async () => {
    for await (const message of messages) {
      const task = handle(message).finally(() => inFlight.delete(task));
      inFlight.add(task);
      if (inFlight.size >= concurrency) await Promise.race(inFlight);
    }
    await Promise.allSettled([...inFlight]);
  })();
  return {
    done,
    async stop() {
      await messages.close();
      await done.catch(() => {});
    },
  };
}
