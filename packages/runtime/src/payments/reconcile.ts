/**
 * Reconciliation (spec §5, "Action partially completed"): an orphaned PROCESSING record may stand
 * for a charge the provider made while the worker died before completing locally. Ask the provider
 * under the derived key, then either complete the local record with the provider's result or
 * release it — each a fenced write after taking the orphan over with a claim of the SAME
 * fingerprint, so a retry that reclaimed it first wins and nothing is overwritten.
 */
import type { Idempotency } from '../core/engine.js';
import { InvalidOptionsError } from '../core/errors.js';
import { redact } from '../core/logger.js';
import { METRICS } from '../core/metrics.js';
import { positiveInteger } from '../core/options.js';
import type { IdempotencyRecord } from '../core/record.js';
import { jsonSerializer, type ResultSerializer } from '../core/serializer.js';

/** Counter raised when the provider holds more than one charge for one local intent. */
export const SPLIT_BRAIN_METRIC = METRICS.splitBrain;

export type ProviderLookupResult<T> =
  | { readonly outcome: 'found'; readonly result: T }
  | { readonly outcome: 'not_found' }
  | { readonly outcome: 'split_brain'; readonly results: readonly T[] }
  /** Not this provider's record, or the provider cannot tell yet: leave it alone. */
  | { readonly outcome: 'unknown'; readonly reason?: string };

/** Asks the provider what happened under the record's derived key. */
export type ProviderLookup<T> = (record: IdempotencyRecord) => Promise<ProviderLookupResult<T>>;

export interface ReconcileOptions<T> {
  readonly idempotency: Idempotency;
  /** Label for logs and metrics (`stripe`, `adyen`, `paypal`). */
  readonly provider: string;
  readonly lookup: ProviderLookup<T>;
  /** Which stuck records belong to this provider (e.g. by key prefix). Default: all. */
  readonly select?: (record: IdempotencyRecord) => boolean;
  /** Only records whose lease ended at least this long ago. Default 120000 (provider search lag). */
  readonly olderThanMs?: number;
  readonly limit?: number;
  /** Release orphans the provider never saw, so a retry runs. Default true. */
  readonly releaseNotFound?: boolean;
  /** How the result is stored; must be the one the protected call uses. Default JSON. */
  readonly serializer?: ResultSerializer<T>;
}

export type ReconcileAction = 'completed' | 'released' | 'split_brain' | 'skipped' | 'error';

export interface ReconcileItem {
  readonly key: string;
  readonly scope: string;
  readonly action: ReconcileAction;
  readonly detail?: string;
}

export interface ReconcileReport {
  readonly examined: number;
  readonly completed: number;
  readonly released: number;
  readonly splitBrain: number;
  readonly skipped: number;
  readonly errors: number;
  readonly items: readonly ReconcileItem[];
}

/**
 * One reconciliation pass, callable on demand (the ops command) or from a schedule.
 * @example
 * const report = await reconcile({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe) });
 * console.log(report.completed, 'orphans completed from Stripe');
 */
export async function reconcile<T>(options: ReconcileOptions<T>): Promise<ReconcileReport> {
  const { idempotency, provider, lookup, select = () => true, releaseNotFound = true } = options;
  if (typeof lookup !== 'function') throw new InvalidOptionsError('reconcile() needs a "lookup" function.');
  if (typeof provider !== 'string' || provider.length === 0) throw new InvalidOptionsError('reconcile() needs a "provider" label.');
  const olderThanMs = positiveInteger('olderThanMs', options.olderThanMs ?? 120_000, { min: 0 });
  const limit = positiveInteger('limit', options.limit ?? 100);
  const serializer = options.serializer ?? (jsonSerializer as ResultSerializer<T>);
  const { store, codec, ttlMs, leaseMs, metrics, logger } = idempotency.options;

  const items: ReconcileItem[] = [];
  const stuck = (await store.listStuck({ olderThanMs, limit })).filter((record) => record.status === 'PROCESSING' && select(record));
  for (const record of stuck) {
    const id = { key: record.key, scope: record.scope };
    const log = { key: redact(record.key), provider };
    const note = (action: ReconcileAction, detail?: string) => items.push({ ...id, action, ...(detail ? { detail } : {}) });
    try {
      const answer = await lookup(record);
      if (answer.outcome === 'unknown') {
        note('skipped', answer.reason ?? 'provider cannot tell');
        continue;
      }
      if (answer.outcome === 'split_brain') {
        // Two charges for one intent: a human refunds one. The record stays PROCESSING and visible to listStuck.
        logger.error({ ...log, charges: answer.results.length }, 'idempotency split brain: the provider holds several charges for one intent');
        // The alert is logged first: a sink that rejects the name or label must not swallow it.
        try {
          metrics.increment(SPLIT_BRAIN_METRIC, { provider });
        } catch (error) {
          logger.warn({ ...log, error: error instanceof Error ? error.message : String(error) }, 'split brain metric not recorded');
        }
        note('split_brain', `${answer.results.length} provider charges`);
        continue;
      }
      if (answer.outcome === 'not_found' && !releaseNotFound) {
        note('skipped', 'not found at the provider; releaseNotFound is false');
        continue;
      }
      const claim = await store.claim({ ...id, fingerprint: record.fingerprint, owner: record.owner, leaseMs, ttlMs, replaceExpired: false });
      if (claim.outcome !== 'claimed') {
        note('skipped', 'taken over by a retry first');
        continue;
      }
      const fenced = { ...id, lockVersion: claim.lockVersion };
      if (!claim.reclaimed) {
        // The orphan vanished between list and claim, and our claim created a fresh record: give it back.
        await store.release(fenced);
        note('skipped', 'record gone');
        continue;
      }
      if (answer.outcome === 'not_found') {
        const released = await store.release(fenced);
        logger.warn(log, 'reconcile: provider has no charge for an orphan; released for retry');
        note(released === 'applied' ? 'released' : 'skipped', released === 'applied' ? undefined : 'lost to a newer holder');
        continue;
      }
      const response = await codec.encode(serializer.serialize(answer.result), { ...id, status: 'COMPLETED' });
      const written = await store.complete({ ...fenced, response, ttlMs });
      logger.info(log, 'reconcile: orphan completed with the provider result');
      note(written === 'applied' ? 'completed' : 'skipped', written === 'applied' ? undefined : 'lost to a newer holder');
    } catch (error) {
      logger.error({ ...log, error: error instanceof Error ? error.message : String(error) }, 'reconcile: record not reconciled');
      note('error', error instanceof Error ? error.message : String(error));
    }
  }
  const count = (action: ReconcileAction) => items.filter((item) => item.action === action).length;
  return {
    examined: stuck.length,
    completed: count('completed'),
    released: count('released'),
    splitBrain: count('split_brain'),
    skipped: count('skipped'),
    errors: count('error'),
    items,
  };
}

export interface ReconcilerJob {
  /** Stops the schedule; an in-flight pass finishes. */
  stop(): Promise<void>;
}

/**
 * Runs `reconcile()` every `intervalMs` (one pass at a time) until stopped.
 * @example const job = startReconciler({ idempotency, provider: 'stripe', lookup: stripeLookup(stripe), intervalMs: 60_000 });
 */
export function startReconciler<T>(options: ReconcileOptions<T> & { readonly intervalMs: number; readonly onReport?: (report: ReconcileReport) => void }): ReconcilerJob {
  const intervalMs = positiveInteger('intervalMs', options.intervalMs);
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(() => {
    running = running.then(async () => {
      if (stopped) return;
      try {
        options.onReport?.(await reconcile(options));
      } catch (error) {
        options.idempotency.options.logger.error({ provider: options.provider, error: String(error) }, 'reconcile pass failed');
      }
    });
  }, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
