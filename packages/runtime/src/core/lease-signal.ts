/**
 * The abort signal handed to an action, created only if the action asks for it: AbortController
 * construction is a measurable share of a protected call on fast stores, and most actions never
 * read the signal.
 *
 * Two kinds of abort: `abort()` means this holder no longer owns the key (lease lost, or its
 * maximum execution time passed) and nothing it returns may be stored; `notify()` only tells the
 * action something it may act on (the client went away) — the action decides, and a value it
 * still returns is stored as usual.
 */
export class LeaseSignal {
  #controller: AbortController | undefined;
  #reason: unknown;
  #aborted = false;
  #lost = false;
  #lostReason: unknown;

  /** True once the holder may no longer write: lease lost or execution time over. */
  get lost(): boolean {
    return this.#lost;
  }

  /** Why the signal aborted (a `LeaseLostError`, an `ExecutionTimeoutError`, the client's reason). */
  get reason(): unknown {
    return this.#reason;
  }

  /** Why the holder lost the key (set by `abort()` only). */
  get lostReason(): unknown {
    return this.#lostReason;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** The holder lost the key: abort the signal and refuse every later write. */
  abort(reason: unknown): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#lostReason = reason;
    this.#fire(reason);
  }

  /** Abort the signal as a notice only; the holder still owns the key. */
  notify(reason: unknown): void {
    this.#fire(reason);
  }

  #fire(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
