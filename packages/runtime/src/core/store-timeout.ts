/**
 * A deadline for one store call: a hung connection must not hang the engine or its heartbeat.
 *
 * Calls with the same timeout share one coarse timer that ticks every timeoutMs/8, so a call
 * fails between timeoutMs and 1.125 × timeoutMs after it started. A timer per call (set, unref,
 * clear) was a measurable share of a protected call on a fast store, paid two or three times per
 * call, for a deadline that almost never fires.
 */
import { IdempotencyError, StoreUnavailableError } from './errors.js';

interface Pending {
  readonly operation: string;
  readonly startedAt: number;
  readonly reject: (error: unknown) => void;
}

interface Sweeper {
  readonly pending: Set<Pending>;
  timer: ReturnType<typeof setInterval> | undefined;
}

const sweepers = new Map<number, Sweeper>();

function sweeperFor(timeoutMs: number): Sweeper {
  const sweeper = sweepers.get(timeoutMs);
  if (sweeper) return sweeper;
  const created: Sweeper = { pending: new Set(), timer: undefined };
  sweepers.set(timeoutMs, created);
  return created;
}

function arm(timeoutMs: number, sweeper: Sweeper): void {
  const tickMs = Math.max(1, Math.ceil(timeoutMs / 8));
  sweeper.timer = setInterval(() => {
    if (sweeper.pending.size === 0) {
      // Idle for a whole tick: stop until the next call (an idle process keeps no timer).
      clearInterval(sweeper.timer);
      sweeper.timer = undefined;
      if (sweepers.get(timeoutMs) === sweeper) sweepers.delete(timeoutMs);
      return;
    }
    const now = Date.now();
    for (const call of sweeper.pending) {
      // Insertion order is start order: the first call still inside its time ends the sweep.
      if (now - call.startedAt < timeoutMs) break;
      sweeper.pending.delete(call);
      call.reject(new StoreUnavailableError(call.operation, new Error(`no answer within ${timeoutMs} ms`)));
    }
  }, tickMs);
  sweeper.timer.unref?.();
}

/**
 * Resolves or rejects as `call` does, or rejects with `StoreUnavailableError` once `timeoutMs`
 * has passed (checked every timeoutMs/8). The call itself cannot be cancelled; its late outcome
 * is ignored (every write is fenced, so a late write can only apply to this holder's own record).
 * @example const claim = await withStoreTimeout('claim', 5_000, () => store.claim(input));
 */
export function withStoreTimeout<R>(operation: string, timeoutMs: number, call: () => Promise<R>): Promise<R> {
  const sweeper = sweeperFor(timeoutMs);
  return new Promise<R>((resolve, reject) => {
    const entry: Pending = { operation, startedAt: Date.now(), reject };
    sweeper.pending.add(entry);
    if (sweeper.timer === undefined) arm(timeoutMs, sweeper);
    let pending: Promise<R>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        sweeper.pending.delete(entry);
        resolve(value);
      },
      (error: unknown) => {
        sweeper.pending.delete(entry);
        // A store that already classified its failure keeps its own typed error.
        reject(error instanceof IdempotencyError ? error : new StoreUnavailableError(operation, error));
      },
    );
  });
}
