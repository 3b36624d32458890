/** Engine options, their defaults, and their one-time validation at creation. */
import { InvalidOptionsError } from './errors.js';
import { identityCodec, type ResponseCodec } from './codec.js';
import { MAX_KEY_LENGTH } from './key.js';
import { silentLogger, type Logger } from './logger.js';
import { noopMetrics, type MetricsSink } from './metrics.js';
import type { IdempotencyStore } from './store-contract.js';

export type ErrorClassifier = (error: unknown) => 'permanent' | 'transient';

export interface IdempotencyOptions {
  readonly store: IdempotencyStore;
  /**
   * How long a claim is held without a heartbeat. Choose the action's p99 duration plus a buffer:
   * too short and a slow worker is taken for dead; too long and a crashed one blocks retries.
   * The heartbeat extends it every leaseMs/3 while the action runs. Default 30 s.
   */
  readonly leaseMs?: number;
  /** How long a finished request is remembered and replayed. Default 24 h (Stripe's window). */
  readonly ttlMs?: number;
  /** Keys longer than this are rejected; at most 255. */
  readonly maxKeyLength?: number;
  /** An expired record is never replayed: `new` runs the request again, `reject` refuses it. */
  readonly onExpired?: 'new' | 'reject';
  /**
   * Which errors are permanent (stored as FAILED and replayed) rather than transient (lease
   * released, retry runs again). Anything unclassified is transient.
   */
  readonly isPermanent?: (error: unknown) => boolean;
  /** Keep extending the lease while the action runs. Default true. */
  readonly heartbeat?: boolean;
  /** How often a store write after the action is retried before giving up. Default 3. */
  readonly finishAttempts?: number;
  readonly metrics?: MetricsSink;
  readonly logger?: Logger;
  readonly codec?: ResponseCodec;
}

export interface ResolvedOptions {
  readonly store: IdempotencyStore;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly maxKeyLength: number;
  readonly onExpired: 'new' | 'reject';
  readonly classify: ErrorClassifier;
  readonly heartbeat: boolean;
  readonly finishAttempts: number;
  readonly metrics: MetricsSink;
  readonly logger: Logger;
  readonly codec: ResponseCodec;
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;

export function positiveInteger(field: string, value: unknown, { min = 1 }: { min?: number } = {}): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new InvalidOptionsError(`Option "${field}" must be an integer >= ${min}; got ${String(value)}.`);
  }
  return value;
}

function hasMethods(field: string, value: unknown, methods: readonly string[]): void {
  for (const method of methods) {
    if (typeof (value as Record<string, unknown> | null)?.[method] !== 'function') {
      throw new InvalidOptionsError(`Option "${field}" must have a ${method}() method.`);
    }
  }
}

const STORE_METHODS = ['claim', 'complete', 'fail', 'release', 'extend', 'get'] as const;

export function resolveOptions(options: IdempotencyOptions): ResolvedOptions {
  if (options === null || typeof options !== 'object') {
    throw new InvalidOptionsError('createIdempotency() needs an options object with a store.');
  }
  hasMethods('store', options.store, STORE_METHODS);
  const leaseMs = positiveInteger('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS, { min: 10 });
  const ttlMs = positiveInteger('ttlMs', options.ttlMs ?? DEFAULT_TTL_MS);
  if (ttlMs < leaseMs) {
    throw new InvalidOptionsError(`Option "ttlMs" (${ttlMs}) must be at least "leaseMs" (${leaseMs}).`);
  }
  const maxKeyLength = positiveInteger('maxKeyLength', options.maxKeyLength ?? MAX_KEY_LENGTH);
  if (maxKeyLength > MAX_KEY_LENGTH) {
    throw new InvalidOptionsError(`Option "maxKeyLength" must be at most ${MAX_KEY_LENGTH}.`);
  }
  const onExpired = options.onExpired ?? 'new';
  if (onExpired !== 'new' && onExpired !== 'reject') {
    throw new InvalidOptionsError(`Option "onExpired" must be "new" or "reject"; got ${String(onExpired)}.`);
  }
  if (options.isPermanent !== undefined && typeof options.isPermanent !== 'function') {
    throw new InvalidOptionsError('Option "isPermanent" must be a function (error) => boolean.');
  }
  const isPermanent = options.isPermanent;
  if (options.metrics !== undefined) hasMethods('metrics', options.metrics, ['increment', 'observe', 'gauge']);
  if (options.logger !== undefined) hasMethods('logger', options.logger, ['debug', 'info', 'warn', 'error']);
  if (options.codec !== undefined) hasMethods('codec', options.codec, ['encode', 'decode']);
  return {
    store: options.store,
    leaseMs,
    ttlMs,
    maxKeyLength,
    onExpired,
    classify: (error) => (isPermanent?.(error) === true ? 'permanent' : 'transient'),
    heartbeat: options.heartbeat ?? true,
    finishAttempts: positiveInteger('finishAttempts', options.finishAttempts ?? 3),
    metrics: options.metrics ?? noopMetrics,
    logger: options.logger ?? silentLogger,
    codec: options.codec ?? identityCodec,
  };
}
