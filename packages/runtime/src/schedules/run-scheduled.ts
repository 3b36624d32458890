/**
 * `runScheduled(idempotency, jobName, slot, fn, { overlap })`: one run per schedule slot across
 * every scheduler instance, and a per-job overlap policy for a run still going when the next
 * slot fires. Built on the engine's `run()` only:
 *
 *   slot record  <job>:slot:<ISO>  claim → run → COMPLETED   (duplicates of the slot: 'already-ran' / 'slot-in-progress')
 *     job lock   <job>:running     claim → fn → released     (held only while fn runs; a crashed holder's lease lapses)
 *
 *   slot 08:00 |==== run (holds lock, heartbeats) ==========|
 *   slot 08:01          fires: lock held → skip | wait until released | takeover once the lease lapses
 */
import type { ActionContext, Idempotency } from '../core/engine.js';
import { InProgressError, InvalidOptionsError } from '../core/errors.js';
import { validateScope } from '../core/key.js';
import type { ResultSerializer } from '../core/serializer.js';
import { scheduleKeys, slotMs, type SlotInput } from './slot.js';

/**
 * What a slot does while another run of the same job holds the job lock:
 * - `skip`: it does not run (reported `skipped: 'overlap'`; it shows in the missed-slot report);
 * - `wait`: it waits up to `maxWaitMs` for the lock, then runs;
 * - `takeover`: it waits only for the holder's current lease: a crashed or stalled holder (no
 *   heartbeat) is taken over the moment its lease lapses; a healthy one that keeps extending
 *   its lease is left alone and the slot is skipped.
 * A crashed holder is taken over under every policy once its lease is over.
 */
export type OverlapPolicy = 'skip' | 'wait' | 'takeover';

export interface RunScheduledOptions<T> {
  /** Default `skip`. */
  readonly overlap?: OverlapPolicy;
  /** Idempotency scope. Default: the job name. */
  readonly scope?: string;
  /** `wait` only: longest wait for the lock. Default 60 s. */
  readonly maxWaitMs?: number;
  /** Lease of the run (heartbeated while it runs). Default: the engine's. */
  readonly leaseMs?: number;
  /** How long a slot is remembered; longer than any re-fire of it (retries, catch-up). Default: the engine's. */
  readonly ttlMs?: number;
  /** How the result is kept for 'already-ran' answers. Default JSON. */
  readonly serializer?: ResultSerializer<T>;
}

export interface ScheduledContext extends ActionContext {
  readonly jobName: string;
  /** The fire time from the schedule — use it (not the clock) for "the report of 08:00". */
  readonly slot: Date;
}

export type ScheduledOutcome<T> =
  | { readonly status: 'ran'; readonly slot: Date; readonly value: T; readonly tookOver: boolean }
  | { readonly status: 'already-ran'; readonly slot: Date; readonly value: T }
  | { readonly status: 'skipped'; readonly slot: Date; readonly reason: 'slot-in-progress' | 'overlap' };

const SKIPPED = Symbol('skipped');
const OVERLAP_POLICIES: ReadonlySet<string> = new Set(['skip', 'wait', 'takeover']);
/** Margin after a lapsed lease before the takeover claim, so store and app clocks agree. */
const TAKEOVER_GRACE_MS = 50;

type LockResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Validates options once; adapters call it at creation so a typo fails at startup. */
export function checkScheduledOptions<T>(options: RunScheduledOptions<T>): Required<Pick<RunScheduledOptions<T>, 'overlap' | 'maxWaitMs'>> {
  const overlap = options.overlap ?? 'skip';
  if (!OVERLAP_POLICIES.has(overlap)) throw new InvalidOptionsError(`Option "overlap" must be skip, wait or takeover; got ${String(overlap)}.`);
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  if (!Number.isInteger(maxWaitMs) || maxWaitMs < 0) throw new InvalidOptionsError('Option "maxWaitMs" must be an integer >= 0.');
  if (options.scope !== undefined) {
    try {
      validateScope(options.scope);
    } catch (error) {
      throw new InvalidOptionsError(`Option "scope": ${(error as Error).message}`);
    }
  }
  return { overlap, maxWaitMs };
}

/**
 * Runs `fn` for one schedule slot at most once, whichever scheduler instance fired it and however
 * often. Errors of `fn` propagate: a transient one releases the slot (a re-fire runs it), a
 * permanent one (engine `isPermanent`) is recorded and replayed as `replayed_failure`.
 * @example
 * import { runScheduled } from '@idempotency-builder/runtime/schedules';
 * const outcome = await runScheduled(idempotency, 'nightly-report', slot, async ({ slot, signal }) => buildReport(slot, { signal }), { overlap: 'skip' });
 * if (outcome.status === 'skipped') log.info(`report ${outcome.slot.toISOString()} skipped: ${outcome.reason}`);
 */
export async function runScheduled<T>(
  idempotency: Idempotency,
  jobName: string,
  slot: SlotInput,
  fn: (context: ScheduledContext) => T | Promise<T>,
  options: RunScheduledOptions<T> = {},
): Promise<ScheduledOutcome<T>> {
  const { overlap, maxWaitMs } = checkScheduledOptions(options);
  const keys = scheduleKeys(jobName, slot);
  const slotDate = new Date(slotMs(slot));
  const scope = options.scope ?? jobName;
  const lease = { ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }) };
  let tookOver = false;

  const holdLockAndRun = async (slotContext: ActionContext, waitMs: number): Promise<LockResult<T>> => {
    const { value } = await idempotency.run<LockResult<T>>(
      { key: keys.lock, scope, fingerprint: keys.lockFingerprint },
      async (lockContext) => {
        tookOver = lockContext.reclaimed;
        const signal = AbortSignal.any([slotContext.signal, lockContext.signal]);
        const context: ScheduledContext = { signal, lockVersion: slotContext.lockVersion, reclaimed: slotContext.reclaimed || lockContext.reclaimed, jobName, slot: slotDate };
        // The lock never stores: an error is carried out as a value so the lock is always released.
        try {
          return { ok: true, value: await fn(context) };
        } catch (error) {
          return { ok: false, error };
        }
      },
      { ...lease, waitMs, shouldStore: () => false },
    );
    return value;
  };

  const acquire = async (slotContext: ActionContext): Promise<LockResult<T> | typeof SKIPPED> => {
    try {
      return await holdLockAndRun(slotContext, overlap === 'wait' ? maxWaitMs : 0);
    } catch (error) {
      if (!(error instanceof InProgressError)) throw error;
      if (overlap !== 'takeover') return SKIPPED;
      // Wait out the holder's current lease once; a live holder extends it and keeps the lock.
      try {
        return await holdLockAndRun(slotContext, error.retryAfterMs + TAKEOVER_GRACE_MS);
      } catch (second) {
        if (second instanceof InProgressError) return SKIPPED;
        throw second;
      }
    }
  };

  let result;
  try {
    result = await idempotency.run<T | typeof SKIPPED>(
      { key: keys.slot, scope, fingerprint: keys.fingerprint },
      async (slotContext) => {
        const locked = await acquire(slotContext);
        if (locked === SKIPPED) return SKIPPED;
        if (!locked.ok) throw locked.error;
        return locked.value;
      },
      {
        ...lease,
        ...(options.ttlMs === undefined ? {} : { ttlMs: options.ttlMs }),
        ...(options.serializer ? { serializer: options.serializer as ResultSerializer<T | typeof SKIPPED> } : {}),
        // A skipped slot leaves no record: it never ran, and the missed-slot report says so.
        shouldStore: (value) => value !== SKIPPED,
      },
    );
  } catch (error) {
    if (error instanceof InProgressError) return { status: 'skipped', slot: slotDate, reason: 'slot-in-progress' };
    throw error;
  }
  if (result.value === SKIPPED) return { status: 'skipped', slot: slotDate, reason: 'overlap' };
  if (result.replayed) return { status: 'already-ran', slot: slotDate, value: result.value };
  return { status: 'ran', slot: slotDate, value: result.value, tookOver };
}
