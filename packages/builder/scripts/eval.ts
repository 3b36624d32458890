/**
 * Evaluates the inspector against the corpus (packages/builder/test/corpus/<fixture>/ with a
 * ground-truth.json each): recall and precision of mutating HTTP entry points by method + full
 * path, fingerprint-field accuracy, fabricated fields, webhooks, cost, provider-call keys and the
 * stack. `npm run eval:builder` prints the table; the corpus test asserts the thresholds.
 * Also takes directories of other repositories with a ground truth: `tsx scripts/eval.ts DIR…`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import type { Inspection } from '../src/inspect/types.js';
import { effectTotals, scoreEffects, type EffectsScore, type EffectsTruth } from './eval-effects.js';

export interface TruthEndpoint {
  readonly method: string;
  readonly route: string;
  readonly kind: 'http' | 'webhook';
  /** Every body field the handler reads; absent when the truth does not state them. */
  readonly fields?: readonly string[];
  readonly secrets?: readonly string[];
  readonly cost?: string;
  readonly provider?: string;
  /** The declaring file, for repositories where one method and path exist in several services. */
  readonly file?: string;
  /** GraphQL: the operation on the shared endpoint (`mutation createOrder`); `route` is the endpoint's path. */
  readonly operation?: string;
  /** Next.js server action: the function's name; `route` is `/*`, the URL of whichever page renders it. */
  readonly serverAction?: string;
}

export interface GroundTruth extends EffectsTruth {
  readonly description?: string;
  readonly stack?: { readonly language?: string; readonly framework?: string; readonly database?: string };
  readonly endpoints: readonly TruthEndpoint[];
  /**
   * Every money-moving provider call (a call found and not listed is an error too): whether it passes
   * a key, whether that key is sound (`true` = judged sound, `false` = flagged unsound), its provider,
   * and `fixAt`, the `path:line` the concrete fix edits.
   */
  readonly paymentCalls?: ReadonlyArray<{ readonly location: string; readonly passesKey: boolean; readonly sound?: boolean; readonly provider?: string; readonly fixAt?: string }>;
}

export interface FixtureScore {
  readonly name: string;
  readonly expected: number;
  readonly found: number;
  readonly matched: number;
  readonly recall: number;
  readonly precision: number;
  /** Matched endpoints whose truth names fields, and of those how many have exactly those fields. */
  readonly fieldCases: number;
  readonly fieldsExact: number;
  /** Fields reported that the handler does not read (path params and invented names). */
  readonly fabricated: readonly string[];
  readonly webhookErrors: readonly string[];
  readonly costErrors: readonly string[];
  readonly secretErrors: readonly string[];
  readonly paymentErrors: readonly string[];
  readonly stackErrors: readonly string[];
  readonly missing: readonly string[];
  readonly extra: readonly string[];
  readonly ms: number;
  /** Consumers, schedules and existing protection, for fixtures whose truth lists them. */
  readonly effects: EffectsScore;
}

/**
 * Route identity for matching: `{id}`, `:id`, `<id>` and `[id]` are one thing; trailing slashes
 * ignored; GraphQL operations share their endpoint's path and differ by operation.
 */
export function routeKey(method: string, route: string, operation?: string): string {
  const normal = route.replace(/\{(\w+)(?::[^}]*)?\}|<(?:\w+:)?(\w+)>|\[(\w+)\]/g, (_m, a, b, c) => `:${a ?? b ?? c}`).replace(/\/+$/, '') || '/';
  return `${method.toUpperCase()} ${normal}${operation ? ` ${operation}` : ''}`;
}

/**
 * Scores one inspection against its ground truth.
 * @example scoreFixture('express-mounted', inspection, truth, 40).recall // 1
 */
export function scoreFixture(name: string, inspection: Inspection, truth: GroundTruth, ms: number): FixtureScore {
  const byFile = truth.endpoints.some((e) => e.file);
  const at = (file: string | undefined): string => (byFile ? ` @ ${file ?? ''}` : '');
  // Server actions share the route `/*` and differ by name, as GraphQL operations share their endpoint.
  const found = new Map(inspection.endpoints.map((e) => [routeKey(e.method, e.route, e.operation ?? (e.serverAction && `server action ${e.serverAction.name}`)) + at(e.location.replace(/:\d+$/, '')), e]));
  const expected = new Map(truth.endpoints.map((e) => [routeKey(e.method, e.route, e.operation ?? (e.serverAction && `server action ${e.serverAction}`)) + at(e.file), e]));
  const matched = [...expected.keys()].filter((k) => found.has(k));
  const fabricated: string[] = [];
  const webhookErrors: string[] = [];
  const costErrors: string[] = [];
  const secretErrors: string[] = [];
  let fieldCases = 0;
  let fieldsExact = 0;
  for (const key of matched) {
    const t = expected.get(key) as TruthEndpoint;
    const f = found.get(key);
    if (!f) continue;
    if ((t.kind === 'webhook') !== f.webhook) webhookErrors.push(`${key}: expected ${t.kind}`);
    if (t.cost && f.cost?.level !== t.cost && !t.kind.startsWith('webhook')) costErrors.push(`${key}: cost ${f.cost?.level ?? '-'} ≠ ${t.cost}`);
    if (t.fields) {
      const real = new Set(t.fields);
      for (const field of f.bodyFields) if (!real.has(field)) fabricated.push(`${key}: ${field}`);
      if (t.fields.length > 0) {
        fieldCases += 1;
        if (f.bodyFields.length === real.size && f.bodyFields.every((x) => real.has(x))) fieldsExact += 1;
      }
    }
    for (const secret of t.secrets ?? []) if (!(f.secretFields ?? []).includes(secret)) secretErrors.push(`${key}: ${secret} not marked secret`);
  }
  const paymentErrors: string[] = [];
  for (const call of truth.paymentCalls ?? []) {
    const seen = inspection.paymentCalls.find((c) => c.location === call.location);
    if (!seen) paymentErrors.push(`${call.location}: not found`);
    else if (seen.passesIdempotencyKey !== call.passesKey) paymentErrors.push(`${call.location}: passesKey ${seen.passesIdempotencyKey}`);
    else if (call.sound === false && !seen.keyIssue) paymentErrors.push(`${call.location}: unsound key not flagged`);
    else if (call.sound === true && seen.keyVerdict?.verdict !== 'sound') paymentErrors.push(`${call.location}: sound key judged ${seen.keyVerdict?.verdict ?? '-'}`);
    else if (call.provider && seen.provider !== call.provider) paymentErrors.push(`${call.location}: provider ${seen.provider} ≠ ${call.provider}`);
    else if (call.fixAt && seen.fix?.location !== call.fixAt) paymentErrors.push(`${call.location}: fix at ${seen.fix?.location ?? '-'} ≠ ${call.fixAt}`);
  }
  if (truth.paymentCalls) {
    for (const seen of inspection.paymentCalls) {
      if (!truth.paymentCalls.some((c) => c.location === seen.location)) paymentErrors.push(`${seen.location}: ${seen.call} found but not in the ground truth`);
    }
  }
  const stackErrors: string[] = [];
  for (const [field, value] of Object.entries(truth.stack ?? {})) {
    const got = (inspection as unknown as Record<string, { value?: string } | undefined>)[field]?.value;
    if (got !== value) stackErrors.push(`${field}: ${got ?? '-'} ≠ ${value}`);
  }
  const recall = expected.size === 0 ? 1 : matched.length / expected.size;
  const precision = found.size === 0 ? (expected.size === 0 ? 1 : 0) : matched.length / found.size;
  return {
    name, expected: expected.size, found: found.size, matched: matched.length, recall, precision, fieldCases, fieldsExact,
    fabricated, webhookErrors, costErrors, secretErrors, paymentErrors, stackErrors,
    missing: [...expected.keys()].filter((k) => !found.has(k)), extra: [...found.keys()].filter((k) => !expected.has(k)), ms,
    effects: scoreEffects(inspection, truth),
  };
}

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'corpus');

/**
 * Evaluates every fixture directory that holds a ground-truth.json.
 * @example const scores = await evaluateCorpus(); scores.every((s) => s.recall >= 0.95)
 */
export async function evaluateCorpus(dirs: readonly string[] = readdirSync(CORPUS_DIR).map((d) => join(CORPUS_DIR, d))): Promise<FixtureScore[]> {
  const scores: FixtureScore[] = [];
  for (const dir of dirs) {
    // Repositories that must not carry our file (real public ones) keep their truth outside: EVAL_TRUTH_DIR/<name>.json.
    const outside = process.env.EVAL_TRUTH_DIR ? join(process.env.EVAL_TRUTH_DIR, `${dir.slice(dir.lastIndexOf('/') + 1)}.json`) : undefined;
    const truthPath = outside && existsSync(outside) ? outside : join(dir, 'ground-truth.json');
    if (!existsSync(truthPath)) continue;
    const truth = JSON.parse(readFileSync(truthPath, 'utf8')) as GroundTruth;
    const started = performance.now();
    const inspection = await inspectCodebase(dir);
    scores.push(scoreFixture(dir.slice(dir.lastIndexOf('/') + 1), inspection, truth, performance.now() - started));
  }
  return scores;
}

/** Totals over all fixtures (micro-averaged). */
export function totals(scores: readonly FixtureScore[]): { recall: number; precision: number; fieldAccuracy: number; fabricated: number } {
  const sum = (f: (s: FixtureScore) => number): number => scores.reduce((n, s) => n + f(s), 0);
  const expected = sum((s) => s.expected);
  const found = sum((s) => s.found);
  const matched = sum((s) => s.matched);
  const cases = sum((s) => s.fieldCases);
  return {
    recall: expected === 0 ? 1 : matched / expected,
    precision: found === 0 ? 1 : matched / found,
    fieldAccuracy: cases === 0 ? 1 : sum((s) => s.fieldsExact) / cases,
    fabricated: sum((s) => s.fabricated.length),
  };
}

const pct = (n: number): string => `${(n * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const args = process.argv.slice(2).map((a) => resolve(a));
  const scores = await evaluateCorpus(args.length > 0 ? args : undefined);
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  out('fixture                      expected found matched  recall  precision  fields exact  fabricated  ms');
  for (const s of scores) {
    out(`${s.name.padEnd(28)} ${String(s.expected).padStart(8)} ${String(s.found).padStart(5)} ${String(s.matched).padStart(7)} ${pct(s.recall).padStart(8)} ${pct(s.precision).padStart(10)} ${`${s.fieldsExact}/${s.fieldCases}`.padStart(13)} ${String(s.fabricated.length).padStart(11)} ${s.ms.toFixed(0).padStart(4)}`);
    const problems = [
      ...s.missing.map((m) => `missing ${m}`), ...s.extra.map((m) => `extra ${m}`), ...s.fabricated.map((m) => `fabricated ${m}`),
      ...s.webhookErrors, ...s.costErrors, ...s.secretErrors, ...s.paymentErrors, ...s.stackErrors.map((m) => `stack ${m}`),
    ];
    for (const p of problems) out(`    - ${p}`);
    const e = s.effects;
    const part = (label: string, t: { expected: number; found: number; matched: number } | undefined): string => (t ? `${label} ${t.matched}/${t.expected} (found ${t.found})` : '');
    if (e.consumers || e.schedules || e.existing) out(`    consumers/schedules/existing: ${[part('consumers', e.consumers), part('schedules', e.schedules), part('existing', e.existing)].filter(Boolean).join(', ')}`);
    for (const p of e.errors) out(`    - ${p}`);
  }
  const t = totals(scores);
  out(`TOTAL recall ${pct(t.recall)}, precision ${pct(t.precision)}, fields exact ${pct(t.fieldAccuracy)}, fabricated fields ${t.fabricated}`);
  for (const [label, pick] of [['consumers', (x: FixtureScore) => x.effects.consumers], ['schedules', (x: FixtureScore) => x.effects.schedules], ['existing dedup', (x: FixtureScore) => x.effects.existing]] as const) {
    const e = effectTotals(scores.map(pick));
    if (e.expected > 0) out(`TOTAL ${label}: recall ${pct(e.recall)}, precision ${pct(e.precision)} (${e.expected} expected)`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
