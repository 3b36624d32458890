/**
 * The abort signal handed to an action, created only if the action asks for it: AbortController
 * construction is a measurable share of a protected call on fast stores, and most actions never
 * read the signal. Losing the lease is recorded either way.
 */
export class LeaseSignal {
  #controller: AbortController | undefined;
  #reason: unknown;
  #lost = false;

  get lost(): boolean {
    return this.#lost;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#lost) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}
