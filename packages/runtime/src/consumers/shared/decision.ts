/**
 * The broker-neutral decision every consumer makes after the engine answered: acknowledge,
 * redeliver later, or dead-letter. One table, so every broker treats an outcome the same way.
 */
import {
  ExpiredKeyRejectedError,
  FingerprintMismatchError,
  IdempotencyError,
  InProgressError,
  InvalidKeyError,
  InvalidScopeError,
  KeyNotFoundError,
  ReplayedFailureError,
} from '../../core/errors.js';
import type { ErrorClassifier } from '../../core/options.js';

/** Why a message is delivered again later. */
export type RequeueReason = 'in_progress' | 'transient_failure' | 'store_unavailable' | 'lease_lost';
/** Why a message goes to the dead-letter path: retrying it can never succeed. */
export type DeadLetterReason = 'permanent_failure' | 'replayed_failure' | 'fingerprint_mismatch' | 'invalid_message' | 'retries_exhausted';

export type ConsumeDecision =
  /** The outcome is stored (or was stored by an earlier delivery): acknowledge. */
  | { readonly kind: 'ack'; readonly replayed: boolean }
  /** Not done yet: redeliver after `delayMs` (never drop). */
  | { readonly kind: 'requeue'; readonly reason: RequeueReason; readonly delayMs: number; readonly error: unknown }
  /** Permanently failed (now or at an earlier delivery): to the broker's dead-letter path. */
  | { readonly kind: 'dead-letter'; readonly reason: DeadLetterReason; readonly error: unknown };

/** What `run()` did with one delivery, as seen by the consumer wrapper. */
export type MessageOutcome =
  | { readonly ok: true; readonly replayed: boolean }
  | {
      readonly ok: false;
      readonly error: unknown;
      /** The error came out of the handler (not from the engine or the store). */
      readonly fromHandler: boolean;
      /** The handler's lease was lost while it ran: a newer holder owns the key. */
      readonly leaseLost: boolean;
    };

export interface RequeueDelays {
  /** Shortest wait before an in-progress duplicate is looked at again. */
  readonly minRequeueDelayMs: number;
  /** Longest such wait: the first holder may finish long before its lease ends. */
  readonly maxRequeueDelayMs: number;
  /** Wait before a transiently failed message is delivered again. */
  readonly transientDelayMs: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Maps an outcome to ack | requeue | dead-letter. Handler errors follow the engine's own
 * classifier (`isPermanent`), so "stored as FAILED" and "dead-lettered" are the same set.
 * @example
 * const decision = decideOutcome({ ok: false, error, fromHandler: true, leaseLost: false }, idempotency.options.classify, delays);
 * if (decision.kind === 'dead-letter') channel.nack(message, false, false);
 */
export function decideOutcome(outcome: MessageOutcome, classify: ErrorClassifier, delays: RequeueDelays): ConsumeDecision {
  if (outcome.ok) return { kind: 'ack', replayed: outcome.replayed };
  const { error } = outcome;
  const requeue = (reason: RequeueReason, delayMs = delays.transientDelayMs): ConsumeDecision => ({ kind: 'requeue', reason, delayMs, error });
  if (outcome.fromHandler) {
    // With a lost lease the engine wrote nothing: the newer holder's outcome decides, and a
    // later delivery replays it. Dead-lettering here could shelve a message that succeeds.
    if (outcome.leaseLost) return requeue('lease_lost');
    return classify(error) === 'permanent' ? { kind: 'dead-letter', reason: 'permanent_failure', error } : requeue('transient_failure');
  }
  if (error instanceof InProgressError) {
    return requeue('in_progress', clamp(error.retryAfterMs, delays.minRequeueDelayMs, delays.maxRequeueDelayMs));
  }
  if (error instanceof ReplayedFailureError) return { kind: 'dead-letter', reason: 'replayed_failure', error };
  if (error instanceof FingerprintMismatchError) return { kind: 'dead-letter', reason: 'fingerprint_mismatch', error };
  if (
    error instanceof InvalidKeyError ||
    error instanceof InvalidScopeError ||
    error instanceof KeyNotFoundError ||
    error instanceof ExpiredKeyRejectedError ||
    (error instanceof IdempotencyError && error.code === 'unhashable_input')
  ) {
    return { kind: 'dead-letter', reason: 'invalid_message', error };
  }
  if (error instanceof IdempotencyError && error.code === 'lease_lost') return requeue('lease_lost');
  // store_unavailable and anything unexpected: the outcome is not stored, so never acknowledge.
  return requeue('store_unavailable');
}
