/**
 * RabbitMQ (amqplib): ack only after the outcome is stored; in-progress duplicates and transient
 * failures are held for a delay and then nacked with requeue; permanent failures are rejected
 * without requeue, which the queue's `x-dead-letter-exchange` routes to the dead-letter queue.
 */
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage, type MessageView } from '../shared/process-message.js';
import { InvalidOptionsError } from '../../core/errors.js';

/** The parts of an amqplib `ConsumeMessage` the consumer reads. */
export interface RabbitMessageLike {
  readonly content: Uint8Array;
  readonly fields: { readonly deliveryTag: number; readonly redelivered: boolean };
  readonly properties: { readonly messageId?: unknown; readonly headers?: Record<string, unknown> };
}

/** The parts of an amqplib `Channel` the consumer calls. */
export interface RabbitChannelLike<M extends RabbitMessageLike = RabbitMessageLike> {
  consume(queue: string, onMessage: (message: M | null) => void, options?: { noAck?: boolean; consumerTag?: string }): Promise<{ consumerTag: string }>;
  cancel(consumerTag: string): Promise<unknown>;
  ack(message: M, allUpTo?: boolean): void;
  nack(message: M, allUpTo?: boolean, requeue?: boolean): void;
}

export interface RabbitConsumerOptions<M extends RabbitMessageLike, T> extends ConsumerOptions<M, T> {
  readonly channel: RabbitChannelLike<M>;
  /** The queue to consume; also the default scope. */
  readonly queue: string;
  readonly consumerTag?: string;
  /**
   * Dead-letter path. Default: `nack(message, false, false)`, which the broker routes to the
   * queue's `x-dead-letter-exchange` — declare one, or RabbitMQ DISCARDS rejected messages.
   * A function instead publishes it yourself (e.g. on a confirm channel); the message is acked
   * once the returned promise resolves, and requeued if it rejects.
   */
  readonly deadLetter?: (message: M, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>;
}

export interface RabbitConsumer {
  readonly consumerTag: string;
  /** Cancels the consumer, requeues held messages at once, and waits for in-flight handlers. */
  stop(): Promise<void>;
}

const view: MessageView<RabbitMessageLike> = {
  messageId: (message) => (typeof message.properties.messageId === 'string' ? message.properties.messageId : undefined),
  payload: (message) => message.content,
  where: 'properties.messageId',
};

/**
 * A per-message function that runs the handler through the engine and then settles the message
 * on `channel` (ack / delayed nack-requeue / reject to the DLX). Use it inside your own
 * `channel.consume` callback; `startRabbitConsumer` does that for you.
 * @example
 * const handle = createRabbitHandler({ channel, queue: 'orders', idempotency, handler: (msg) => ship(JSON.parse(msg.content.toString())) });
 * await channel.consume('orders', (msg) => msg && void handle(msg));
 */
export function createRabbitHandler<M extends RabbitMessageLike, T>(options: RabbitConsumerOptions<M, T>) {
  const { channel, queue, deadLetter } = options;
  if (typeof channel?.ack !== 'function' || typeof channel.nack !== 'function') {
    throw new InvalidOptionsError('Option "channel" must be an amqplib Channel (ack, nack, consume, cancel).');
  }
  if (typeof queue !== 'string' || queue === '') throw new InvalidOptionsError('Option "queue" must be a queue name.');
  if (deadLetter !== undefined && typeof deadLetter !== 'function') throw new InvalidOptionsError('Option "deadLetter" must be a function.');
  const resolved = resolveConsumerOptions(options, queue);
  const held = new Map<ReturnType<typeof setTimeout>, M>();
  // After a channel closes the broker requeues every unacked message by itself; a late ack
  // or nack then throws, and there is nothing left to do about it.
  const settle = (call: () => void) => {
    try {
      call();
    } catch {
      /* channel closed: the broker already requeued the message */
    }
  };
  const requeueLater = (message: M, delayMs: number) => {
    // amqplib has no delayed nack: hold the (unacked) message, then requeue it. If this process
    // dies meanwhile, the broker redelivers it anyway.
    const timer = setTimeout(() => {
      held.delete(timer);
      settle(() => channel.nack(message, false, true));
    }, delayMs);
    held.set(timer, message);
  };

  async function handle(message: M): Promise<ConsumeDecision> {
    const { decision } = await processMessage(resolved, view as MessageView<M>, message);
    if (decision.kind === 'ack') settle(() => channel.ack(message));
    else if (decision.kind === 'requeue') requeueLater(message, decision.delayMs);
    else if (deadLetter) {
      try {
        await deadLetter(message, decision);
        settle(() => channel.ack(message));
      } catch {
        requeueLater(message, resolved.transientDelayMs);
      }
    } else settle(() => channel.nack(message, false, false));
    resolved.onDecision(decision, message);
    return decision;
  }

  /** Requeues every held message now (used on shutdown). */
  function releaseHeld(): void {
    for (const [timer, message] of held) {
      clearTimeout(timer);
      settle(() => channel.nack(message, false, true));
    }
    held.clear();
  }

  return Object.assign(handle, { releaseHeld });
}

/**
 * Consumes `queue` with manual acks. Set `channel.prefetch(n)` first to bound in-flight messages.
 * @example
 * await channel.assertQueue('orders', { arguments: { 'x-dead-letter-exchange': 'orders.dlx' } });
 * await channel.prefetch(16);
 * const consumer = await startRabbitConsumer({ channel, queue: 'orders', idempotency, handler });
 * process.on('SIGTERM', () => void consumer.stop());
 */
export async function startRabbitConsumer<M extends RabbitMessageLike, T>(options: RabbitConsumerOptions<M, T>): Promise<RabbitConsumer> {
  const handle = createRabbitHandler(options);
  const inFlight = new Set<Promise<unknown>>();
  const { consumerTag } = await options.channel.consume(
    options.queue,
    (message) => {
      if (message === null) return; // the broker cancelled the consumer (queue deleted)
      const task = handle(message).finally(() => inFlight.delete(task));
      inFlight.add(task);
    },
    { noAck: false, ...(options.consumerTag ? { consumerTag: options.consumerTag } : {}) },
  );
  return {
    consumerTag,
    async stop() {
      await options.channel.cancel(consumerTag).catch(() => {});
      await Promise.allSettled([...inFlight]);
      handle.releaseHeld();
    },
  };
}
