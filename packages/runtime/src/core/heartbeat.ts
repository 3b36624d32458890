/**
 * The lease heartbeat: while an action runs, its lease is extended at least every leaseMs/3. If
 * the store says the lease is lost, or no extension has succeeded for a whole lease, the action's
 * signal aborts — from then on another worker may hold the key, and this one must not write.
 *
 * The "whole lease without a successful extension" watchdog runs on the timer, not on the
 * extension's answer: an extension that hangs (a dead connection, a stalled server) cannot hold
 * the signal back (see `expireIfSilent` for a lease that saw no attempt at all). Each extension also has a deadline (min(storeTimeoutMs, leaseMs/3)), so one
 * hung call never blocks the next, and `stop()` never waits for one.
 *
 * One shared timer per lease length serves every running action (ticking every leaseMs/6 and
 * extending the leases last extended at least leaseMs/6 ago, so no lease goes longer than leaseMs/3
 * without a beat): creating a timer per call costs more than the rest of a protected call on a
 * fast store.
 */
import { LeaseLostError } from './errors.js';
import type { LeaseSignal } from './lease-signal.js';
import type { LogFields, Logger } from './logger.js';
import type { ExtendInput, IdempotencyStore } from './store-contract.js';
import { withStoreTimeout } from './store-timeout.js';

export interface Heartbeat {
  /** Stops extending at once; an extension still in flight is left to finish (it is fenced). */
  stop(): Promise<void>;
  /** Local time of the last successful extension (or of the claim). */
  readonly lastSuccess: number;
}

export interface HeartbeatOptions {
  readonly logger: Logger;
  readonly logFields: () => LogFields;
  /** Deadline of one extension; capped at leaseMs/3 so a hung one never spans two beats. */
  readonly storeTimeoutMs: number;
}

/** One running lease; it is also the `Heartbeat` handed back (one object per held claim). */
class Beating implements Heartbeat {
  /** Local time of the last successful extension (or the claim); the lease itself is store-clocked. */
  lastSuccess: number;
  lastAttempt: number;
  inFlight = false;
  /** Local time an extension started that has not succeeded since (hanging or failed); null when the last one succeeded. */
  unconfirmedSince: number | null = null;
  readonly scheduler: Scheduler;

  constructor(
    readonly store: IdempotencyStore,
    readonly input: ExtendInput,
    readonly lease: LeaseSignal,
    readonly options: HeartbeatOptions,
    readonly timeoutMs: number,
    now: number,
  ) {
    this.lastSuccess = now;
    this.lastAttempt = now;
    this.scheduler = schedulerFor(input.leaseMs);
  }

  stop(): Promise<void> {
    this.scheduler.active.delete(this);
    return Promise.resolve();
  }
}

const schedulers = new Map<number, Scheduler>();

/**
 * The watchdog: a whole lease without a successful extension, while one was tried and did not
 * succeed (it hangs or failed), aborts. A lease that saw no attempt at all — the event loop was
 * busy (a burst of 10^5 duplicates being answered) — is not given up locally: the next beat asks
 * the store, which answers `lost` only if a newer holder really took the key (fencing).
 */
function expireIfSilent(entry: Beating, now: number): void {
  if (!entry.lease.lost && entry.unconfirmedSince !== null && now - entry.lastSuccess >= entry.input.leaseMs) {
    entry.options.logger.warn(entry.options.logFields(), 'idempotency lease not extended for a whole lease; aborting the action');
    entry.lease.abort(new LeaseLostError('The lease could not be extended for a whole lease period.'));
  }
}

async function beat(entry: Beating): Promise<void> {
  const { store, input, lease, options } = entry;
  try {
    const result = await withStoreTimeout('extend', entry.timeoutMs, () => store.extend(input));
    if (result === 'lost') {
      options.logger.warn(options.logFields(), 'idempotency lease lost to a newer holder; aborting the action');
      lease.abort(new LeaseLostError());
      return;
    }
    entry.lastSuccess = Date.now();
    entry.unconfirmedSince = null;
  } catch (error) {
    options.logger.warn(
      { ...options.logFields(), error: error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error) },
      'idempotency lease extension failed',
    );
    expireIfSilent(entry, Date.now());
  }
}

interface Scheduler {
  readonly active: Set<Beating>;
  readonly timer: ReturnType<typeof setInterval>;
}

function schedulerFor(leaseMs: number): Scheduler {
  let scheduler = schedulers.get(leaseMs);
  if (scheduler) return scheduler;
  const tickMs = Math.max(2, Math.floor(leaseMs / 6));
  const active = new Set<Beating>();
  const timer = setInterval(() => {
    // An idle tick ends the timer. Stopping it when the last lease stops instead would create and
    // clear an interval per call whenever calls run one at a time.
    if (active.size === 0) {
      clearInterval(timer);
      if (schedulers.get(leaseMs) === scheduler) schedulers.delete(leaseMs);
      return;
    }
    const now = Date.now();
    for (const entry of active) {
      expireIfSilent(entry, now);
      if (entry.inFlight || entry.lease.lost || now - entry.lastAttempt < tickMs) continue;
      entry.lastAttempt = now;
      entry.unconfirmedSince ??= now;
      entry.inFlight = true;
      void beat(entry).finally(() => {
        entry.inFlight = false;
      });
    }
  }, tickMs);
  timer.unref?.();
  scheduler = { active, timer };
  schedulers.set(leaseMs, scheduler);
  return scheduler;
}

/**
 * Starts extending `input`'s lease until `stop()`; a lost lease aborts `lease`.
 * @example
 * const heartbeat = startHeartbeat(store, { key, scope, lockVersion, leaseMs }, lease, { logger, logFields, storeTimeoutMs: 5_000 });
 * try { await action({ signal: lease.signal }); } finally { await heartbeat.stop(); }
 */
export function startHeartbeat(store: IdempotencyStore, input: ExtendInput, lease: LeaseSignal, options: HeartbeatOptions): Heartbeat {
  const now = Date.now();
  const timeoutMs = Math.max(1, Math.min(options.storeTimeoutMs, Math.floor(input.leaseMs / 3)));
  const entry = new Beating(store, input, lease, options, timeoutMs, now);
  entry.scheduler.active.add(entry);
  return entry;
}
