/**
 * The engine: claim -> run -> store -> replay, made safe (ARCHITECTURE.md, "Engine flow").
 * `begin()` (begin.ts) is the primitive; `run()` is sugar over it.
 *
 * Lease timeline of one key (store clock):
 *
 *   claim(v=1)      extend        extend        complete(v=1)
 *   |---leaseMs---->|---leaseMs--->|---leaseMs--->|        record COMPLETED until expiresAt
 *        a duplicate arriving here gets `in_progress` (Retry-After = lockedUntil - now)
 *
 *   claim(v=1)  worker dies            lease over   retry: claim -> PROCESSING(v=2), reclaimed
 *   |---leaseMs----X....................|           the dead worker's late complete(v=1) is 'lost'
 */
import { HeldActionContext } from './action-context.js';
import { createBegin, type BeginOptions, type BeginResult } from './begin.js';
import { createDisabledBegin } from './disabled.js';
import { ExecutionTimeoutError } from './errors.js';
import type { HeldClaim } from './held-claim.js';
import { redact } from './logger.js';
import { resolveOptions, type IdempotencyOptions, type ResolvedOptions } from './options.js';
import type { RunRequest } from './run-request.js';

export type { RunRequest } from './run-request.js';
export type { BeginOptions, BeginResult, Replayed } from './begin.js';
export type { HeldClaim } from './held-claim.js';

export interface ActionContext {
  /**
   * Aborted when the lease is lost or `maxExecutionMs` passes (stop work; nothing this run
   * returns will be stored), or as a notice when the caller's `signal` aborts (a client
   * disconnect: the action decides; a value it still returns is stored).
   */
  readonly signal: AbortSignal;
  /** This holder's fencing token; pass it to downstream writes that can check it. */
  readonly lockVersion: number;
  /** True when this run took over an orphaned claim of a crashed or stalled worker. */
  readonly reclaimed: boolean;
}

export interface RunOptions<T> extends BeginOptions<T> {
  /**
   * Decide per result whether it is stored. `false` releases the claim as if the action had
   * failed transiently (HTTP: a 5xx), and the result is returned unstored.
   */
  readonly shouldStore?: (value: T) => boolean;
}

export interface RunResult<T> {
  readonly value: T;
  /** True when the value is the stored result of an earlier run; the action did not run now. */
  readonly replayed: boolean;
}

export type Action<T> = (context: ActionContext) => Promise<T> | T;

export interface Idempotency {
  /**
   * Run `action` at most once per (scope, key) while the record lives; duplicates get the stored
   * result or a typed `IdempotencyError`.
   * @example
   * const { value, replayed } = await idempotency.run(
   *   { key, scope: user.id, fingerprint: fingerprintFields([amount, currency, recipientId]) },
   *   async ({ signal }) => charge({ amount, currency, recipientId }, { signal }),
   * );
   */
  run<T = unknown>(request: RunRequest, action: Action<T>, options?: RunOptions<T>): Promise<RunResult<T>>;
  /**
   * Phase one alone: validate, claim, answer a duplicate. Returns the replayed value
   * (`outcome: 'replayed'`), throws the typed refusal (`in_progress`, `fingerprint_mismatch`, …),
   * or returns a held claim: do the work, then call exactly one of `complete(value)`,
   * `fail(error)` (permanent, replayed) or `release()` (transient).
   * @example
   * const begun = await idempotency.begin({ key, scope: user.id, fingerprint });
   * if (begun.outcome === 'replayed') return begun.value;
   * let value;
   * try { value = await charge({ signal: begun.signal }); } catch (error) { await begun.release(); throw error; }
   * await begun.complete(value);
   */
  begin<T = unknown>(request: RunRequest, options?: BeginOptions<T>): Promise<BeginResult<T>>;
  /** The resolved options, for adapters and ops tooling. */
  readonly options: ResolvedOptions;
}

/** Rejects with the execution timeout when the held claim's deadline passes first. */
function withDeadline<T>(held: HeldClaim<unknown>, work: Promise<T>): Promise<T> {
  const signal = held.signal;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      if (signal.reason instanceof ExecutionTimeoutError) reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Creates the engine over a store.
 * @example
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
 * const idempotency = createIdempotency({ store: createSqliteStore({ filename: 'idem.db' }), leaseMs: 10_000 });
 */
export function createIdempotency(options: IdempotencyOptions): Idempotency {
  const resolved = resolveOptions(options);
  // Switched off for tests: the same flow, over claims that hold nothing (warned at creation).
  const begin = resolved.enabled ? createBegin(resolved) : createDisabledBegin(resolved);
  const { logger } = resolved;

  async function run<T>(request: RunRequest, action: Action<T>, runOptions: RunOptions<T> = {}): Promise<RunResult<T>> {
    const begun = await begin<T>(request, runOptions);
    if (begun.outcome === 'replayed') return { value: begun.value, replayed: true };
    const held = begun;
    let value: T;
    try {
      const work = Promise.resolve().then(() => action(new HeldActionContext(held)));
      const timed = (runOptions.maxExecutionMs ?? resolved.maxExecutionMs) !== null;
      if (timed) {
        value = await withDeadline(held, work).catch((error: unknown) => {
          // The action outlived its time: give the key back once it settles (fenced by lockVersion).
          if (error instanceof ExecutionTimeoutError) void work.then(() => held.release(), () => held.release());
          throw error;
        });
      } else {
        value = await work;
      }
    } catch (error) {
      if (error instanceof ExecutionTimeoutError && held.lost) throw error;
      if (!held.lost && resolved.classify(error) === 'permanent') await held.fail(error);
      else await held.release();
      throw error;
    }
    if (runOptions.shouldStore && !runOptions.shouldStore(value)) {
      // Never throws: a failed release is logged and the lease lapses; the caller keeps its value.
      const released = await held.release();
      if (!released) logger.warn({ key: redact(request.key) }, 'idempotency release after shouldStore=false not confirmed');
      return { value, replayed: false };
    }
    await held.complete(value);
    return { value, replayed: false };
  }

  return { run, begin: (request, beginOptions) => begin(request, beginOptions), options: resolved };
}
