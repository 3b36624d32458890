/** The public shapes of a saga: steps, their contexts, outcomes and the queryable status. */
import type { StoredFailure } from '../core/errors.js';

export interface SagaStepContext<I> {
  /** The caller's input of this attempt (a retry passes it again; the fingerprint proves it is the same). */
  readonly input: I;
  /** Results of the steps before this one, by step name (replayed from the store on a resume). */
  readonly results: Readonly<Record<string, unknown>>;
  /** This step's sub-key `{key}:{step}`: derive provider keys from it (e.g. `stripeIdempotencyKey`). */
  readonly key: string;
  readonly scope: string;
  /** Aborted when this step's lease is lost: stop, nothing it returns is stored. */
  readonly signal: AbortSignal;
  /** True when this step took over a crashed attempt's claim: its effect may have begun; use the key. */
  readonly reclaimed: boolean;
}

export interface SagaCompensateContext<I> extends SagaStepContext<I> {
  /** What this step's `run` returned (stored), to undo exactly that. */
  readonly result: unknown;
}

export interface SagaStep<I = unknown> {
  /** `[A-Za-z0-9_.~-]`, 1–64 chars, unique in the saga: it names the sub-key. */
  readonly name: string;
  /** The forward action; its JSON result is stored under the step's sub-key. */
  run(context: SagaStepContext<I>): unknown;
  /** Undo of a completed `run`, itself run once per saga under `{key}:{step}:compensate`. */
  compensate?(context: SagaCompensateContext<I>): unknown;
}

/** Transitions (spec §7): STEP_n_DONE → … → COMPLETED, or STEP_n_FAILED → COMPENSATING → ROLLED_BACK. */
export type SagaState =
  | 'STARTED'
  | `STEP_${number}_DONE`
  | `STEP_${number}_FAILED`
  | 'COMPENSATING'
  | 'ROLLED_BACK'
  | 'COMPENSATION_FAILED'
  | 'COMPLETED'
  | 'FAILED';

export type SagaOutcome =
  | { readonly state: 'COMPLETED'; readonly results: Readonly<Record<string, unknown>> }
  | { readonly state: 'ROLLED_BACK'; readonly failedStep: string; readonly error: StoredFailure }
  /** A compensation failed permanently: the saga needs a human (the error says which). */
  | { readonly state: 'COMPENSATION_FAILED'; readonly failedStep: string; readonly compensationStep: string; readonly error: StoredFailure };

export type SagaRunResult = SagaOutcome & {
  /** True when the outcome is the stored one of an earlier attempt. */
  readonly replayed: boolean;
};

export type StepRecordStatus = 'PENDING' | 'PROCESSING' | 'DONE' | 'FAILED';

export interface SagaStatus {
  readonly state: SagaState;
  /** The step the state names (the last done, or the failed one). */
  readonly step: string | null;
  /** True while an attempt holds the saga's outer key with a live lease. */
  readonly running: boolean;
  readonly steps: readonly { readonly name: string; readonly run: StepRecordStatus; readonly compensation: StepRecordStatus | null }[];
}

/** Called after every stored transition (observability, tests). */
export type SagaTransitionHook = (event: { readonly key: string; readonly scope: string; readonly state: SagaState; readonly step: string | null }) => unknown;
