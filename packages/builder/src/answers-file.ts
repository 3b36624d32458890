/**
 * `--answers FILE`: answers given up front in YAML or JSON. Any subset of the answers is allowed —
 * what is missing is asked or assumed — but what is there is validated, and every problem is
 * reported with the file and the field path (`stack.database`, `actions[0].name`).
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InvalidOptionsError } from '@idempotency-builder/runtime';
import { actionSchema, answersSchema } from './answers.js';
import { parseDuration } from './questions/duration.js';

/** Optional without the default: an absent answer must stay absent so it is asked, not assumed silently. */
function optionalField(schema: z.ZodType): z.ZodType {
  const inner = schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema;
  return inner.optional();
}

function allOptional<T extends z.ZodRawShape>(shape: T): Record<keyof T, z.ZodType> {
  return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, optionalField(value as z.ZodType)])) as Record<keyof T, z.ZodType>;
}

/** `24h`, `31 days`, `250ms` or a number of milliseconds. */
const durationMs = z.union([z.number(), z.string()], { error: 'expected a duration: a number of milliseconds or text like 250ms, 30s, 24h, 31d' })
  .transform((value, ctx) => {
    const ms = typeof value === 'number' ? (Number.isInteger(value) && value > 0 ? value : undefined) : parseDuration(value);
    if (ms === undefined) {
      ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a positive duration; write e.g. 250ms, 30s, 24h or 31d (a bare number is milliseconds)` });
      return z.NEVER;
    }
    return ms;
  });

/** One action; only `name` is required, the rest is completed from the code or assumed. */
export const partialActionSchema = z.object({
  ...allOptional(actionSchema.shape),
  name: actionSchema.shape.name,
  expectedDurationMs: durationMs.optional(),
}).strict();

const { actions: _actions, provenance: _provenance, stack, retentionMs: _r, detectionLatencyMs: _d, ...rest } = answersSchema.shape;

/** The answers schema with every answer optional, unknown keys rejected (typos are errors). */
export const partialAnswersSchema = z.object({
  ...allOptional(rest),
  actions: z.array(partialActionSchema).min(1).optional(),
  stack: z.object(allOptional(stack.shape)).strict().optional(),
  retentionMs: durationMs.optional(),
  detectionLatencyMs: durationMs.optional(),
}).strict();

export type PartialAction = Partial<z.output<typeof actionSchema>> & { name: string };
export type PartialAnswers = Partial<Omit<z.output<typeof answersSchema>, 'actions' | 'stack' | 'provenance'>> & {
  actions?: PartialAction[];
  stack?: Partial<z.output<typeof answersSchema>['stack']>;
};

/** One problem in an answers file. */
export interface AnswersFileIssue {
  /** Dotted path with indexes, e.g. `actions[0].significantFields`; empty for the whole file. */
  readonly path: string;
  readonly message: string;
}

/** The answers file could not be read, parsed or validated; `issues` lists every problem. */
export class AnswersFileError extends InvalidOptionsError {
  readonly file: string;
  readonly issues: readonly AnswersFileIssue[];

  constructor(file: string, issues: readonly AnswersFileIssue[]) {
    const lines = issues.map((issue) => `  - ${issue.path || '(file)'}: ${issue.message}`);
    super(`Invalid answers file ${file}:\n${lines.join('\n')}`);
    this.file = file;
    this.issues = issues;
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part)), '');
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message;
}

/**
 * Validates already-parsed answers (an object from YAML/JSON or built in code).
 * @example parseAnswers({ stack: { database: 'postgresql' } }, 'answers.yaml').stack?.database // 'postgresql'
 */
export function parseAnswers(data: unknown, file = 'answers'): PartialAnswers {
  if (data === null || data === undefined) return {};
  const result = partialAnswersSchema.safeParse(data);
  if (!result.success) {
    throw new AnswersFileError(file, result.error.issues.map((issue) => ({ path: formatPath(issue.path), message: issueMessage(issue) })));
  }
  return result.data as PartialAnswers;
}

/**
 * Reads, parses (YAML, which also accepts JSON) and validates an answers file.
 * @example
 * const partial = loadAnswersFile('idempotency-answers.yaml');
 * partial.retentionMs; // 172_800_000 for `retentionMs: 48h`
 */
export function loadAnswersFile(file: string): PartialAnswers {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AnswersFileError(file, [{ path: '', message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` }]);
  }
  let data: unknown;
  try {
    data = file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new AnswersFileError(file, [{ path: '', message: `is not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}` }]);
  }
  if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data))) {
    throw new AnswersFileError(file, [{ path: '', message: 'must be a mapping of answers (e.g. `stack:`, `actions:`), not a list or a scalar' }]);
  }
  return parseAnswers(data, file);
}
