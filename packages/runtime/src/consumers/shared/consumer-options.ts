/** Options every broker's consumer shares, their defaults, and their one-time validation. */
import type { ActionContext, Idempotency, RunOptions } from '../../core/engine.js';
import { InvalidOptionsError } from '../../core/errors.js';
import { validateScope } from '../../core/key.js';
import type { ConsumeDecision, RequeueDelays } from './decision.js';
import { KEY_SOURCES, type KeySource } from './message-key.js';

/** What the handler gets besides the message: the engine's context plus the derived identity. */
export interface MessageContext extends ActionContext {
  readonly key: string;
  readonly scope: string;
}

export type MessageHandler<M, T> = (message: M, context: MessageContext) => Promise<T> | T;

export interface ConsumerOptions<M, T = unknown> {
  /** The engine (`createIdempotency(...)`); its `isPermanent` decides what is dead-lettered. */
  readonly idempotency: Idempotency;
  /** The side effect. Runs at most once per key while the record lives. */
  readonly handler: MessageHandler<M, T>;
  /** Key namespace. Default: the queue / subject / topic name. A function picks it per message (e.g. a tenant header). */
  readonly scope?: string | ((message: M) => string);
  /** Where the key comes from; see `KeySource`. Default `'message-id'`. */
  readonly keyFrom?: KeySource;
  /** Fingerprint of the significant content. Default: canonical JSON of the body, raw bytes when not JSON. */
  readonly fingerprint?: (message: M) => string;
  /** Bounds of the wait before an in-progress duplicate is redelivered. Defaults 250 and 1000: the first holder usually finishes long before its lease ends, so poll rather than wait the lease out. */
  readonly minRequeueDelayMs?: number;
  readonly maxRequeueDelayMs?: number;
  /** Wait before a transient failure is redelivered. Default 1000. */
  readonly transientDelayMs?: number;
  /** Per-call engine options (lease, retention, serializer). */
  readonly runOptions?: Pick<RunOptions<T>, 'leaseMs' | 'ttlMs' | 'serializer'>;
  /** Called once per delivery with the decision taken, after the broker was told (BullMQ: just before the processor returns). */
  readonly onDecision?: (decision: ConsumeDecision, message: M) => void;
}

export interface ResolvedConsumerOptions<M, T> extends RequeueDelays {
  readonly idempotency: Idempotency;
  readonly handler: MessageHandler<M, T>;
  readonly scopeOf: (message: M) => string;
  readonly keyFrom: KeySource;
  readonly fingerprint: ((message: M) => string) | undefined;
  readonly runOptions: Pick<RunOptions<T>, 'leaseMs' | 'ttlMs' | 'serializer'>;
  readonly onDecision: (decision: ConsumeDecision, message: M) => void;
}

function nonNegativeInteger(field: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new InvalidOptionsError(`Option "${field}" must be an integer >= 0; got ${String(value)}.`);
  return value;
}

/**
 * Validates the shared options once, at creation. `defaultScope` is the queue/subject/topic.
 * @example const resolved = resolveConsumerOptions(options, queue);
 */
export function resolveConsumerOptions<M, T>(options: ConsumerOptions<M, T>, defaultScope: string | undefined): ResolvedConsumerOptions<M, T> {
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('A consumer needs an options object.');
  const { idempotency, handler, scope = defaultScope, keyFrom = 'message-id', fingerprint, runOptions = {}, onDecision = () => {} } = options;
  if (typeof idempotency?.run !== 'function' || typeof idempotency.options?.classify !== 'function') {
    throw new InvalidOptionsError('Option "idempotency" must be an engine from createIdempotency().');
  }
  if (typeof handler !== 'function') throw new InvalidOptionsError('Option "handler" must be a function (message, context) => result.');
  if (!KEY_SOURCES.includes(keyFrom)) throw new InvalidOptionsError(`Option "keyFrom" must be one of ${KEY_SOURCES.join(', ')}; got ${String(keyFrom)}.`);
  if (fingerprint !== undefined && typeof fingerprint !== 'function') throw new InvalidOptionsError('Option "fingerprint" must be a function (message) => sha256 hex.');
  if (typeof onDecision !== 'function') throw new InvalidOptionsError('Option "onDecision" must be a function.');
  let scopeOf: (message: M) => string;
  if (typeof scope === 'function') scopeOf = scope;
  else if (typeof scope === 'string') {
    try {
      validateScope(scope);
    } catch (error) {
      throw new InvalidOptionsError(`Option "scope" is not a valid scope: ${(error as Error).message}`);
    }
    scopeOf = () => scope;
  } else throw new InvalidOptionsError('Option "scope" is required here (a string or (message) => string).');
  const minRequeueDelayMs = nonNegativeInteger('minRequeueDelayMs', options.minRequeueDelayMs ?? 250);
  const maxRequeueDelayMs = nonNegativeInteger('maxRequeueDelayMs', options.maxRequeueDelayMs ?? 1_000);
  if (maxRequeueDelayMs < minRequeueDelayMs) throw new InvalidOptionsError('Option "maxRequeueDelayMs" must be >= "minRequeueDelayMs".');
  const transientDelayMs = nonNegativeInteger('transientDelayMs', options.transientDelayMs ?? 1_000);
  const observe = (decision: ConsumeDecision, message: M) => {
    try {
      onDecision(decision, message);
    } catch {
      // An observer's bug must not change what happens to the message, nor crash the consumer.
    }
  };
  return { idempotency, handler, scopeOf, keyFrom, fingerprint, runOptions, onDecision: observe, minRequeueDelayMs, maxRequeueDelayMs, transientDelayMs };
}
