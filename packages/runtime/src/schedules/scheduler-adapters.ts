/**
 * Adapters that hand `runScheduled` the slot each scheduler knows: node-cron 4 (`context.date`),
 * croner 11 (the pattern time of the current run) and BullMQ 6 job schedulers (`opts.prevMillis`).
 * All structural: no scheduler is imported.
 */
import type { Idempotency } from '../core/engine.js';
import { InvalidOptionsError } from '../core/errors.js';
import { checkScheduledOptions, runScheduled, type RunScheduledOptions, type ScheduledContext, type ScheduledOutcome } from './run-scheduled.js';
import { validateJobName } from './slot.js';

type JobFn<T> = (context: ScheduledContext) => T | Promise<T>;

function checkCommon(idempotency: Idempotency, fn: unknown): void {
  if (typeof idempotency?.run !== 'function') throw new InvalidOptionsError('The first argument must be the engine from createIdempotency().');
  if (typeof fn !== 'function') throw new InvalidOptionsError('The job must be a function (context) => ….');
}

/** What node-cron 4 passes a task: `date` is the matched schedule time (the slot), not the start time. */
export interface NodeCronContextLike {
  readonly date: Date;
  readonly execution?: { readonly reason?: string } | undefined;
}

/**
 * A node-cron 4 task function. Run the same schedule on every instance; each slot runs once.
 * `task.execute()` (a manual run) passes the current time as its date, so it is a slot of its own.
 * @example
 * import cron from 'node-cron';
 * cron.schedule('0 * * * *', nodeCronTask(idempotency, 'hourly-sync', async ({ slot }) => sync(slot), { overlap: 'skip' }));
 */
export function nodeCronTask<T>(
  idempotency: Idempotency,
  jobName: string,
  fn: JobFn<T>,
  options: RunScheduledOptions<T> = {},
): (context: NodeCronContextLike) => Promise<ScheduledOutcome<T>> {
  checkCommon(idempotency, fn);
  validateJobName(jobName);
  checkScheduledOptions(options);
  return (context) => runScheduled(idempotency, jobName, context.date, fn, options);
}

/** What is used of a croner 11 `Cron` (the callback's first argument). */
export interface CronerLike {
  currentRun(): Date | null;
  previousRuns(n: number, reference?: Date): Date[];
}

/**
 * The slot of croner's current run. Croner records the clock at trigger time (a few ms late, more
 * under load), so the slot is the latest pattern time at or before it.
 * @example cronerSlot(job) // 2026-12-03T08:00:00.000Z for a run triggered at 08:00:00.004
 */
export function cronerSlot(job: CronerLike): Date {
  const started = job.currentRun();
  if (!started) throw new InvalidOptionsError('croner has no current run: call cronerSlot inside the job callback.');
  const [slot] = job.previousRuns(1, new Date(started.getTime() + 1));
  if (!slot) throw new InvalidOptionsError('croner found no pattern time at or before the current run.');
  return slot;
}

export interface CronerJobOptions<T> extends RunScheduledOptions<T> {
  /** Croner callbacks return nothing: the outcome of each fire is handed here. */
  readonly onOutcome?: (outcome: ScheduledOutcome<T>) => void;
}

/**
 * A croner 11 callback. A manual `job.trigger()` maps to the latest slot, so it replays that
 * slot's run instead of running twice. Errors of the job propagate to croner: set croner's
 * `catch` option (as for any async croner job), or an unhandled rejection ends the process.
 * @example
 * import { Cron } from 'croner';
 * new Cron('*\/5 * * * *', { timezone: 'Europe/Berlin', catch: true }, cronerJob(idempotency, 'invoice-batch', async ({ slot }) => runBatch(slot)));
 */
export function cronerJob<T>(
  idempotency: Idempotency,
  jobName: string,
  fn: JobFn<T>,
  options: CronerJobOptions<T> = {},
): (self: CronerLike) => Promise<void> {
  checkCommon(idempotency, fn);
  validateJobName(jobName);
  checkScheduledOptions(options);
  const { onOutcome, ...runOptions } = options;
  if (onOutcome !== undefined && typeof onOutcome !== 'function') throw new InvalidOptionsError('Option "onOutcome" must be a function.');
  return async (self) => {
    const outcome = await runScheduled(idempotency, jobName, cronerSlot(self), fn, runOptions);
    onOutcome?.(outcome);
  };
}

/** What is used of a BullMQ 6 `Job` produced by a job scheduler (`queue.upsertJobScheduler`). */
export interface BullJobLike {
  readonly id?: string | undefined;
  readonly name: string;
  readonly repeatJobKey?: string | undefined;
  readonly opts: { readonly prevMillis?: number | undefined; readonly repeatJobKey?: string | undefined };
}

/**
 * The slot of a scheduler-made BullMQ job: `opts.prevMillis` (the scheduled time), else the
 * millis in its id `repeat:<scheduler>:<millis>`.
 */
export function bullmqSlot(job: BullJobLike): Date {
  if (typeof job.opts?.prevMillis === 'number' && job.opts.prevMillis > 0) return new Date(job.opts.prevMillis);
  const match = /^repeat:.+:(\d+)$/.exec(job.id ?? '');
  if (match) return new Date(Number(match[1]));
  throw new InvalidOptionsError('This BullMQ job was not made by a job scheduler: it has no schedule slot.');
}

export interface BullmqScheduledOptions<T> extends RunScheduledOptions<T> {
  /** The job name in keys. Default: the job scheduler id (`repeatJobKey`), else `job.name`. */
  readonly jobName?: string;
}

/**
 * A BullMQ processor for job-scheduler jobs. BullMQ already makes one job per slot per queue;
 * this adds: the same slot from two queues or prefixes, a stalled-job retry after the job
 * completed, and the overlap policy across workers. A skipped slot completes the job.
 * @example
 * await queue.upsertJobScheduler('nightly-report', { pattern: '0 2 * * *' });
 * new Worker('reports', bullmqScheduledProcessor(idempotency, async ({ slot }) => buildReport(slot)), { connection, prefix: 'myapp' });
 */
export function bullmqScheduledProcessor<T>(
  idempotency: Idempotency,
  fn: JobFn<T>,
  options: BullmqScheduledOptions<T> = {},
): (job: BullJobLike) => Promise<ScheduledOutcome<T>> {
  checkCommon(idempotency, fn);
  checkScheduledOptions(options);
  if (options.jobName !== undefined) validateJobName(options.jobName);
  const { jobName, ...runOptions } = options;
  return (job) => {
    const name = jobName ?? job.repeatJobKey ?? job.opts?.repeatJobKey ?? job.name;
    return runScheduled(idempotency, name, bullmqSlot(job), fn, runOptions);
  };
}
