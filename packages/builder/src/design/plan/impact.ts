/**
 * What a duplicate costs, and how each action recovers when the server dies mid-processing.
 * Every action gets a concrete recovery path; "just retry" is never one.
 */
import type { Action } from '../../answers.js';
import { formatMs } from './durations.js';
import { PROVIDER_FACTS } from './providers.js';
import type { StoreKind } from './stack.js';

export type ImpactClass = 'financial' | 'order' | 'message' | 'inventory' | 'state';

export interface ImpactPlan {
  readonly kind: ImpactClass;
  readonly severity: 'critical' | 'high' | 'medium';
  readonly text: string;
}

export interface RecoveryPlan {
  /** One line for the action map. */
  readonly summary: string;
  /** The full path, step by step. */
  readonly steps: readonly string[];
  readonly strategy: 'transactional' | 'reclaim-and-reconcile' | 'redeliver-and-reclaim' | 'saga-resume' | 'reclaim';
}

/**
 * The kind of damage a duplicate does, from the action's provider, name and description.
 * @example classifyImpact({ name: 'createPayment', provider: 'stripe', … }) // 'financial'
 */
export function classifyImpact(action: Action): ImpactClass {
  const words = `${action.name} ${action.description}`.toLowerCase();
  if (action.provider || /pay|charge|refund|payout|transfer|capture|debit|credit|withdraw|invoice/.test(words)) return 'financial';
  if (/stock|inventory/.test(words)) return 'inventory';
  if (/order|checkout|booking|book|reserv|subscri|purchase|signup|register|account/.test(words)) return 'order';
  if (/notif|email|sms|push|send|mail|message/.test(words)) return 'message';
  return 'state';
}

/**
 * The duplicate impact of an action, classified from its name, description and provider.
 * @example planImpact({ name: 'createPayment', provider: 'stripe', ... }).severity // 'critical'
 */
export function planImpact(action: Action): ImpactPlan {
  const kind = classifyImpact(action);
  if (action.kind === 'webhook') {
    return {
      kind,
      severity: kind === 'financial' ? 'critical' : 'high',
      text: `The event is applied twice: “${action.description}” runs again for an event already handled — a payment marked paid twice, a receipt or fulfilment triggered twice, a balance credited twice.`,
    };
  }
  switch (kind) {
    case 'financial':
      return {
        kind,
        severity: 'critical',
        text: 'Money moves twice: the customer is charged (or paid out) a second time, which costs a refund or a chargeback with its dispute fee, support time, and a ledger that no longer matches the provider’s settlement report.',
      };
    case 'order':
      return {
        kind,
        severity: 'high',
        text: 'Two records for one intent: double fulfilment or a duplicate booking, two confirmations to the customer, and downstream systems (invoicing, stock, analytics) that count it twice.',
      };
    case 'inventory':
      return {
        kind,
        severity: 'high',
        text: 'Stock is reserved or decremented twice: phantom out-of-stock for other customers until someone notices, and counts that drift from the warehouse.',
      };
    case 'message':
      return {
        kind,
        severity: 'medium',
        text: 'The recipient gets the same message twice: confusion, eroded trust, and for one-time codes or payment confirmations a likely support contact. It cannot be unsent.',
      };
    default:
      return {
        kind,
        severity: 'high',
        text: `“${action.description}” is applied twice: a duplicated row or a state transition replayed on an object that has already moved on — corruption later code cannot tell from a genuine second request.`,
      };
  }
}

const SQL_STORES: readonly StoreKind[] = ['postgresql', 'mysql', 'sqlite'];

/**
 * The failure recovery path of one action.
 * @example planRecovery(action, 'postgresql', 8000).strategy // 'transactional'
 */
export function planRecovery(action: Action, store: StoreKind, leaseMs: number, subKeyPattern = '{key}_{n}'): RecoveryPlan {
  const lease = formatMs(leaseMs);
  const crash = `A crash after the claim leaves the record PROCESSING with \`locked_until\` = claim time + ${lease}; the stuck-record query lists it, and the first retry after that reclaims it with \`lock_version + 1\` in one atomic statement, which fences out the dead worker’s late writes.`;
  if (action.steps && action.steps.length > 1) {
    return {
      strategy: 'saga-resume',
      summary: `Resume from the last incomplete step after the ${lease} lease; compensate completed steps in reverse on a permanent failure.`,
      steps: [
        crash,
        `Each of the ${action.steps.length} steps (${action.steps.join(' → ')}) records its step done before the next starts, and each external call carries the step sub-key \`${subKeyPattern}\`; the reclaiming worker skips every step already DONE and re-issues the interrupted one with the same sub-key, so the provider deduplicates it.`,
        'A permanent failure of step n moves the saga to STEP_n_FAILED → COMPENSATING: completed steps are reversed newest first, each compensation with its own sub-key, ending in ROLLED_BACK (replayed to later retries).',
        'If compensation itself keeps failing, the saga stays COMPENSATING and the runbook’s stuck query surfaces it for manual resolution after three reclaims.',
      ],
    };
  }
  if (action.kind === 'webhook') {
    return {
      strategy: 'redeliver-and-reclaim',
      summary: `Answer 2xx only after COMPLETED; a crash means no 2xx, so the sender resends, and the resend reclaims the key once the ${lease} lease ends.`,
      steps: [
        crash,
        'The handler answers 2xx only after the record is COMPLETED. A crash means no 2xx, so the sender resends (Stripe with backoff for up to 3 days); a resend that finds a live PROCESSING record gets 409 and comes back later; the first one after the lease reclaims.',
        'The business write carries the event id under a unique constraint, so a re-run after a crash between the write and the completion finds its own row and completes.',
        'Events can arrive out of order (a resent older event after a newer one): apply each one as a forward-only state transition on the object (only move a payment from pending to succeeded, never back), not as a blind overwrite.',
      ],
    };
  }
  if (action.provider) {
    const facts = PROVIDER_FACTS[action.provider];
    return {
      strategy: 'reclaim-and-reconcile',
      summary: `Reclaim after the ${lease} lease and re-send with the same derived ${facts.name} key, so ${facts.name} replays instead of charging again; reconcile against ${facts.name} when the local record and the provider disagree.`,
      steps: [
        crash,
        `The reclaiming worker calls ${facts.name} again with the key derived from the same local key (${facts.mechanism}). If the first attempt reached ${facts.name}, it answers with the original result and no second charge; that result is stored as COMPLETED.`,
        `Charged at ${facts.name} but the local write lost (crash between the provider’s answer and \`markCompleted\`): the reconciliation job looks up every PROCESSING record older than 2 × the lease by its provider key or reference, and completes it from the provider’s state — or releases it for a clean retry when the provider has no trace.`,
        'After three reclaims of one key (lock_version ≥ its creation time in ms + 3) the job stops retrying automatically and pages: something deterministic is killing the worker, and a human decides.',
      ],
    };
  }
  if (action.kind === 'consumer' || action.kind === 'job') {
    return {
      strategy: 'redeliver-and-reclaim',
      summary: `Ack only after COMPLETED; the broker redelivers after a crash, and the redelivery reclaims the key once the ${lease} lease ends.`,
      steps: [
        crash,
        'The message is acknowledged only after the record is COMPLETED (or FAILED). A crash means no ack, so the broker redelivers; a redelivery that finds a live PROCESSING record is requeued with a delay of at least the remaining lease rather than dropped, and the one after the lease reclaims.',
        'Business writes carry the idempotency key in a unique column, so a re-run after a crash between the business write and the completion finds the existing row and completes instead of inserting a second one.',
        'A message that fails permanently is recorded FAILED, acked, and copied to the dead-letter queue with the key, so replaying the DLQ later replays the stored failure instead of re-running blindly.',
      ],
    };
  }
  if (action.kind === 'cron') {
    return {
      strategy: 'reclaim',
      summary: `The next run of the same slot (or a watchdog) reclaims after the ${lease} lease and resumes from the last committed batch checkpoint.`,
      steps: [
        crash,
        'The job processes in batches and commits a checkpoint (last processed id) with each batch, keyed by the slot; a reclaiming run resumes after the checkpoint instead of starting over.',
        'An overlapping run of the same slot finds a live PROCESSING record and exits without work; a run for the next slot has its own key and proceeds.',
      ],
    };
  }
  if (SQL_STORES.includes(store)) {
    return {
      strategy: 'transactional',
      summary: 'Claim, business writes and completion commit in one database transaction: a crash leaves nothing behind, and the retry runs once, cleanly.',
      steps: [
        'Transactional mode: the claim, the action’s own writes and the COMPLETED update commit in one transaction in the same database. A crash before commit rolls all of it back — no orphan lock, no half-written business row — and the client’s retry with the same key runs the action once.',
        'A crash after commit loses only the HTTP response; the retry finds COMPLETED and replays the stored response.',
        `If the action cannot share the transaction (it calls another service), it falls back to lease recovery: ${crash}`,
      ],
    };
  }
  return {
    strategy: 'reclaim',
    summary: `Reclaim after the ${lease} lease; business writes are keyed by the idempotency key so a re-run finds them.`,
    steps: [
      crash,
      `The idempotency store (${store}) cannot share a transaction with the business database, so the business row carries the idempotency key under a unique constraint: a re-run after a crash between the business write and the completion finds the row, returns it, and completes the record.`,
    ],
  };
}
