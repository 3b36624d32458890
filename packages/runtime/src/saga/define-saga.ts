/**
 * `defineSaga()`: a multi-step action that resumes (spec §7) on any store, through the engine's
 * `run()` only. The outer key covers the saga (one attempt at a time; the outcome replayed); each
 * step runs under its own sub-key `{key}:{step}` whose stored result a retry replays, so a resumed
 * attempt skips every completed step. A step's permanent failure (the engine's `isPermanent`) is
 * stored as that step's FAILED record; compensations of the completed steps then run in reverse,
 * each under `{key}:{step}:compensate`, so they too run once and resume after a crash.
 *
 *   attempt 1: claim K ─ K:reserve ✓ ─ K:charge ✓ ─ ✗ crash
 *   attempt 2: reclaim K ─ K:reserve (replayed) ─ K:charge (replayed) ─ K:confirm ✓ ─ complete K = COMPLETED
 */
import type { Idempotency, RunRequest } from '../core/engine.js';
import { InvalidOptionsError, ReplayedFailureError, type StoredFailure } from '../core/errors.js';
import { toStoredFailure } from '../core/serializer.js';
import { compensationKey, sagaFingerprint, stepFingerprint, stepKey } from './saga-keys.js';
import { readSagaStatus } from './saga-status.js';
import type { SagaOutcome, SagaRunResult, SagaState, SagaStatus, SagaStep, SagaTransitionHook } from './saga-types.js';

const STEP_NAME = /^[A-Za-z0-9_.~-]{1,64}$/;

export interface SagaOptions {
  /** The engine whose store keeps the saga's records and whose `isPermanent` says which step errors are final. */
  readonly idempotency: Idempotency;
  readonly onTransition?: SagaTransitionHook;
}

export interface SagaRunOptions {
  /**
   * Wait up to this long for a crashed attempt's lease to end and take over, instead of answering
   * `in_progress` at once. Default 0.
   */
  readonly waitMs?: number;
}

export interface Saga<I> {
  readonly name: string;
  /**
   * Runs the saga, or resumes it from its first incomplete step, or replays its outcome. Throws
   * `InProgressError` while another attempt holds the key, and a step's transient error as is
   * (nothing rolled back: retry with the same key to resume).
   * @example
   * const outcome = await checkout.run({ key: orderId, scope: user.id, fingerprint }, { orderId, amount });
   * if (outcome.state === 'ROLLED_BACK') return res.status(402).json(outcome.error);
   */
  run(request: RunRequest, input: I, options?: SagaRunOptions): Promise<SagaRunResult>;
  /**
   * The stored state machine of one saga: STEP_n_DONE, STEP_n_FAILED, COMPENSATING, ROLLED_BACK,
   * COMPLETED…; null when it never started.
   * @example const { state } = (await checkout.status(orderId, user.id)) ?? { state: 'NONE' };
   */
  status(key: string, scope: string): Promise<SagaStatus | null>;
}

/** The stored failure a permanent step error leaves, whether thrown now or replayed from its record. */
function failureOf(error: unknown): StoredFailure {
  return error instanceof ReplayedFailureError ? error.stored : toStoredFailure(error);
}

function validateSteps<I>(name: string, steps: readonly SagaStep<I>[]): void {
  if (typeof name !== 'string' || !STEP_NAME.test(name)) throw new InvalidOptionsError(`Saga name must match ${STEP_NAME}; got ${JSON.stringify(name)}.`);
  if (!Array.isArray(steps) || steps.length === 0) throw new InvalidOptionsError(`Saga "${name}" needs at least one step.`);
  const seen = new Set<string>();
  for (const step of steps) {
    if (typeof step?.name !== 'string' || !STEP_NAME.test(step.name)) {
      throw new InvalidOptionsError(`Saga "${name}": step name must match ${STEP_NAME}; got ${JSON.stringify(step?.name)}.`);
    }
    if (seen.has(step.name)) throw new InvalidOptionsError(`Saga "${name}": step "${step.name}" appears twice.`);
    seen.add(step.name);
    if (typeof step.run !== 'function') throw new InvalidOptionsError(`Saga "${name}": step "${step.name}" needs a run function.`);
    if (step.compensate !== undefined && typeof step.compensate !== 'function') {
      throw new InvalidOptionsError(`Saga "${name}": step "${step.name}" has a compensate that is not a function.`);
    }
  }
}

/**
 * Defines a saga over an engine. Steps run in order; a completed step never runs again for the
 * same key; a permanent failure compensates the completed steps in reverse.
 * @example
 * const checkout = defineSaga('checkout', [
 *   { name: 'reserve', run: ({ input }) => inventory.reserve(input.sku), compensate: ({ result }) => inventory.release(result) },
 *   { name: 'charge', run: ({ input, key, scope }) => stripe.paymentIntents.create(params, { idempotencyKey: stripeIdempotencyKey({ key, scope }) }) },
 *   { name: 'confirm', run: ({ input }) => orders.confirm(input.orderId) },
 * ], { idempotency });
 */
export function defineSaga<I = unknown>(name: string, steps: readonly SagaStep<I>[], options: SagaOptions): Saga<I> {
  validateSteps(name, steps);
  const idempotency = options?.idempotency;
  if (typeof idempotency?.run !== 'function' || idempotency.options?.store === undefined) {
    throw new InvalidOptionsError(`Saga "${name}" needs an "idempotency" engine (createIdempotency).`);
  }
  const onTransition = options.onTransition;
  const { classify, store, leaseMs } = idempotency.options;
  const names = steps.map((step) => step.name);
  const compensable = new Set(steps.filter((step) => step.compensate).map((step) => step.name));
  const isPermanent = (error: unknown) => error instanceof ReplayedFailureError || classify(error) === 'permanent';

  async function run(request: RunRequest, input: I, runOptions: SagaRunOptions = {}): Promise<SagaRunResult> {
    const { key, scope } = request;
    const transition = async (state: SagaState, step: string | null) => {
      await onTransition?.({ key, scope, state, step });
    };
    // A sub-record held by a crashed attempt is waited for (one lease), then taken over.
    const sub = (subKey: string, fingerprint: string) => ({ key: subKey, scope, fingerprint, ...(request.owner === undefined ? {} : { owner: request.owner }) });
    const subOptions = { waitMs: leaseMs };

    const outer = await idempotency.run<SagaOutcome>(
      { ...request, fingerprint: sagaFingerprint(name, request.fingerprint) },
      async () => {
        const results: Record<string, unknown> = {};
        let failed: { index: number; error: StoredFailure } | null = null;
        for (const [index, step] of steps.entries()) {
          try {
            const done = await idempotency.run(
              sub(stepKey(key, step.name), stepFingerprint(name, request.fingerprint, step.name, 'run')),
              ({ signal, reclaimed }) => step.run({ input, results: { ...results }, key: stepKey(key, step.name), scope, signal, reclaimed }),
              subOptions,
            );
            results[step.name] = done.value;
            if (!done.replayed) await transition(`STEP_${index + 1}_DONE`, step.name);
          } catch (error) {
            if (!isPermanent(error)) throw error; // transient: the outer key is released; a retry resumes here
            failed = { index, error: failureOf(error) };
            break;
          }
        }
        if (failed === null) return { state: 'COMPLETED', results };

        const failedStep = names[failed.index]!;
        await transition(`STEP_${failed.index + 1}_FAILED`, failedStep);
        await transition('COMPENSATING', failedStep);
        for (let index = failed.index - 1; index >= 0; index -= 1) {
          const step = steps[index]!;
          if (!step.compensate) continue;
          const compensate = step.compensate.bind(step);
          try {
            const done = await idempotency.run(
              sub(compensationKey(key, step.name), stepFingerprint(name, request.fingerprint, step.name, 'compensate')),
              async ({ signal, reclaimed }) => {
                await compensate({ input, results: { ...results }, result: results[step.name], key: compensationKey(key, step.name), scope, signal, reclaimed });
                return null;
              },
              subOptions,
            );
            if (!done.replayed) await transition('COMPENSATING', step.name);
          } catch (error) {
            if (!isPermanent(error)) throw error; // resumable: completed compensations replay, this one retries
            return { state: 'COMPENSATION_FAILED', failedStep, compensationStep: step.name, error: failureOf(error) };
          }
        }
        return { state: 'ROLLED_BACK', failedStep, error: failed.error };
      },
      runOptions.waitMs === undefined ? {} : { waitMs: runOptions.waitMs },
    );
    if (!outer.replayed) await transition(outer.value.state, outer.value.state === 'COMPLETED' ? null : outer.value.failedStep);
    return { ...outer.value, replayed: outer.replayed };
  }

  return {
    name,
    run,
    status: (key, scope) => readSagaStatus(store, names, compensable, key, scope),
  };
}
