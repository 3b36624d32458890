/**
 * BullMQ 6: a processor function for `new Worker(queue, processor)`. The job completes only
 * after its outcome is stored; an in-progress duplicate is moved to the delayed set (no attempt
 * used); a permanent failure fails the job with no further attempts (BullMQ's failed set is its
 * dead-letter path); a transient failure is thrown, so BullMQ retries it per `attempts`/`backoff`.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import type { ConsumeDecision } from '../shared/decision.js';
import { resolveConsumerOptions, type ConsumerOptions } from '../shared/consumer-options.js';
import { processMessage, type MessageView } from '../shared/process-message.js';

/** The parts of a BullMQ `Job` the processor uses. */
export interface BullJobLike {
  readonly id?: string;
  readonly name: string;
  readonly queueName: string;
  readonly data: unknown;
  moveToDelayed(timestamp: number, token?: string): Promise<void>;
}

/**
 * Thrown to fail a job for good. BullMQ recognises it by name (`UnrecoverableError`), so the
 * job goes to the failed set however many attempts remain. `cause` is the original error.
 */
export class DeadLetterJobError extends Error {
  override readonly name = 'UnrecoverableError';
  readonly decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>;

  constructor(decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) {
    const message = decision.error instanceof Error ? decision.error.message : String(decision.error);
    super(`${decision.reason}: ${message}`, { cause: decision.error });
    this.decision = decision;
  }
}

/** Thrown after `job.moveToDelayed()`; BullMQ recognises it by name (`DelayedError`) and leaves the job delayed. */
class JobDelayed extends Error {
  override readonly name = 'DelayedError';
}

export interface BullmqProcessorOptions<J extends BullJobLike, T> extends Omit<ConsumerOptions<J, T>, 'scope'> {
  /** Default: the queue name. */
  readonly scope?: ConsumerOptions<J, T>['scope'];
  /**
   * The producer's id for the job. Default `job.id`: set `jobId` when adding the job — BullMQ's
   * auto ids are a counter, so a producer that adds twice gets two ids and nothing is deduped.
   */
  readonly messageId?: (job: J) => string | undefined;
  /** Called before a job is failed for good (e.g. add it to a DLQ queue). If it rejects, the job is retried instead. */
  readonly deadLetter?: (job: J, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>;
}

/**
 * Returns the processor. Its resolved value is the handler's (or the replayed) result.
 * @example
 * const worker = new Worker('emails', createBullmqProcessor({ idempotency, handler: (job) => send(job.data) }), { connection });
 * await queue.add('welcome', { to }, { jobId: `welcome-${userId}`, attempts: 5, backoff: { type: 'exponential', delay: 1000 } });
 */
export function createBullmqProcessor<J extends BullJobLike, T>(options: BullmqProcessorOptions<J, T>): (job: J, token?: string) => Promise<T> {
  const { messageId = (job: J) => job.id, deadLetter } = options;
  if (typeof messageId !== 'function') throw new InvalidOptionsError('Option "messageId" must be a function (job) => string.');
  if (deadLetter !== undefined && typeof deadLetter !== 'function') throw new InvalidOptionsError('Option "deadLetter" must be a function.');
  const resolved = resolveConsumerOptions<J, T>({ ...options, scope: options.scope ?? ((job: J) => job.queueName) }, undefined);
  const view: MessageView<J> = {
    messageId,
    payload: (job) => JSON.stringify(job.data ?? null),
    where: 'job id',
  };

  return async function processor(job: J, token?: string): Promise<T> {
    const { decision, value } = await processMessage(resolved, view, job);
    resolved.onDecision(decision, job);
    if (decision.kind === 'ack') return value as T;
    if (decision.kind === 'requeue') {
      if (decision.reason === 'in_progress' && token !== undefined) {
        // Delayed, not failed: waiting for another worker's claim must not use up an attempt.
        await job.moveToDelayed(Date.now() + decision.delayMs, token);
        throw new JobDelayed(`in progress elsewhere; retried in ${decision.delayMs} ms`);
      }
      throw decision.error; // BullMQ retries it per the job's attempts and backoff
    }
    try {
      await deadLetter?.(job, decision);
    } catch (error) {
      throw error instanceof Error ? error : new Error(String(error)); // retried: the DLQ write failed
    }
    throw new DeadLetterJobError(decision);
  };
}
