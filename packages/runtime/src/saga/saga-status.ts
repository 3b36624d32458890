/**
 * `saga.status()`: the state machine read back from the stored records — the outer key's record
 * and one per step and compensation. Each transition is one fenced write of one of those records,
 * so the state is exactly what survived a crash; no record needs rewriting.
 */
import type { IdempotencyRecord } from '../core/record.js';
import type { IdempotencyStore } from '../core/store-contract.js';
import { compensationKey, stepKey } from './saga-keys.js';
import type { SagaState, SagaStatus, StepRecordStatus } from './saga-types.js';

function recordStatus(record: IdempotencyRecord | null): StepRecordStatus {
  if (record === null) return 'PENDING';
  if (record.status === 'COMPLETED') return 'DONE';
  return record.status === 'FAILED' ? 'FAILED' : 'PROCESSING';
}

/**
 * Derives the saga's state; null when no record of the saga exists under this key.
 * @example const status = await readSagaStatus(store, ['reserve', 'charge'], ['reserve'], 'order-7', 'user_42');
 */
export async function readSagaStatus(
  store: IdempotencyStore,
  stepNames: readonly string[],
  compensable: ReadonlySet<string>,
  key: string,
  scope: string,
): Promise<SagaStatus | null> {
  const [outer, ...rest] = await Promise.all([
    store.get({ key, scope }),
    ...stepNames.map((name) => store.get({ key: stepKey(key, name), scope })),
    ...stepNames.map((name) => (compensable.has(name) ? store.get({ key: compensationKey(key, name), scope }) : Promise.resolve(null))),
  ]);
  // The outer record is absent after a transient failure released it; done steps still tell where the saga stands.
  if (!outer && rest.every((record) => record === null)) return null;
  const runs = rest.slice(0, stepNames.length);
  const comps = rest.slice(stepNames.length);
  const steps = stepNames.map((name, index) => ({
    name,
    run: recordStatus(runs[index] ?? null),
    compensation: compensable.has(name) ? recordStatus(comps[index] ?? null) : null,
  }));
  const now = await store.now();
  const running = outer?.status === 'PROCESSING' && (outer.lockedUntil ?? 0) > now;
  const failed = steps.findIndex((step) => step.run === 'FAILED');
  const compensationFailed = steps.find((step) => step.compensation === 'FAILED');
  const anyCompensation = steps.some((step) => step.compensation !== null && step.compensation !== 'PENDING');
  const lastDone = steps.map((step) => step.run).lastIndexOf('DONE');

  let state: SagaState;
  let step: string | null = null;
  if (failed >= 0) {
    step = stepNames[failed]!;
    if (compensationFailed) state = 'COMPENSATION_FAILED';
    else if (outer?.status === 'COMPLETED') state = 'ROLLED_BACK';
    else state = anyCompensation ? 'COMPENSATING' : `STEP_${failed + 1}_FAILED`;
  } else if (outer?.status === 'COMPLETED') {
    state = 'COMPLETED';
  } else if (outer?.status === 'FAILED') {
    state = 'FAILED';
  } else if (lastDone >= 0) {
    state = `STEP_${lastDone + 1}_DONE`;
    step = stepNames[lastDone]!;
  } else {
    state = 'STARTED';
  }
  return { state, step, running, steps };
}
