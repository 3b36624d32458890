/**
 * Bounded in-flight store claims with load shedding. Claims beyond `maxInFlight` wait in a FIFO
 * of at most `maxQueued`; past that a claim is refused at once with `StoreBusyError` instead of
 * growing an unbounded queue in the driver (the pg pool, the one Redis connection) in front of
 * the holders' own writes, which never pass through here.
 */
import { StoreBusyError } from './errors.js';

export interface ClaimLimiter {
  /** Runs `call` when a slot is free; rejects with `StoreBusyError` when the queue is full. */
  run<R>(call: () => Promise<R>): Promise<R>;
  readonly inFlight: number;
  readonly queued: number;
}

/**
 * @example
 * const limiter = createClaimLimiter({ maxInFlight: 64, maxQueued: 10_000 });
 * const claim = await limiter.run(() => store.claim(input));
 */
export function createClaimLimiter({ maxInFlight, maxQueued, retryAfterMs = 1000 }: { maxInFlight: number; maxQueued: number; retryAfterMs?: number }): ClaimLimiter {
  let inFlight = 0;
  // A FIFO as an array with a moving head: shift() on 10^5 waiters would be quadratic.
  let waiting: (() => void)[] = [];
  let head = 0;

  const next = () => {
    inFlight--;
    if (head < waiting.length) {
      const wake = waiting[head]!;
      waiting[head++] = undefined as unknown as () => void;
      if (head > 1024 && head * 2 > waiting.length) {
        waiting = waiting.slice(head);
        head = 0;
      }
      inFlight++;
      wake();
    }
  };

  async function queue<R>(call: () => Promise<R>): Promise<R> {
    if (waiting.length - head >= maxQueued) throw new StoreBusyError(retryAfterMs);
    await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await call();
    } finally {
      next();
    }
  }

  return {
    run<R>(call: () => Promise<R>): Promise<R> {
      if (inFlight >= maxInFlight) return queue(call);
      // The common case, a free slot: no async frame, one reaction to free the slot.
      inFlight++;
      let pending: Promise<R>;
      try {
        pending = call();
      } catch (error) {
        next();
        return Promise.reject(error);
      }
      pending.then(next, next);
      return pending;
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.length - head;
    },
  };
}
