/** A deadline for one store call: a hung connection must not hang the engine or its heartbeat. */
import { IdempotencyError, StoreUnavailableError } from './errors.js';

/**
 * Resolves or rejects as `call` does, or rejects with `StoreUnavailableError` after `timeoutMs`.
 * The call itself cannot be cancelled; its late outcome is ignored (every write is fenced, so a
 * late write can only apply to this holder's own record).
 * @example const claim = await withStoreTimeout('claim', 5_000, () => store.claim(input));
 */
export function withStoreTimeout<R>(operation: string, timeoutMs: number, call: () => Promise<R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreUnavailableError(operation, new Error(`no answer within ${timeoutMs} ms`))), timeoutMs);
    timer.unref?.();
    let pending: Promise<R>;
    try {
      pending = call();
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        // A store that already classified its failure keeps its own typed error.
        reject(error instanceof IdempotencyError ? error : new StoreUnavailableError(operation, error));
      },
    );
  });
}
