/**
 * The whole question flow: the output format first, then the inspection, then only the spec's
 * seven questions that neither the code nor the answers file answered — merged into one validated
 * `Answers`. Without a prompt port (no terminal, `--yes`) nothing is asked and nothing waits:
 * unanswered questions become stated assumptions, and unknown actions or stack an agnostic design.
 */
import { providerCallAnswers } from './provider-calls.js';
import { basename } from 'node:path';
import { answersSchema, type Answers } from '../answers.js';
import type { PartialAnswers } from '../answers-file.js';
import type { Inspection } from '../inspect/types.js';
import { resolveActions } from './ask-actions.js';
import { resolveContext } from './ask-context.js';
import { resolveDurations } from './ask-durations.js';
import { resolveStack } from './ask-stack.js';
import { KOA_PRINCIPAL_ASSUMPTION, SCOPE_ASSUMPTION, genericAction } from './defaults.js';
import { formatFindings } from './findings-report.js';
import type { PromptPort } from './prompt-port.js';
import { proposeFromInspection, type Proposals, type Provenance } from './propose.js';
import { QuestionNumbers } from './question-numbers.js';

export type Format = Answers['format'];

export interface CollectOptions {
  /** Runs the inspection; called after the format question, before any other. */
  readonly inspect: () => Promise<Inspection>;
  /** Called once the format is known, before the inspection (the CLI checks the output path here). */
  readonly onFormat?: (format: Format) => void | Promise<void>;
  /** Absent: non-interactive — ask nothing, assume and say so. */
  readonly prompts?: PromptPort;
  /** Answers from `--answers FILE`, already validated. */
  readonly file?: PartialAnswers;
  readonly fileName?: string;
  /** `--format`, which answers the format question. */
  readonly format?: Format;
  /** Where the findings are shown when there is no prompt port (e.g. stdout). */
  readonly log?: (text: string) => void;
}

export interface Collected {
  readonly answers: Answers;
  readonly inspection: Inspection;
  readonly proposals: Proposals;
}

/**
 * Asks (or decides) the output format — the first question of the flow.
 * @example await resolveFormat({ prompts }) // 'html' unless the user picks Markdown
 */
export async function resolveFormat({ prompts, file, fileName = 'answers file', format }: Pick<CollectOptions, 'prompts' | 'file' | 'fileName' | 'format'>): Promise<{ format: Format; provenance: Provenance }> {
  if (format) return { format, provenance: { source: 'user', detail: '--format' } };
  if (file?.format) return { format: file.format, provenance: { source: 'file', detail: fileName } };
  if (!prompts) return { format: 'html', provenance: { source: 'assumption', detail: 'no preference stated: HTML, the default' } };
  const chosen = await prompts.select<Format>({
    id: 'format',
    message: 'Should the design document be HTML or Markdown?',
    options: [
      { value: 'html', label: 'HTML', hint: 'default — one self-contained file, opens in any browser' },
      { value: 'md', label: 'Markdown', hint: 'same structure, for a repository or wiki' },
    ],
    initialValue: 'html',
  });
  return { format: chosen, provenance: { source: 'user' } };
}

/**
 * Runs the flow and returns validated answers.
 * @example
 * const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir), prompts: createClackPrompts() });
 * answers.actions[0].name; // 'createPayment'
 */
export async function collectAnswers(options: CollectOptions): Promise<Collected> {
  const { prompts, file = {}, fileName = 'answers file', log } = options;
  const format = await resolveFormat(options);
  await options.onFormat?.(format.format);
  const inspection = await options.inspect();
  const proposals = proposeFromInspection(inspection);
  const report = formatFindings(inspection, proposals);
  if (prompts) prompts.note(report, 'What the code already answers');
  else log?.(report);

  const numbers = new QuestionNumbers(prompts);
  const actions = await resolveActions({ proposals, file, fileName, prompts, numbers });
  // Durations belong to question 1, but only for actions that are known (never the placeholder).
  const durations = await resolveDurations({ actions: actions.actions, prompts, numbers });
  const stack = await resolveStack({ proposals, file, fileName, prompts, numbers });
  const agnostic = file.agnostic ?? (!actions.resolved || !stack.resolved);
  const finalActions = durations.actions.length > 0 ? durations.actions : [genericAction()];
  const context = await resolveContext({ actions: finalActions, proposals, file, fileName, prompts, numbers });

  const provenance: Record<string, Provenance> = { format: format.provenance, ...actions.provenance, ...durations.provenance, ...stack.provenance, ...context.provenance };
  if (!actions.resolved) {
    provenance.actions = { source: 'assumption', detail: 'question 1 stayed unanswered: one generic protected action (`protectedAction`, a money-moving POST) stands in for yours' };
  }
  if (agnostic) {
    const missing = [!actions.resolved && 'the protected action (question 1)', !stack.resolved && 'the stack (question 2)'].filter(Boolean).join(' and ');
    provenance.agnostic = {
      source: file.agnostic ? 'file' : 'assumption',
      detail: file.agnostic ? fileName : `${missing} stayed unknown, so the design is technology-agnostic on the PostgreSQL reference schema; the implementation code needs adapting to your stack`,
    };
  }
  let database = stack.stack.database;
  if (agnostic && (database === 'unknown' || database === 'other')) {
    database = 'postgresql';
    provenance['stack.database'] = { source: 'assumption', detail: 'the database is unknown; the PostgreSQL reference schema stands in for it' };
  }
  if (!file.scope) provenance.scope = { source: 'assumption', detail: SCOPE_ASSUMPTION };
  // Koa: the principal the handlers read on ctx.state scopes the keys; none read, the default is stated as assumed.
  const principal = file.principal ?? proposals.principal?.value;
  if (file.principal) provenance.principal = { source: 'file', detail: fileName };
  else if (proposals.principal) provenance.principal = proposals.principal.provenance;
  else if (stack.stack.framework === 'koa' && !agnostic) provenance.principal = { source: 'assumption', detail: KOA_PRINCIPAL_ASSUMPTION };
  const projectName = file.projectName ?? proposals.projectName?.value ?? (basename(inspection.dir) || undefined);

  const answers = answersSchema.parse({
    // Answers this flow does not handle itself (fields added to the schema later) pass through.
    ...file,
    format: format.format,
    ...(projectName ? { projectName } : {}),
    actions: finalActions,
    stack: { ...stack.stack, database },
    ...context.context,
    ...(file.keysPerDay !== undefined ? { keysPerDay: file.keysPerDay } : {}),
    scope: file.scope ?? 'user',
    ...(principal ? { principal } : {}),
    providerCalls: file.providerCalls ?? providerCallAnswers(inspection),
    agnostic,
    provenance,
    // What the code already does to deduplicate: the document lists it (an answers file may state it instead).
    ...(file.existingProtection ?? inspection.existingProtection ? { existingProtection: file.existingProtection ?? inspection.existingProtection } : {}),
  });
  return { answers, inspection, proposals };
}
