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
import type { IdempotencyRecord, StoredResponse } from './record.js';
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

/** The caller's signal, or a function making it on first use (see `BeginOptions.signal`). */
export type CallerSignal = AbortSignal | (() => AbortSignal | undefined);

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
  readonly signal?: CallerSignal;
  /** Called once when the holder settles or loses the key (single-flight bookkeeping). */
  readonly onEnd?: () => void;
  /** Called with the record as this holder stored it (the replay cache), local clock as `now`. */
  readonly onCompleted?: (record: IdempotencyRecord, now: number) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** With the default finishAttempts (until the lease ends), never fewer tries than this. */
const MIN_FINISH_ATTEMPTS = 3;

/** The single-flight view of a holding: one small object, its methods on the prototype. */
class HoldingView implements HeldView {
  constructor(private readonly holding: Holding<unknown>) {}
  get lockVersion(): number {
    return this.holding.lockVersion;
  }
  live(): boolean {
    return this.holding.live();
  }
  leaseEnd(): number {
    return this.holding.leaseEnd();
  }
}

/**
 * One held claim. A class rather than a closure bundle: a protected call on a fast store creates
 * one of these per new key, and prototype methods cost no allocation per call.
 */
class Holding<T> implements HeldClaim<T> {
  readonly outcome = 'claimed' as const;
  readonly lockVersion: number;
  readonly reclaimed: boolean;
  readonly #input: HoldInput<T>;
  readonly #lease = new LeaseSignal();
  /** Start time for the processing-duration metric; read only when someone collects metrics. */
  readonly #started: number;
  readonly #heartbeat: Heartbeat | undefined;
  #deadline: ReturnType<typeof setTimeout> | undefined;
  #onCallerAbort: (() => void) | undefined;
  #callerSignal: AbortSignal | undefined;
  #settled = false;

  constructor(input: HoldInput<T>) {
    const { resolved, store, lockVersion, leaseMs } = input;
    const { metrics, logger } = resolved;
    this.#input = input;
    this.lockVersion = lockVersion;
    this.reclaimed = input.reclaimed;
    this.#started = metrics === noopMetrics ? 0 : performance.now();
    if (input.reclaimed) {
      metrics.increment(METRICS.orphanReclaims);
      metrics.increment(METRICS.lockTimeouts);
      logger.warn({ ...this.#log(), lockVersion }, 'idempotency orphaned claim reclaimed');
    } else {
      // Per-user without a per-user series: the scope hashed into one of 64 buckets (no id in
      // metrics, bounded cardinality); skipped when nobody collects metrics.
      metrics.increment(METRICS.keysCreatedPerUser, metrics === noopMetrics ? undefined : { scope_bucket: scopeBucket(input.request.scope) });
    }
    this.#heartbeat = resolved.heartbeat
      ? startHeartbeat(store, { key: input.request.key, scope: input.request.scope, lockVersion, leaseMs }, this.#lease, { logger, logFields: () => this.#log(), storeTimeoutMs: resolved.storeTimeoutMs })
      : undefined;
    if (input.maxExecutionMs !== null) {
      const maxExecutionMs = input.maxExecutionMs;
      this.#deadline = setTimeout(() => {
        logger.warn({ ...this.#log(), maxExecutionMs }, 'idempotency action ran past maxExecutionMs; aborting it');
        this.#lease.abort(new ExecutionTimeoutError(maxExecutionMs));
        // No more extensions: if the action never settles, the lease lapses by itself.
        void this.#heartbeat?.stop();
        input.onEnd?.();
      }, maxExecutionMs);
      this.#deadline.unref?.();
    }
  }

  get signal(): AbortSignal {
    if (this.#input.signal !== undefined && this.#callerSignal === undefined && !this.#settled) this.#followCaller();
    return this.#lease.signal;
  }

  /**
   * The caller's signal reaches the work's signal once the work first reads it: before that
   * nobody could see the notice, and listening costs an EventTarget registration per call.
   */
  #followCaller(): void {
    const source = this.#input.signal!;
    const callerSignal = typeof source === 'function' ? source() : source;
    if (!callerSignal) return;
    this.#callerSignal = callerSignal;
    this.#onCallerAbort = () => this.#lease.notify(callerSignal.reason);
    if (callerSignal.aborted) this.#onCallerAbort();
    else callerSignal.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get lost(): boolean {
    return this.#lease.lost;
  }

  /** The heartbeat reports a lost lease through the signal; single-flight must learn it at once. */
  live(): boolean {
    return this.#heartbeat !== undefined && !this.#settled && !this.#lease.lost;
  }

  leaseEnd(): number {
    return (this.#heartbeat ? this.#heartbeat.lastSuccess : Date.now()) + this.#input.leaseMs;
  }

  /** Hashing is deferred to the rare lines that log: it is not free on the hot path. */
  #log(): LogFields {
    return { key: redact(this.#input.request.key), scope: redact(this.#input.request.scope) };
  }

  #id() {
    return { key: this.#input.request.key, scope: this.#input.request.scope, lockVersion: this.lockVersion };
  }

  #settle(outcome: 'ok' | 'error'): void {
    if (this.#settled) throw new TypeError('This claim was already completed, failed or released.');
    this.#settled = true;
    void this.#heartbeat?.stop();
    if (this.#deadline) clearTimeout(this.#deadline);
    if (this.#onCallerAbort) this.#callerSignal?.removeEventListener('abort', this.#onCallerAbort);
    this.#input.onEnd?.();
    const { metrics } = this.#input.resolved;
    if (metrics !== noopMetrics) metrics.observe(METRICS.processingDurationMs, performance.now() - this.#started, { outcome });
  }

  #timedOut(): boolean {
    return this.#lease.lostReason instanceof ExecutionTimeoutError;
  }

  async #storeRelease(): Promise<boolean> {
    const { resolved, store } = this.#input;
    try {
      return (await withStoreTimeout('release', resolved.storeTimeoutMs, () => store.release(this.#id()))) === 'applied';
    } catch (error) {
      // The lease will lapse by itself; the caller's own outcome matters more here.
      resolved.logger.warn({ ...this.#log(), error: String(error instanceof Error && error.cause ? error.cause : error) }, 'idempotency release failed; the lease will expire');
      return false;
    }
  }

  /** A write after the work, retried: a lost reply must not turn a stored result into a retry. */
  async #finish(operation: 'complete' | 'fail', write: () => Promise<FencedResult>): Promise<FencedResult> {
    const { resolved } = this.#input;
    let lastError: unknown;
    // Until the lease would end, the record is ours: keep trying (a store restart shorter than the
    // lease then costs latency, not a second execution). A configured number caps the tries.
    const leaseEnd = Date.now() + this.#input.leaseMs;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await withStoreTimeout(operation, resolved.storeTimeoutMs, write);
        if (result === 'lost' && attempt > 1 && (await this.#finishedByUs())) return 'applied';
        return result;
      } catch (error) {
        lastError = error;
        resolved.logger.warn({ ...this.#log(), attempt }, `idempotency ${operation} failed; retrying`);
        const more = resolved.finishAttempts === null ? attempt < MIN_FINISH_ATTEMPTS || Date.now() < leaseEnd : attempt < resolved.finishAttempts;
        if (!more) break;
        await sleep(Math.min(20 * 2 ** attempt, 1000));
      }
    }
    throw lastError instanceof StoreUnavailableError ? lastError : new StoreUnavailableError(operation, lastError);
  }

  /** After a write whose reply was lost, a retry finds the record finished at our lockVersion: it was ours. */
  async #finishedByUs(): Promise<boolean> {
    const { resolved, store } = this.#input;
    const record = await withStoreTimeout('get', resolved.storeTimeoutMs, () => store.get(this.#id())).catch(() => null);
    return record !== null && record.status !== 'PROCESSING' && record.lockVersion === this.lockVersion;
  }

  /** Lost the key: a timed-out holder still owns it and gives it back; a fenced-out one writes nothing. */
  async #refuseAfterLoss(): Promise<never> {
    this.#input.resolved.metrics.increment(METRICS.lockTimeouts);
    if (this.#timedOut()) {
      await this.#storeRelease();
      throw this.#lease.lostReason;
    }
    throw this.#lease.lostReason instanceof LeaseLostError ? this.#lease.lostReason : new LeaseLostError();
  }

  async complete(value: T): Promise<void> {
    this.#settle('ok');
    if (this.#lease.lost) await this.#refuseAfterLoss();
    const { resolved, store, request, ttlMs, serializer } = this.#input;
    let response: StoredResponse;
    try {
      response = await resolved.codec.encode(serializer.serialize(value), { key: request.key, scope: request.scope, status: 'COMPLETED' });
    } catch (error) {
      // Leaving the key PROCESSING would run the action again after the lease; give it back now.
      await this.#storeRelease();
      throw error instanceof IdempotencyError ? error : new ResultNotSerializableError(error);
    }
    if ((await this.#finish('complete', () => store.complete({ key: request.key, scope: request.scope, lockVersion: this.lockVersion, response, ttlMs }))) === 'lost') throw new LeaseLostError();
    if (this.#input.onCompleted) {
      const now = Date.now();
      const { key, scope, fingerprint } = request;
      this.#input.onCompleted(
        { key, scope, owner: request.owner ?? null, fingerprint, status: 'COMPLETED', lockVersion: this.lockVersion, lockedUntil: null, response, createdAt: now, completedAt: now, expiresAt: now + ttlMs },
        now,
      );
    }
  }

  async fail(error: unknown): Promise<void> {
    this.#settle('error');
    const { resolved, store, request, ttlMs } = this.#input;
    if (this.#lease.lost) {
      resolved.metrics.increment(METRICS.lockTimeouts);
      if (this.#timedOut()) await this.#storeRelease();
      return; // someone else holds the key now; write nothing
    }
    const response = await resolved.codec.encode(serializeFailure(toStoredFailure(error)), { key: request.key, scope: request.scope, status: 'FAILED' });
    const result = await this.#finish('fail', () => store.fail({ ...this.#id(), response, ttlMs }));
    if (result === 'lost') resolved.logger.warn(this.#log(), 'idempotency failure not recorded: lease lost');
  }

  async release(): Promise<boolean> {
    this.#settle('error');
    if (this.#lease.lost && !this.#timedOut()) {
      this.#input.resolved.metrics.increment(METRICS.lockTimeouts);
      return false; // a newer holder owns the key: nothing of ours to release
    }
    return this.#storeRelease();
  }
}

/**
 * Starts holding a claimed key: heartbeat, execution deadline, and the three ways out.
 * Single-flight answers local duplicates from `view`; without a heartbeat it is never live.
 * @example const { held } = holdClaim({ resolved, store, request, lockVersion, reclaimed, leaseMs, ttlMs, maxExecutionMs: null, serializer });
 */
export function holdClaim<T>(input: HoldInput<T>): { held: HeldClaim<T>; view: HeldView } {
  const holding = new Holding(input);
  return { held: holding, view: new HoldingView(holding as Holding<unknown>) };
}
