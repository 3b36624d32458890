/**
 * Multi-step (saga) actions: step sub-keys, compensations, and the state machine the outer key
 * moves through. A retry resumes from the last incomplete step, never from the beginning.
 */
import { stepKey } from '@idempotency-builder/runtime/saga';
import type { Action } from '../../answers.js';

export interface SagaStep {
  readonly index: number;
  readonly name: string;
  /** `{key}_{index}`: the sub-key passed to whatever the step calls. */
  readonly subKeyExample: string;
  readonly compensation: string;
  readonly reversible: boolean;
}

export interface SagaPlan {
  readonly steps: readonly SagaStep[];
  readonly states: readonly string[];
  /** ASCII state machine. */
  readonly diagram: string;
  /** Steps that cannot be undone and should therefore run last. */
  readonly irreversible: readonly string[];
  /**
   * Where progress is kept: `runtime` = the runtime's defineSaga (every step its own record in the
   * engine's store, sub-key `{key}:{step}`); `step-table` = the standalone languages' step table
   * (sub-key `{key}_{n}`).
   */
  readonly runner: 'runtime' | 'step-table';
  /** The sub-key pattern the generated code uses, for prose. */
  readonly subKeyPattern: string;
}

const COMPENSATIONS: readonly [RegExp, (step: string) => string, boolean][] = [
  [/reserve|hold|allocate|lock/i, (step) => `release what ${step} reserved`, true],
  [/charge|capture|pay|debit|collect/i, (step) => `refund the amount ${step} took (with its own sub-key, so the refund is idempotent too)`, true],
  [/authori[sz]e/i, () => 'void / cancel the authorisation', true],
  [/create|insert|open|book|register/i, (step) => `cancel or soft-delete what ${step} created`, true],
  [/credit|transfer|payout/i, (step) => `reverse the transfer ${step} made`, true],
  [/send|notify|email|sms|publish|ship|deliver/i, () => 'none possible — it cannot be unsent; send a correction if needed', false],
];

function compensationFor(step: string): { text: string; reversible: boolean } {
  for (const [pattern, text, reversible] of COMPENSATIONS) if (pattern.test(step)) return { text: text(step), reversible };
  return { text: `undo ${step} with an explicit inverse operation`, reversible: true };
}

/**
 * The saga plan for an action with several steps, or undefined.
 * @example planSaga({ steps: ['reserveStock', 'chargeCard', 'confirmOrder'], ... }, key)?.states[0] // 'PROCESSING'
 */
export function planSaga(action: Action, storedKey: string, runtimeRunner = false): SagaPlan | undefined {
  const names = action.steps ?? [];
  if (names.length < 2) return undefined;
  const steps = names.map((name, offset) => {
    const { text, reversible } = compensationFor(name);
    // The runtime's runner (TypeScript) keys a step `{key}:{step}`; the standalone languages' step table `{key}_{n}`.
    const subKeyExample = runtimeRunner ? stepKey(storedKey, name) : `${storedKey}_${offset + 1}`;
    return { index: offset + 1, name, subKeyExample, compensation: text, reversible };
  });
  const done = steps.map((step) => `STEP_${step.index}_DONE`);
  const states = ['PROCESSING', ...done, 'COMPLETED', ...steps.slice(1).map((step) => `STEP_${step.index}_FAILED`), 'COMPENSATING', 'ROLLED_BACK', 'FAILED'];
  const lines: string[] = [];
  lines.push(`PROCESSING ──${steps[0]?.name} ok──▶ ${done[0]}`);
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i] as SagaStep;
    lines.push(`${done[i - 1]} ──${step.name} ok──▶ ${done[i]}`);
  }
  lines.push(`${done[done.length - 1]} ──record result──▶ COMPLETED`);
  lines.push('');
  lines.push(`PROCESSING ──${steps[0]?.name} fails permanently──▶ FAILED        (nothing to undo)`);
  for (let i = 1; i < steps.length; i++) {
    const step = steps[i] as SagaStep;
    lines.push(`${done[i - 1]} ──${step.name} fails permanently──▶ STEP_${step.index}_FAILED ──▶ COMPENSATING`);
  }
  lines.push(`COMPENSATING ──undo ${steps.slice(0, -1).map((step) => step.name).reverse().join(', then ')} ──▶ ROLLED_BACK`);
  lines.push('');
  lines.push('Crash anywhere: the state stays as recorded; the reclaiming worker resumes at the first step not DONE.');
  const irreversible = steps.filter((step) => !step.reversible).map((step) => step.name);
  return {
    steps,
    states,
    diagram: lines.join('\n'),
    irreversible,
    runner: runtimeRunner ? 'runtime' : 'step-table',
    subKeyPattern: runtimeRunner ? stepKey('{key}', '{step}') : '{key}_{n}',
  };
}
