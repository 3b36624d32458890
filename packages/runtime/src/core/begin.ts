/**
 * `begin()`: the first phase of the engine — validate, claim, answer a duplicate — returning
 * either the duplicate's answer or a held claim (see held-claim.ts). `run()`, the HTTP layer and
 * transactional mode are all built on it, so every caller refuses, replays and claims the same way.
 */
import { createClaimLimiter, type ClaimLimiter } from './claim-limiter.js';
import { answerDuplicate } from './duplicate-answer.js';
import { InProgressError } from './errors.js';
import { holdClaim, type CallerSignal, type HeldClaim } from './held-claim.js';
import { resolveCallDurations, type ResolvedOptions } from './options.js';
import type { IdempotencyRecord } from './record.js';
import { createReplayCache, type ReplayCache } from './replay-cache.js';
import { validateRunRequest, type RunRequest } from './run-request.js';
import { jsonSerializer, type ResultSerializer } from './serializer.js';
import { createSingleFlight, localRecord, slotOf, type Flight, type SingleFlight } from './single-flight.js';
import type { ClaimResult, IdempotencyStore } from './store-contract.js';
import { withStoreTimeout } from './store-timeout.js';

export interface BeginOptions<T> {
  /** How the result is kept and replayed. Default: JSON. */
  readonly serializer?: ResultSerializer<T>;
  /**
   * Instead of answering `in_progress` at once, wait up to this long for the first holder to
   * finish and replay its result (or take over if its lease ends). Default 0.
   */
  readonly waitMs?: number;
  /** Per-call overrides of the engine's lease and retention, validated like the engine's (leaseMs >= 10, ttlMs >= leaseMs). */
  readonly leaseMs?: number;
  readonly ttlMs?: number;
  /** Per-call maximum execution time; default the engine's `maxExecutionMs`. */
  readonly maxExecutionMs?: number;
  /**
   * The caller's own signal, e.g. aborted when the HTTP client disconnects. It reaches the work
   * through the held claim's `signal` as a notice: the work decides whether to stop, and a value
   * it still returns is stored as usual. A function is called only if the work reads its signal
   * (an adapter then makes no AbortController for the many requests that never look).
   */
  readonly signal?: CallerSignal;
}

/** A duplicate answered from the store: the stored value; the work did not run now. */
export interface Replayed<T> {
  readonly outcome: 'replayed';
  readonly value: T;
  readonly replayed: true;
}

export type BeginResult<T> = Replayed<T> | HeldClaim<T>;

/** Where one `begin()` claims: the engine's store, or (transactional mode) a store bound to the caller's transaction. */
export interface BeginVia {
  readonly store: IdempotencyStore;
  /** Use the engine's single-flight and claim limiter (false inside a caller's transaction). */
  readonly shared: boolean;
}

export type Begin = <T>(request: RunRequest, options?: BeginOptions<T>, via?: BeginVia) => Promise<BeginResult<T>>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Step<T> = { readonly held: HeldClaim<T> } | { readonly answer: Replayed<T> | InProgressError; readonly flight?: Flight };

/**
 * Builds `begin` over resolved engine options.
 * @example
 * const begin = createBegin(resolveOptions({ store }));
 * const begun = await begin({ key, scope, fingerprint });
 * if (begun.outcome === 'replayed') return begun.value;
 * try { await begun.complete(await work(begun.signal)); } catch (error) { await begun.release(); throw error; }
 */
export function createBegin(resolved: ResolvedOptions): Begin {
  const { codec, metrics } = resolved;
  const flights: SingleFlight | null = resolved.singleFlight ? createSingleFlight() : null;
  const limiter: ClaimLimiter = createClaimLimiter({ maxInFlight: resolved.maxInFlightClaims, maxQueued: resolved.maxQueuedClaims });
  const engineVia: BeginVia = { store: resolved.store, shared: true };
  const cache: ReplayCache | null = resolved.replayCache ? createReplayCache(resolved.replayCache) : null;

  /**
   * The flood's hot path: a duplicate of a key this engine is claiming or holding, answered with
   * as little allocation as possible (10^5 of them may be pending at once).
   */
  async function answerLocally<T>(joined: Flight, request: RunRequest, serializer: ResultSerializer<T>): Promise<Replayed<T> | InProgressError> {
    const claim = await joined.claim;
    const { record, now } = claim.outcome === 'existing' ? claim : localRecord(joined, joined.held!, request.key, request.scope);
    const answered = await answerDuplicate({ request, record, now, codec, serializer, metrics });
    return answered instanceof InProgressError ? answered : { outcome: 'replayed', value: answered.value, replayed: true };
  }

  return async function begin<T>(request: RunRequest, options: BeginOptions<T> = {}, via: BeginVia = engineVia): Promise<BeginResult<T>> {
    validateRunRequest(request, resolved.maxKeyLength);
    const durations = resolveCallDurations(resolved, options);
    const serializer = options.serializer ?? (jsonSerializer as ResultSerializer<T>);
    if (cache !== null && via.shared) {
      // Answered exactly as the store's copy would be (owner, fingerprint, expiry checked again).
      const hit = cache.get(request.scope, request.key);
      if (hit) {
        const answered = await answerDuplicate({ request, record: hit.record, now: hit.now, codec, serializer, metrics });
        if (!(answered instanceof InProgressError)) return { outcome: 'replayed', value: answered.value, replayed: true };
      }
    }
    if (durations.waitMs === 0 && via.shared && flights !== null) {
      const joined = flights.find(slotOf(request.scope, request.key));
      if (joined) {
        const answer = await answerLocally(joined, request, serializer);
        if (answer instanceof InProgressError) throw answer;
        return answer;
      }
    }
    const { store } = via;
    const claimInput = {
      key: request.key,
      scope: request.scope,
      fingerprint: request.fingerprint,
      owner: request.owner ?? null,
      leaseMs: durations.leaseMs,
      ttlMs: durations.ttlMs,
      replaceExpired: resolved.onExpired === 'new',
    };
    const claimOnce = () => withStoreTimeout('claim', resolved.storeTimeoutMs, () => store.claim(claimInput));
    const hold = (claim: Extract<ClaimResult, { outcome: 'claimed' }>, onEnd?: () => void) =>
      holdClaim({
        resolved,
        store,
        request,
        lockVersion: claim.lockVersion,
        reclaimed: claim.reclaimed,
        leaseMs: durations.leaseMs,
        ttlMs: durations.ttlMs,
        maxExecutionMs: durations.maxExecutionMs,
        serializer,
        // Plain fields, not conditional spreads: this object is built once per new key.
        signal: options.signal,
        onEnd,
        onCompleted: cache !== null && via.shared ? (record: IdempotencyRecord, now: number) => cache.put(record, now) : undefined,
      });
    const answer = async (record: IdempotencyRecord, now: number) => {
      if (cache !== null && via.shared) cache.put(record, now);
      const answered = await answerDuplicate({ request, record, now, codec, serializer, metrics });
      return answered instanceof InProgressError ? answered : ({ outcome: 'replayed', value: answered.value, replayed: true } as const);
    };

    async function step(): Promise<Step<T>> {
      if (!via.shared || flights === null) {
        const claim = await (via.shared ? limiter.run(claimOnce) : claimOnce());
        if (claim.outcome === 'claimed') return { held: hold(claim).held };
        return { answer: await answer(claim.record, claim.now) };
      }
      const slot = slotOf(request.scope, request.key);
      const joined = flights.find(slot);
      if (joined) {
        // Someone in this process is claiming or holding the key: no store call for us.
        const claim = await joined.claim;
        // Held elsewhere: poll like everyone else (this flight has already ended).
        if (claim.outcome === 'existing') return { answer: await answer(claim.record, claim.now) };
        const local = localRecord(joined, joined.held!, request.key, request.scope);
        return { answer: await answer(local.record, local.now), flight: joined };
      }
      let held: HeldClaim<T> | undefined;
      const flight: Flight = flights.start(slot, request.fingerprint, request.owner ?? null, () =>
        limiter.run(claimOnce).then((claim) => {
          // Set before anyone who joined sees the claim, so they answer from the holder.
          if (claim.outcome === 'claimed') {
            const holding = hold(claim, () => flights.end(slot, flight));
            held = holding.held;
            flight.held = holding.view;
          }
          return claim;
        }),
      );
      let claim: ClaimResult;
      try {
        claim = await flight.claim;
      } catch (error) {
        flights.end(slot, flight);
        throw error;
      }
      if (claim.outcome === 'claimed') return { held: held! };
      flights.end(slot, flight);
      return { answer: await answer(claim.record, claim.now) };
    }

    const deadline = Date.now() + durations.waitMs;
    let pollMs = 25;
    for (;;) {
      const next = await step();
      if ('held' in next) return next.held;
      if (!(next.answer instanceof InProgressError)) return next.answer;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw next.answer;
      if (next.flight) {
        // A local holder: wake when it finishes instead of polling the store.
        await Promise.race([next.flight.ended, sleep(remaining)]);
      } else {
        await sleep(Math.min(pollMs, remaining, Math.max(next.answer.retryAfterMs, 5)));
        pollMs = Math.min(pollMs * 2, 250);
      }
    }
  };
}
