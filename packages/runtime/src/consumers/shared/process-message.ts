/**
 * One delivery through the engine: derive key, scope and fingerprint, `run()` the handler, and
 * turn what happened into a `ConsumeDecision`. Brokers only translate the decision into their
 * own ack / nack / term calls.
 */
import type { ActionContext } from '../../core/engine.js';
import { HeldActionContext } from '../../core/action-context.js';
import { decideOutcome, type ConsumeDecision, type MessageOutcome } from './decision.js';
import type { MessageContext, ResolvedConsumerOptions } from './consumer-options.js';
import { messageKey, payloadFingerprint } from './message-key.js';

/** How a broker exposes one message to the shared core. */
export interface MessageView<M> {
  /** The producer's message id, if any (never a delivery tag, offset or receipt handle). */
  messageId(message: M): string | undefined;
  /** The body, for the payload-derived key and the default fingerprint. */
  payload(message: M): Uint8Array | string;
  /** Where the id is read from, for the error message (e.g. `header Nats-Msg-Id`). */
  readonly where: string;
}

export interface ProcessedMessage<T> {
  readonly decision: ConsumeDecision;
  /** The handler's result (or the replayed one) when acknowledged. */
  readonly value?: T;
  /** The key used, when one could be derived. */
  readonly key?: string;
}

/** The engine's context plus the message's key and scope (a class: see core/action-context.ts). */
class MessageActionContext extends HeldActionContext implements MessageContext {
  constructor(
    engine: ActionContext,
    readonly key: string,
    readonly scope: string,
  ) {
    super(engine);
  }
}

const contextOf = (engine: ActionContext, key: string, scope: string): MessageContext => new MessageActionContext(engine, key, scope);

/**
 * Runs one message and answers what the broker must do with it. Never throws.
 * @example
 * const { decision } = await processMessage(resolved, rabbitView, message);
 * if (decision.kind === 'ack') channel.ack(message);
 */
export async function processMessage<M, T>(
  options: ResolvedConsumerOptions<M, T>,
  view: MessageView<M>,
  message: M,
): Promise<ProcessedMessage<T>> {
  const { idempotency, handler, runOptions } = options;
  const decide = (outcome: MessageOutcome) => decideOutcome(outcome, idempotency.options.classify, options);
  let key: string;
  let scope: string;
  let fingerprint: string;
  try {
    const payload = view.payload(message);
    key = messageKey({ messageId: view.messageId(message), payload, keyFrom: options.keyFrom, where: view.where });
    scope = options.scopeOf(message);
    fingerprint = options.fingerprint ? options.fingerprint(message) : payloadFingerprint(payload);
  } catch (error) {
    return { decision: decide({ ok: false, error, fromHandler: false, leaseLost: false }) };
  }
  // The engine rethrows the handler's own error after storing or releasing; remembering which
  // error object the handler threw tells it apart from the engine's and the store's errors.
  let thrown: { error: unknown; leaseLost: boolean } | undefined;
  try {
    const { value, replayed } = await idempotency.run<T>(
      { key, scope, fingerprint },
      async (engine) => {
        try {
          return await handler(message, contextOf(engine, key, scope));
        } catch (error) {
          thrown = { error, leaseLost: engine.signal.aborted };
          throw error;
        }
      },
      runOptions,
    );
    return { decision: decide({ ok: true, replayed }), value, key };
  } catch (error) {
    const fromHandler = thrown !== undefined && thrown.error === error;
    return { decision: decide({ ok: false, error, fromHandler, leaseLost: fromHandler && thrown!.leaseLost }), key };
  }
}
