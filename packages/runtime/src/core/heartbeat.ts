/**
 * The lease heartbeat: while an action runs, its lease is extended at least every leaseMs/3. If
 * the store says the lease is lost, or no extension has succeeded for a whole lease, the action's
 * signal aborts — from then on another worker may hold the key, and this one must not write.
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

export interface Heartbeat {
  /** Stops extending; resolves once no extension is in flight. */
  stop(): Promise<void>;
}

interface Beating {
  readonly store: IdempotencyStore;
  readonly input: ExtendInput;
  readonly lease: LeaseSignal;
  readonly logger: Logger;
  readonly logFields: () => LogFields;
  /** Local time of the last successful extension (or the claim); the lease itself is store-clocked. */
  lastSuccess: number;
  lastAttempt: number;
  inFlight: Promise<void> | null;
}

const schedulers = new Map<number, { active: Set<Beating>; timer: ReturnType<typeof setInterval> }>();

async function beat(entry: Beating): Promise<void> {
  const { store, input, lease, logger, logFields } = entry;
  try {
    const result = await store.extend(input);
    if (result === 'lost') {
      logger.warn(logFields(), 'idempotency lease lost to a newer holder; aborting the action');
      lease.abort(new LeaseLostError());
      return;
    }
    entry.lastSuccess = Date.now();
  } catch (error) {
    logger.warn({ ...logFields(), error: error instanceof Error ? error.message : String(error) }, 'idempotency lease extension failed');
    if (Date.now() - entry.lastSuccess >= input.leaseMs) {
      lease.abort(new LeaseLostError('The lease could not be extended for a whole lease period.'));
    }
  }
}

function schedulerFor(leaseMs: number) {
  let scheduler = schedulers.get(leaseMs);
  if (scheduler) return scheduler;
  const tickMs = Math.max(2, Math.floor(leaseMs / 6));
  const active = new Set<Beating>();
  const timer = setInterval(() => {
    const now = Date.now();
    for (const entry of active) {
      if (entry.inFlight || entry.lease.lost || now - entry.lastAttempt < tickMs) continue;
      entry.lastAttempt = now;
      entry.inFlight = beat(entry).finally(() => {
        entry.inFlight = null;
      });
    }
  }, tickMs);
  timer.unref?.();
  scheduler = { active, timer };
  schedulers.set(leaseMs, scheduler);
  return scheduler;
}

/** Starts extending `input`'s lease until `stop()`; a lost lease aborts `lease`. */
export function startHeartbeat(
  store: IdempotencyStore,
  input: ExtendInput,
  lease: LeaseSignal,
  logger: Logger,
  logFields: () => LogFields,
): Heartbeat {
  const now = Date.now();
  const entry: Beating = { store, input, lease, logger, logFields, lastSuccess: now, lastAttempt: now, inFlight: null };
  const scheduler = schedulerFor(input.leaseMs);
  scheduler.active.add(entry);
  return {
    async stop() {
      scheduler.active.delete(entry);
      if (scheduler.active.size === 0 && schedulers.get(input.leaseMs) === scheduler) {
        clearInterval(scheduler.timer);
        schedulers.delete(input.leaseMs);
      }
      await entry.inFlight;
    },
  };
}
