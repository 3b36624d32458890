/** Section 7: multi-step (saga) idempotency — sub-keys, compensation, resume point, state machine. */
import { bullets, callout, code, labelled, para, plain, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { ActionPlan } from '../plan/plan.js';
import { actionAnchor, type DesignContext } from './context.js';
import { sagaStateDiagram } from './diagrams.js';
import { compensationKey, stepKey } from '@idempotency-builder/runtime/saga';

function sagaFor(a: ActionPlan): Section | undefined {
  const saga = a.saga;
  if (!saga) return undefined;
  return section(actionAnchor('saga', a), `Saga of ${a.action.name}`, [
    table(
      ['Step', 'Sub-key (example)', 'Compensation'],
      saga.steps.map((step) => [`${step.index}. ${step.name}`, [code(step.subKeyExample)], step.compensation]),
    ),
    sagaStateDiagram(a.action.name, saga),
    ...(saga.irreversible.length > 0 && saga.irreversible.some((name) => name !== saga.steps[saga.steps.length - 1]?.name)
      ? [callout('warning', 'Order irreversible steps last', [txt`${saga.irreversible.join(', ')} cannot be undone; move ${saga.irreversible.length === 1 ? 'it' : 'them'} after every step that can fail, so no compensation ever needs to reverse ${saga.irreversible.length === 1 ? 'it' : 'them'}.`])]
      : []),
  ]);
}

/**
 * Section 7: saga state machines for multi-step actions (or why none is needed).
 * @example sagaSection({ plan, artifacts })
 */
export function sagaSection(ctx: DesignContext): Section {
  const sagas = ctx.plan.actions.map(sagaFor).filter((s): s is Section => s !== undefined);
  if (sagas.length === 0) {
    return section('saga', '7. Multi-step (saga) idempotency', [
      para(txt`No protected action has several steps: one record per key is enough.`),
    ]);
  }
  if (ctx.plan.stack.language === 'typescript') {
    return section(
      'saga',
      '7. Multi-step (saga) idempotency',
      [
        para(txt`The generated ${code('sagas.ts')} runs each saga with the runtime’s runner, ${code('defineSaga')} from ${code('@idempotency-builder/runtime/saga')}: one outer key covers the saga and every step is a record of its own in the same store — no second table, no orchestrator.`),
        bullets([
          labelled('Sub-keys', txt`step ${code(stepKey('{key}', '{step}'))}, compensation ${code(compensationKey('{key}', '{step}'))}, each claimed, run and stored through the same engine (fenced, leased, replayed); a provider call inside a step derives its provider key from the step’s key.`),
          labelled('Resume', txt`a retry of the outer key replays every completed step from its record and runs from the first step without one — a completed step never runs twice.`),
          labelled('Compensation', txt`a permanent failure of step n runs the compensations of the completed steps newest first, each itself idempotent and resumable; the saga ends ROLLED_BACK and later retries are answered ROLLED_BACK.`),
          labelled('State', txt`${code('saga.status(key, scope)')} reads the records: STEP_n_DONE → … → COMPLETED, or STEP_n_FAILED → COMPENSATING → ROLLED_BACK.`),
        ]),
      ],
      sagas,
    );
  }
  return section(
    'saga',
    '7. Multi-step (saga) idempotency',
    [
      para(txt`A saga is protected by one outer key for the whole operation and one sub-key per step. The outer record stays PROCESSING (its status CHECK is unchanged) until the saga is COMPLETED, or FAILED after compensation; the step table records where it is.`),
      bullets([
        labelled('Step tracking', txt`one row per step in \`idempotency_store_saga_step\` (primary key: key, user, step), written with \`saga_step_mark\` only while the caller still holds the outer key’s lock_version — a worker that lost its lease cannot record a step.`),
        labelled('Sub-keys', txt`each step’s external call carries \`{key}_{n}\` (and the provider key derived from it), so re-issuing an interrupted step is deduplicated by the provider.`),
        labelled('Resume', txt`a retry (or the reclaiming worker) reads the step rows and starts at the first step not DONE — never from the beginning.`),
        labelled('Compensation', txt`a permanent failure at step n marks STEP_n_FAILED, then COMPENSATING: completed steps are undone newest first, each with its own sub-key; when all are COMPENSATED the saga is ROLLED_BACK and the outer record is FAILED with that answer, replayed to later retries.`),
      ]),
      para(plain('States: PROCESSING → STEP_1_DONE → STEP_2_DONE → … → COMPLETED, or STEP_n_FAILED → COMPENSATING → ROLLED_BACK.')),
    ],
    sagas,
  );
}
