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
  /**
   * How often the completion write after the action is tried before giving up. Default: until the
   * claim's lease would end (at least 3 tries, backing off up to 1 s): the record is this holder's
   * until then, so a store that comes back within the lease still records the result and a retry
   * replays it instead of running the action again. A number caps the tries (faster failure).
   */
  readonly finishAttempts?: number;
  /**
   * Every store call is abandoned after this long (a claim then answers `store_unavailable`; an
   * extension counts as failed, and a lease with no successful extension for leaseMs aborts the
   * action's signal). Default 5000.
   */
  readonly storeTimeoutMs?: number;
  /**
   * Longest an action may run; past it the signal aborts with `ExecutionTimeoutError`, `run()`
   * rejects with it, and the claim is released once the action settles (or lapses with its
   * lease if it never does). Overridable per call. Default: no limit.
   */
  readonly maxExecutionMs?: number;
  /**
   * Duplicates of a key this engine already holds (or is claiming) are answered here, from the
   * local holder, without a store call. Default true.
   */
  readonly singleFlight?: boolean;
  /** Store claims in flight at once from this engine; further claims queue. Default 64. */
  readonly maxInFlightClaims?: number;
  /** Claims allowed to wait for a slot; past it a claim is shed with `StoreBusyError`. Default 10000. */
  readonly maxQueuedClaims?: number;
  /**
   * `false` turns the engine into a pass-through for tests: nothing is claimed, stored or
   * replayed, every call runs its work, and the HTTP layer lets every request through (no key
   * required). It disables protection entirely and must never reach production; creation logs a
   * warning and emits a process warning. Default true.
   */
  readonly enabled?: boolean;
  /**
   * An in-process cache of COMPLETED records in front of the store (see replay-cache.ts): a
   * replay of a key this process has seen finished is answered without a store round trip.
   * `true` takes the defaults. Default: off.
   */
  readonly replayCache?: boolean | ReplayCacheOptions;
  readonly metrics?: MetricsSink;
  readonly logger?: Logger;
  readonly codec?: ResponseCodec;
}

export interface ReplayCacheOptions {
  /** Most records kept; the least recently used is dropped past it. Default 10 000. */
  readonly maxEntries?: number;
  /**
   * How long a record is served from the cache, capped by the record's own expiry. A record
   * purged or force-released in the store may still be replayed from here until then, so keep it
   * short. Default 5000.
   */
  readonly ttlMs?: number;
}

export interface ResolvedOptions {
  readonly store: IdempotencyStore;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly maxKeyLength: number;
  readonly onExpired: 'new' | 'reject';
  readonly classify: ErrorClassifier;
  readonly heartbeat: boolean;
  /** null: until the lease would end (at least MIN_FINISH_ATTEMPTS tries). */
  readonly finishAttempts: number | null;
  readonly storeTimeoutMs: number;
  /** null: no limit. */
  readonly maxExecutionMs: number | null;
  readonly singleFlight: boolean;
  readonly maxInFlightClaims: number;
  readonly maxQueuedClaims: number;
  readonly enabled: boolean;
  /** null: no replay cache. */
  readonly replayCache: { readonly maxEntries: number; readonly ttlMs: number } | null;
  readonly metrics: MetricsSink;
  readonly logger: Logger;
  readonly codec: ResponseCodec;
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_STORE_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_IN_FLIGHT_CLAIMS = 64;
export const DEFAULT_MAX_QUEUED_CLAIMS = 10_000;
export const DEFAULT_REPLAY_CACHE_ENTRIES = 10_000;
export const DEFAULT_REPLAY_CACHE_TTL_MS = 5_000;
/** The shortest lease the engine accepts: below it a heartbeat cannot keep up. */
export const MIN_LEASE_MS = 10;

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
  const leaseMs = positiveInteger('leaseMs', options.leaseMs ?? DEFAULT_LEASE_MS, { min: MIN_LEASE_MS });
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
  if (options.singleFlight !== undefined && typeof options.singleFlight !== 'boolean') {
    throw new InvalidOptionsError('Option "singleFlight" must be a boolean.');
  }
  if (options.enabled !== undefined && typeof options.enabled !== 'boolean') {
    throw new InvalidOptionsError('Option "enabled" must be a boolean.');
  }
  const replayCache = resolveReplayCache(options.replayCache, ttlMs);
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
    finishAttempts: options.finishAttempts === undefined ? null : positiveInteger('finishAttempts', options.finishAttempts),
    storeTimeoutMs: positiveInteger('storeTimeoutMs', options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS),
    maxExecutionMs: options.maxExecutionMs === undefined ? null : positiveInteger('maxExecutionMs', options.maxExecutionMs),
    singleFlight: options.singleFlight ?? true,
    maxInFlightClaims: positiveInteger('maxInFlightClaims', options.maxInFlightClaims ?? DEFAULT_MAX_IN_FLIGHT_CLAIMS),
    maxQueuedClaims: positiveInteger('maxQueuedClaims', options.maxQueuedClaims ?? DEFAULT_MAX_QUEUED_CLAIMS, { min: 0 }),
    enabled: options.enabled ?? true,
    replayCache,
    metrics: options.metrics ?? noopMetrics,
    logger: options.logger ?? silentLogger,
    codec: options.codec ?? identityCodec,
  };
}

function resolveReplayCache(value: IdempotencyOptions['replayCache'], ttlMs: number): ResolvedOptions['replayCache'] {
  if (value === undefined || value === false) return null;
  if (value !== true && (value === null || typeof value !== 'object')) {
    throw new InvalidOptionsError('Option "replayCache" must be a boolean or { maxEntries, ttlMs }.');
  }
  const given = value === true ? {} : value;
  const cacheTtlMs = positiveInteger('replayCache.ttlMs', given.ttlMs ?? Math.min(DEFAULT_REPLAY_CACHE_TTL_MS, ttlMs));
  // A cached record must never outlive the record itself.
  if (cacheTtlMs > ttlMs) throw new InvalidOptionsError(`Option "replayCache.ttlMs" (${cacheTtlMs}) must be at most "ttlMs" (${ttlMs}).`);
  return { maxEntries: positiveInteger('replayCache.maxEntries', given.maxEntries ?? DEFAULT_REPLAY_CACHE_ENTRIES), ttlMs: cacheTtlMs };
}

/** Per-call overrides of the engine's durations, after validation. */
export interface CallDurations {
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly maxExecutionMs: number | null;
  readonly waitMs: number;
}

/**
 * Validates the per-call durations of `run()`/`begin()` like the engine's own (leaseMs >= 10,
 * ttlMs >= leaseMs): `leaseMs: 0` would let a concurrent duplicate run at the same time and
 * `ttlMs: 0` would make the retry run again. Throws `InvalidOptionsError` naming the field.
 * @example resolveCallDurations(resolved, { leaseMs: 5_000 }) // { leaseMs: 5000, ttlMs: 86400000, … }
 */
export function resolveCallDurations(
  engine: Pick<ResolvedOptions, 'leaseMs' | 'ttlMs' | 'maxExecutionMs'>,
  call: { readonly leaseMs?: number; readonly ttlMs?: number; readonly maxExecutionMs?: number; readonly waitMs?: number },
): CallDurations {
  if (call.leaseMs === undefined && call.ttlMs === undefined && call.maxExecutionMs === undefined && call.waitMs === undefined) {
    return { leaseMs: engine.leaseMs, ttlMs: engine.ttlMs, maxExecutionMs: engine.maxExecutionMs, waitMs: 0 };
  }
  const leaseMs = call.leaseMs === undefined ? engine.leaseMs : positiveInteger('leaseMs', call.leaseMs, { min: MIN_LEASE_MS });
  const ttlMs = call.ttlMs === undefined ? engine.ttlMs : positiveInteger('ttlMs', call.ttlMs);
  if (ttlMs < leaseMs) throw new InvalidOptionsError(`Option "ttlMs" (${ttlMs}) must be at least "leaseMs" (${leaseMs}).`);
  return {
    leaseMs,
    ttlMs,
    maxExecutionMs: call.maxExecutionMs === undefined ? engine.maxExecutionMs : positiveInteger('maxExecutionMs', call.maxExecutionMs),
    waitMs: call.waitMs === undefined ? 0 : positiveInteger('waitMs', call.waitMs, { min: 0 }),
  };
}
