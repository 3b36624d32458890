/** Schedule slots: the fire time the schedule says, turned into the keys of a job's records. */
import { InvalidKeyError } from '../core/errors.js';
import { fingerprintFields } from '../core/fingerprint.js';

/** A slot as a Date, epoch ms, or an ISO string. Never "now": the schedule's own fire time. */
export type SlotInput = Date | number | string;

const JOB_NAME = /^[A-Za-z0-9_.~-]{1,100}$/;

/** Throws `InvalidKeyError` unless the job name can be part of a key (`[A-Za-z0-9_.~-]`, ≤ 100). */
export function validateJobName(jobName: unknown): asserts jobName is string {
  if (typeof jobName !== 'string' || !JOB_NAME.test(jobName)) {
    throw new InvalidKeyError('A job name must be 1..100 chars of [A-Za-z0-9_.~-].');
  }
}

/**
 * The slot in epoch ms, whole seconds kept as given (cron slots are whole seconds anyway).
 * @example slotMs('2026-12-03T08:00:00Z') // 1796284800000
 */
export function slotMs(slot: SlotInput): number {
  const ms = slot instanceof Date ? slot.getTime() : typeof slot === 'string' ? Date.parse(slot) : slot;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) throw new InvalidKeyError('The schedule slot is not a valid time.');
  return ms;
}

/**
 * The records of one job: one per slot (`<job>:slot:<ISO>`), and the job's overlap lock
 * (`<job>:running`), which lives only while a run holds it.
 * @example scheduleKeys('nightly-report', new Date('2026-12-03T02:00:00Z')).slot // 'nightly-report:slot:2026-12-03T02:00:00.000Z'
 */
export function scheduleKeys(jobName: string, slot: SlotInput): { slot: string; lock: string; fingerprint: string; lockFingerprint: string } {
  validateJobName(jobName);
  const ms = slotMs(slot);
  return {
    slot: `${jobName}:slot:${new Date(ms).toISOString()}`,
    lock: `${jobName}:running`,
    fingerprint: fingerprintFields(['schedule-slot', jobName, ms]),
    lockFingerprint: fingerprintFields(['schedule-lock', jobName]),
  };
}
