/**
 * A held claim: the second phase of `begin()`. Its holder runs the work however it likes (an
 * action, an HTTP handler, a transaction) and then calls exactly one of `complete(value)`,
 * `fail(error)` or `release()`. Until then the heartbeat keeps the lease and `signal` aborts if
 * it is lost or the maximum execution time passes.
 *
 * After the signal aborted for a lost lease, nothing is written (a newer holder owns the key).
 * After it aborted for `maxExecutionMs`, nothing is stored and whichever of the three is called
 * releases the claim (the holder still owns it, fenced by lockVersion).
 */
import { ExecutionTimeoutError, IdempotencyError, LeaseLostError, ResultNotSerializableError, StoreUnavailableError } from './errors.js';
import { startHeartbeat, type Heartbeat } from './heartbeat.js';
import { LeaseSignal } from './lease-signal.js';
import { redact, type LogFields } from './logger.js';
import { METRICS, noopMetrics, scopeBucket } from './metrics.js';
import type { ResolvedOptions } from './options.js';
import type { IdempotencyRecord } from './record.js';
import type { RunRequest } from './run-request.js';
import type { HeldView } from './single-flight.js';
import { serializeFailure, toStoredFailure, type ResultSerializer } from './serializer.js';
import type { FencedResult, IdempotencyStore } from './store-contract.js';
import { withStoreTimeout } from './store-timeout.js';

export interface HeldClaim<T> {
  readonly outcome: 'claimed';
  /** This holder's fencing token; pass it to downstream writes that can check it. */
  readonly lockVersion: number;
  /** True when this claim took over an orphaned claim of a crashed or stalled worker. */
  readonly reclaimed: boolean;
  /**
   * Aborts when the lease is lost, when `maxExecutionMs` passes (reason `ExecutionTimeoutError`),
   * or when the caller's own `signal` aborts (a client disconnect: a notice, the work decides).
   */
  readonly signal: AbortSignal;
  /** True once this holder may no longer store anything (lease lost or execution time over). */
  readonly lost: boolean;
  /** Store the result for replay. Throws `LeaseLostError`, `ExecutionTimeoutError`, `ResultNotSerializableError` or `StoreUnavailableError`. */
  complete(value: T): Promise<void>;
  /** Record a permanent failure, replayed to retries as `ReplayedFailureError`. */
  fail(error: unknown): Promise<void>;
  /** Give the key back (a transient failure): the same key may run again at once. Never throws; false if the store did not confirm. */
  release(): Promise<boolean>;
}

export interface HoldInput<T> {
  readonly resolved: ResolvedOptions;
  readonly store: IdempotencyStore;
  readonly request: RunRequest;
  readonly lockVersion: number;
  readonly reclaimed: boolean;
  readonly leaseMs: number;
  readonly ttlMs: number;
  readonly maxExecutionMs: number | null;
  readonly serializer: ResultSerializer<T>;
  /** The caller's own signal (e.g. the client disconnected): forwarded as a notice. */
  readonly signal?: AbortSignal;
  /** Called once when the holder settles or loses the key (single-flight bookkeeping). */
  readonly onEnd?: () => void;
  /** Called with the record as this holder stored it (the replay cache), local clock as `now`. */
  readonly onCompleted?: (record: IdempotencyRecord, now: number) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** With the default finishAttempts (until the lease ends), never fewer tries than this. */
const MIN_FINISH_ATTEMPTS = 3;

/**
 * Starts holding a claimed key: heartbeat, execution deadline, and the three ways out.
 * @example const { held } = holdClaim({ resolved, store, request, lockVersion, reclaimed, leaseMs, ttlMs, maxExecutionMs: null, serializer });
 */
export function holdClaim<T>(input: HoldInput<T>): { held: HeldClaim<T>; view: HeldView } {
  const { resolved, store, request, lockVersion, leaseMs, ttlMs, serializer } = input;
  const { metrics, logger, codec } = resolved;
  const id = { key: request.key, scope: request.scope, lockVersion };
  // Hashing is deferred to the rare lines that log: it is not free on the hot path.
  const log = (): LogFields => ({ key: redact(request.key), scope: redact(request.scope) });
  const lease = new LeaseSignal();
  const started = performance.now();
  let settled = false;

  if (input.reclaimed) {
    metrics.increment(METRICS.orphanReclaims);
    metrics.increment(METRICS.lockTimeouts);
    logger.warn({ ...log(), lockVersion }, 'idempotency orphaned claim reclaimed');
  } else {
    // Per-user without a per-user series: the scope hashed into one of 64 buckets (no id in
    // metrics, bounded cardinality); skipped when nobody collects metrics.
    metrics.increment(METRICS.keysCreatedPerUser, metrics === noopMetrics ? undefined : { scope_bucket: scopeBucket(request.scope) });
  }

  const heartbeat: Heartbeat | undefined = resolved.heartbeat
    ? startHeartbeat(store, { ...id, leaseMs }, lease, { logger, logFields: log, storeTimeoutMs: resolved.storeTimeoutMs })
    : undefined;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  if (input.maxExecutionMs !== null) {
    deadline = setTimeout(() => {
      logger.warn({ ...log(), maxExecutionMs: input.maxExecutionMs }, 'idempotency action ran past maxExecutionMs; aborting it');
      lease.abort(new ExecutionTimeoutError(input.maxExecutionMs!));
      // No more extensions: if the action never settles, the lease lapses by itself.
      void heartbeat?.stop();
      input.onEnd?.();
    }, input.maxExecutionMs);
    deadline.unref?.();
  }
  const onCallerAbort = () => lease.notify(input.signal!.reason);
  if (input.signal) {
    if (input.signal.aborted) onCallerAbort();
    else input.signal.addEventListener('abort', onCallerAbort, { once: true });
  }
  // The heartbeat reports a lost lease through the signal; single-flight must learn it at once.
  const live = () => !settled && !lease.lost;

  function settle(outcome: 'ok' | 'error'): void {
    if (settled) throw new TypeError('This claim was already completed, failed or released.');
    settled = true;
    void heartbeat?.stop();
    if (deadline) clearTimeout(deadline);
    input.signal?.removeEventListener('abort', onCallerAbort);
    input.onEnd?.();
    metrics.observe(METRICS.processingDurationMs, performance.now() - started, { outcome });
  }

  const timedOut = () => lease.lostReason instanceof ExecutionTimeoutError;

  async function storeRelease(): Promise<boolean> {
    try {
      return (await withStoreTimeout('release', resolved.storeTimeoutMs, () => store.release(id))) === 'applied';
    } catch (error) {
      // The lease will lapse by itself; the caller's own outcome matters more here.
      logger.warn({ ...log(), error: String(error instanceof Error && error.cause ? error.cause : error) }, 'idempotency release failed; the lease will expire');
      return false;
    }
  }

  /** A write after the work, retried: a lost reply must not turn a stored result into a retry. */
  async function finish(operation: 'complete' | 'fail', write: () => Promise<FencedResult>): Promise<FencedResult> {
    let lastError: unknown;
    // Until the lease would end, the record is ours: keep trying (a store restart shorter than the
    // lease then costs latency, not a second execution). A configured number caps the tries.
    const leaseEnd = Date.now() + leaseMs;
    const more = (attempt: number) =>
      resolved.finishAttempts === null ? attempt < MIN_FINISH_ATTEMPTS || Date.now() < leaseEnd : attempt < resolved.finishAttempts;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await withStoreTimeout(operation, resolved.storeTimeoutMs, write);
        if (result === 'lost' && attempt > 1 && (await finishedByUs())) return 'applied';
        return result;
      } catch (error) {
        lastError = error;
        logger.warn({ ...log(), attempt }, `idempotency ${operation} failed; retrying`);
        if (!more(attempt)) break;
        await sleep(Math.min(20 * 2 ** attempt, 1000));
      }
    }
    throw lastError instanceof StoreUnavailableError ? lastError : new StoreUnavailableError(operation, lastError);
  }

  /** After a write whose reply was lost, a retry finds the record finished at our lockVersion: it was ours. */
  async function finishedByUs(): Promise<boolean> {
    const record = await withStoreTimeout('get', resolved.storeTimeoutMs, () => store.get(id)).catch(() => null);
    return record !== null && record.status !== 'PROCESSING' && record.lockVersion === lockVersion;
  }

  /** Lost the key: a timed-out holder still owns it and gives it back; a fenced-out one writes nothing. */
  async function refuseAfterLoss(): Promise<never> {
    metrics.increment(METRICS.lockTimeouts);
    if (timedOut()) {
      await storeRelease();
      throw lease.lostReason;
    }
    throw lease.lostReason instanceof LeaseLostError ? lease.lostReason : new LeaseLostError();
  }

  const held: HeldClaim<T> = {
    outcome: 'claimed',
    lockVersion,
    reclaimed: input.reclaimed,
    get signal() {
      return lease.signal;
    },
    get lost() {
      return lease.lost;
    },
    async complete(value) {
      settle('ok');
      if (lease.lost) await refuseAfterLoss();
      let response;
      try {
        response = await codec.encode(serializer.serialize(value), { key: request.key, scope: request.scope, status: 'COMPLETED' });
      } catch (error) {
        // Leaving the key PROCESSING would run the action again after the lease; give it back now.
        await storeRelease();
        throw error instanceof IdempotencyError ? error : new ResultNotSerializableError(error);
      }
      if ((await finish('complete', () => store.complete({ ...id, response, ttlMs }))) === 'lost') throw new LeaseLostError();
      if (input.onCompleted) {
        const now = Date.now();
        const { key, scope, fingerprint } = request;
        input.onCompleted(
          { key, scope, owner: request.owner ?? null, fingerprint, status: 'COMPLETED', lockVersion, lockedUntil: null, response, createdAt: now, completedAt: now, expiresAt: now + ttlMs },
          now,
        );
      }
    },
    async fail(error) {
      settle('error');
      if (lease.lost) {
        metrics.increment(METRICS.lockTimeouts);
        if (timedOut()) await storeRelease();
        return; // someone else holds the key now; write nothing
      }
      const response = await codec.encode(serializeFailure(toStoredFailure(error)), { key: request.key, scope: request.scope, status: 'FAILED' });
      const result = await finish('fail', () => store.fail({ ...id, response, ttlMs }));
      if (result === 'lost') logger.warn(log(), 'idempotency failure not recorded: lease lost');
    },
    async release() {
      settle('error');
      if (lease.lost && !timedOut()) {
        metrics.increment(METRICS.lockTimeouts);
        return false; // a newer holder owns the key: nothing of ours to release
      }
      return storeRelease();
    },
  };
  // Single-flight answers local duplicates from this view; without a heartbeat it is never live.
  const view: HeldView = {
    lockVersion,
    live: () => heartbeat !== undefined && live(),
    leaseEnd: () => (heartbeat ? heartbeat.lastSuccess : Date.now()) + leaseMs,
  };
  return { held, view };
}
