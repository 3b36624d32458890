/**
 * Generated TypeScript: multi-step actions on the runtime's `defineSaga`
 * (`@idempotency-builder/runtime/saga`) — one sub-key per step in the same store, resume from the
 * first incomplete step, compensations in reverse — with the step names the design planned.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';

/** A property name: bare when it is an identifier, quoted otherwise. */
const prop = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name));

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1).replace(/[^A-Za-z0-9]/g, '');

/**
 * The saga factory's name for an action, e.g. `placeOrderSaga`.
 * @example sagaFactoryName(plan.actions[1]) // 'placeOrderSaga'
 */
export const sagaFactoryName = (a: ActionPlan) => `${a.action.name}Saga`;

/**
 * `sagas.ts`, or undefined when no action has several steps.
 * @example sagaFile(plan)?.includes('defineSaga')
 */
export function sagaFile(plan: Plan): string | undefined {
  const sagas = plan.actions.filter((a) => a.saga !== undefined);
  if (sagas.length === 0) return undefined;
  const blocks = sagas.map((a) => {
    const steps = a.saga?.steps ?? [];
    const type = `${pascal(a.action.name)}Steps`;
    const fields = steps
      .map((step) =>
        step.reversible
          ? `  /** Step ${step.index}. Compensation: ${step.compensation}. */\n  readonly ${prop(step.name)}: Pick<SagaStep<I>, 'run' | 'compensate'>;`
          : `  /** Step ${step.index}, irreversible (${step.compensation}): keep it last. */\n  readonly ${prop(step.name)}: Pick<SagaStep<I>, 'run'>;`,
      )
      .join('\n');
    const list = steps.map((step) => `    { name: ${JSON.stringify(step.name)}, ...steps[${JSON.stringify(step.name)}] },`).join('\n');
    return `/** ${a.action.name}: ${steps.map((s) => s.name).join(' → ')}. */
export interface ${type}<I> {
${fields}
}

/**
 * The ${a.action.name} saga. Run it inside the route with the request's key and scope:
 *   const outcome = await ${sagaFactoryName(a)}(steps).run({ key, scope, fingerprint: fingerprint('${a.action.name}', body) }, body);
 * outcome.state is COMPLETED, ROLLED_BACK (a step failed permanently; completed steps were
 * compensated) or COMPENSATION_FAILED (needs a human); a transient error is thrown as is: retry
 * with the same key to resume. Each step's context.key is its sub-key — derive provider keys from
 * it (stripeIdempotencyKey({ key, scope }) from '@idempotency-builder/runtime/payments').
 */
export function ${sagaFactoryName(a)}<I>(steps: ${type}<I>, engine: Idempotency = idempotency): Saga<I> {
  return defineSaga<I>(${JSON.stringify(a.action.name)}, [
${list}
  ], { idempotency: engine });
}
`;
  });
  return `// Multi-step actions on the idempotency-builder runtime's defineSaga: the outer key covers the saga,
// each step runs once under its sub-key {key}:{step} in the same store and its result is stored, a
// retry resumes from the first incomplete step, and a permanent failure compensates the completed
// steps in reverse (each compensation itself once, under {key}:{step}:compensate). The state
// machine (STEP_n_DONE … COMPLETED, or STEP_n_FAILED → COMPENSATING → ROLLED_BACK) is stored and
// readable with saga.status(key, scope). No second database, no orchestrator.
import type { Idempotency } from '@idempotency-builder/runtime';
import { defineSaga, type Saga, type SagaStep } from '@idempotency-builder/runtime/saga';
import { idempotency } from './idempotency.js';

${blocks.join('\n')}`;
}
