/**
 * The document's diagrams as data: the record state machine (the runtime's), the claim → run →
 * complete sequence with this service's lease and heartbeat, and each saga's state machine.
 */
import type { Block, Diagram } from '../model.js';
import { formatMs } from '../plan/durations.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import type { SagaPlan } from '../plan/saga.js';

const diagram = (title: string, value: Diagram): Block => ({ kind: 'diagram', title, diagram: value });

/**
 * The record's state machine as the store contract defines it (claim, finish, release, reclaim, expiry).
 * @example recordStateDiagram(plan).kind // 'diagram'
 */
export function recordStateDiagram(plan: Plan): Block {
  const lease = formatMs(plan.highestRisk.lease.leaseMs);
  return diagram('The record’s state machine (every arrow is one atomic store operation)', {
    type: 'states',
    states: [
      { id: 'absent', label: 'absent', col: 0, row: 0, terminal: true },
      { id: 'PROCESSING', label: 'PROCESSING (v)', col: 1, row: 0 },
      { id: 'COMPLETED', label: 'COMPLETED', col: 2, row: 0 },
      { id: 'FAILED', label: 'FAILED', col: 1, row: 1 },
      { id: 'purged', label: 'absent (purged)', col: 2, row: 1, terminal: true },
    ],
    transitions: [
      { from: 'absent', to: 'PROCESSING', label: 'claim: v = store clock ms' },
      { from: 'PROCESSING', to: 'absent', label: 'transient error: release' },
      { from: 'PROCESSING', to: 'PROCESSING', label: `lease (${lease}) over: reclaim, v + 1` },
      { from: 'PROCESSING', to: 'COMPLETED', label: 'complete (fenced by v)' },
      { from: 'PROCESSING', to: 'FAILED', label: 'permanent error (fenced by v)' },
      { from: 'COMPLETED', to: 'purged', label: 'after expires_at: cleanup' },
      { from: 'FAILED', to: 'purged', label: 'after expires_at: cleanup' },
    ],
  });
}

/**
 * Claim → run → complete for the highest-risk action, with heartbeat, a crash and the takeover.
 * @example claimSequenceDiagram(plan, false).kind // 'diagram'
 */
export function claimSequenceDiagram(plan: Plan, transactionalCode: boolean): Block {
  // A takeover happens only where a crash can leave a PROCESSING record: not when the code runs in transactional mode.
  const a: ActionPlan = transactionalCode ? plan.highestRisk : plan.actions.find((x) => x.recovery.strategy !== 'transactional') ?? plan.highestRisk;
  if (transactionalCode && a.recovery.strategy === 'transactional') return transactionalSequence(plan, a);
  const lease = formatMs(a.lease.leaseMs);
  const beat = formatMs(a.lease.heartbeatMs);
  const store = plan.stack.storeName;
  return diagram(`Claim → run → complete for ${a.action.name}: lease ${lease}, heartbeat every ${beat}, a crashed worker taken over`, {
    type: 'sequence',
    participants: [
      { id: 'A', label: 'Worker A' },
      { id: 'S', label: store },
      { id: 'B', label: 'Worker B (retry)' },
    ],
    steps: [
      { from: 'A', to: 'S', label: `claim(key, fingerprint, ${lease})` },
      { from: 'S', to: 'A', label: 'claimed, v = T', reply: true },
      { from: 'A', to: 'S', label: `extend every ${beat} (heartbeat)` },
      { note: 'A crashes mid-action: no complete, no release', over: 'A' },
      { from: 'B', to: 'S', label: 'claim (same key) while the lease runs' },
      { from: 'S', to: 'B', label: '409 in progress + Retry-After', reply: true },
      { note: `${lease} after A's last heartbeat the lease is over (store clock)`, over: 'S' },
      { from: 'B', to: 'S', label: 'claim again: takeover, v = T + 1' },
      { from: 'B', to: 'S', label: 'complete(v = T + 1): COMPLETED' },
      { from: 'A', to: 'S', label: 'late complete(v = T): refused, lease lost', failed: true },
    ],
  });
}

/** Transactional mode: claim, business writes and completion in one transaction; a crash rolls all back. */
function transactionalSequence(plan: Plan, a: ActionPlan): Block {
  const lease = formatMs(a.lease.leaseMs);
  return diagram(`Claim → run → complete for ${a.action.name} in one ${plan.stack.storeName} transaction (lease ${lease}); a crash leaves no record to take over`, {
    type: 'sequence',
    participants: [
      { id: 'A', label: 'Worker A' },
      { id: 'S', label: plan.stack.storeName },
      { id: 'B', label: 'Worker B (retry)' },
    ],
    steps: [
      { from: 'A', to: 'S', label: `BEGIN; claim(key, fingerprint, ${lease})` },
      { from: 'S', to: 'A', label: 'claimed, v = T (row locked, uncommitted)', reply: true },
      { from: 'B', to: 'S', label: 'claim (same key): blocks until A’s transaction ends' },
      { note: 'A crashes: the connection drops, the transaction rolls back', over: 'A' },
      { from: 'S', to: 'B', label: 'claimed, fresh record', reply: true },
      { from: 'B', to: 'S', label: 'business writes + complete; COMMIT' },
      { from: 'A', to: 'S', label: 'nothing of A is left to complete', failed: true },
    ],
  });
}

/**
 * A saga's state machine: steps done in order, compensation after a permanent failure.
 * @example sagaStateDiagram('placeOrder', saga).kind // 'diagram'
 */
export function sagaStateDiagram(name: string, saga: SagaPlan): Block {
  const steps = saga.steps;
  const done = steps.map((s) => ({ id: `STEP_${s.index}_DONE`, label: `${s.name} done`, col: s.index, row: 0 }));
  const states = [
    { id: 'PROCESSING', label: 'PROCESSING', col: 0, row: 0 },
    ...done,
    { id: 'COMPLETED', label: 'COMPLETED', col: steps.length + 1, row: 0, terminal: true },
    { id: 'COMPENSATING', label: 'COMPENSATING', col: Math.max(1, steps.length - 1), row: 1 },
    { id: 'ROLLED_BACK', label: 'ROLLED_BACK', col: steps.length, row: 1, terminal: true },
    { id: 'FAILED', label: 'FAILED', col: 0, row: 1, terminal: true },
  ];
  const transitions = [
    { from: 'PROCESSING', to: done[0]?.id ?? 'COMPLETED', label: `${steps[0]?.name ?? 'step 1'} ok` },
    ...steps.slice(1).map((s, i) => ({ from: done[i]?.id ?? '', to: done[i + 1]?.id ?? '', label: `${s.name} ok` })),
    { from: done[done.length - 1]?.id ?? 'PROCESSING', to: 'COMPLETED', label: 'record result' },
    { from: 'PROCESSING', to: 'FAILED', label: `${steps[0]?.name ?? 'step 1'} fails: nothing to undo` },
    ...steps.slice(1).map((s, i) => ({ from: done[i]?.id ?? '', to: 'COMPENSATING', label: `${s.name} fails` })),
    { from: 'COMPENSATING', to: 'ROLLED_BACK', label: 'undo newest first' },
  ];
  return diagram(`State machine of the ${name} saga (a crash keeps the state; the next worker resumes at the first step not done)`, { type: 'states', states, transitions });
}
