/**
 * The evaluation's second half: consumers, schedules and existing deduplication against a
 * fixture's ground truth, matched by `path:line`. Recall and precision are counted only for the
 * fixtures whose truth lists them (a truth without `consumers` says nothing about consumers).
 */
import type { Inspection } from '../src/inspect/types.js';

export interface TruthConsumer {
  readonly location: string;
  readonly handler?: string;
  readonly channel?: string;
  /** Celery: true when the task's message is acknowledged late (a crash redelivers it). */
  readonly acksLate?: boolean;
}

export interface TruthSchedule {
  readonly location: string;
  readonly handler?: string;
  /** A substring the reported schedule must contain (`crontab(minute=0, hour=2)`, `0 2 * * *`). */
  readonly schedule?: string;
  /** A substring the note must contain (`database`, `concurrencyPolicy Forbid`). */
  readonly note?: string;
}

export interface TruthProtection {
  readonly location: string;
  readonly kind: string;
  /** A substring the assessed race must contain (`both pass the check`, `after its work has run`). */
  readonly race?: string;
}

/** What a ground truth may add to the endpoints. */
export interface EffectsTruth {
  readonly consumers?: readonly TruthConsumer[];
  readonly schedules?: readonly TruthSchedule[];
  readonly existingProtection?: readonly TruthProtection[];
}

export interface Tally {
  readonly expected: number;
  readonly found: number;
  readonly matched: number;
}

export interface EffectsScore {
  readonly consumers?: Tally;
  readonly schedules?: Tally;
  readonly existing?: Tally;
  /** Missing, extra and wrongly described findings, one line each. */
  readonly errors: readonly string[];
}

function tally<T extends { location: string }, F extends { location: string }>(label: string, truth: readonly T[], found: readonly F[], key: (x: { location: string; kind?: string }) => string, errors: string[], check: (t: T, f: F) => string | undefined): Tally {
  const seen = new Map(found.map((f) => [key(f), f]));
  let matched = 0;
  for (const t of truth) {
    const f = seen.get(key(t));
    if (!f) {
      errors.push(`missing ${label} ${key(t)}`);
      continue;
    }
    matched += 1;
    const problem = check(t, f);
    if (problem) errors.push(`${label} ${key(t)}: ${problem}`);
  }
  const expected = new Set(truth.map(key));
  for (const f of found) if (!expected.has(key(f))) errors.push(`extra ${label} ${key(f)}`);
  return { expected: truth.length, found: found.length, matched };
}

const mismatch = (what: string, got: string | undefined, want: string | undefined): string | undefined =>
  want !== undefined && got !== want ? `${what} ${got ?? '-'} ≠ ${want}` : undefined;

/**
 * Scores consumers, schedules and existing protection of one inspection.
 * @example scoreEffects(inspection, { consumers: [{ location: 'billing/tasks.py:9', handler: 'charge' }] }).consumers?.recall
 */
export function scoreEffects(inspection: Inspection, truth: EffectsTruth): EffectsScore {
  const errors: string[] = [];
  const byLocation = (x: { location: string }): string => x.location;
  const consumers = truth.consumers && tally('consumer', truth.consumers, inspection.consumers, byLocation, errors, (t, f) =>
    mismatch('handler', f.handler, t.handler) ?? mismatch('channel', f.channel, t.channel)
    ?? (t.acksLate !== undefined && !f.redelivery?.startsWith(t.acksLate ? 'acks_late on' : 'acks_late off') ? `redelivery “${f.redelivery ?? '-'}” does not say acks_late ${t.acksLate ? 'on' : 'off'}` : undefined));
  const schedules = truth.schedules && tally('schedule', truth.schedules, inspection.schedulers, byLocation, errors, (t, f) =>
    mismatch('handler', f.handler, t.handler)
    ?? (t.schedule !== undefined && !(f.schedule ?? '').includes(t.schedule) ? `schedule ${f.schedule ?? '-'} lacks ${t.schedule}` : undefined)
    ?? (t.note !== undefined && !(f.note ?? '').includes(t.note) ? `note lacks “${t.note}”` : undefined));
  const byKind = (x: { location: string; kind?: string }): string => `${x.kind ?? ''} ${x.location}`;
  const existing = truth.existingProtection && tally('protection', truth.existingProtection, inspection.existingProtection ?? [], byKind, errors, (t, f) =>
    (t.race !== undefined && !f.race.includes(t.race) ? `race “${f.race}” lacks “${t.race}”` : undefined));
  return { ...(consumers ? { consumers } : {}), ...(schedules ? { schedules } : {}), ...(existing ? { existing } : {}), errors };
}

/** Micro-averaged recall and precision of one tally over many fixtures (1 when nothing was expected or found). */
export function effectTotals(tallies: readonly (Tally | undefined)[]): { recall: number; precision: number; expected: number } {
  const present = tallies.filter((t): t is Tally => t !== undefined);
  const sum = (f: (t: Tally) => number): number => present.reduce((n, t) => n + f(t), 0);
  const expected = sum((t) => t.expected);
  const found = sum((t) => t.found);
  const matched = sum((t) => t.matched);
  return { recall: expected === 0 ? 1 : matched / expected, precision: found === 0 ? 1 : matched / found, expected };
}
