/**
 * The lease heartbeat: while an action runs, extend its lease every leaseMs/3. If the store says
 * the lease is lost, or no extension has succeeded for a whole lease, abort the action's signal —
 * from then on another worker may hold the key, and this one must not write.
 */
import { LeaseLostError } from './errors.js';
import type { Logger } from './logger.js';
import type { ExtendInput, IdempotencyStore } from '../stores/contract.js';

export interface Heartbeat {
  /** Stops extending; resolves once no extension is in flight. */
  stop(): Promise<void>;
}

export function startHeartbeat(
  store: IdempotencyStore,
  input: ExtendInput,
  controller: AbortController,
  logger: Logger,
  logFields: Record<string, string>,
): Heartbeat {
  const intervalMs = Math.max(5, Math.floor(input.leaseMs / 3));
  let lastSuccess = Date.now(); // local monotonic-enough bookkeeping only; the lease itself is store-clocked
  let inFlight: Promise<void> = Promise.resolve();
  let stopped = false;

  const beat = async (): Promise<void> => {
    try {
      const result = await store.extend(input);
      if (result === 'lost') {
        logger.warn(logFields, 'idempotency lease lost to a newer holder; aborting the action');
        controller.abort(new LeaseLostError());
        return;
      }
      lastSuccess = Date.now();
    } catch (error) {
      logger.warn({ ...logFields, error: error instanceof Error ? error.message : String(error) }, 'idempotency lease extension failed');
      if (Date.now() - lastSuccess >= input.leaseMs) {
        controller.abort(new LeaseLostError('The lease could not be extended for a whole lease period.'));
      }
    }
  };

  const timer = setInterval(() => {
    if (stopped || controller.signal.aborted) return;
    inFlight = inFlight.then(beat);
  }, intervalMs);
  timer.unref?.();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
