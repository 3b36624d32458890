/**
 * The one seam between the question flow and a terminal: four prompt kinds, each tagged with a
 * stable question id so a script (tests, `--answers`-like automation) can answer it and the flow
 * can prove what it asked and in which order.
 */

/** Stable ids of everything the flow can ask; a second ask of the same question ends in `.again`. */
export type QuestionId =
  | 'format'
  | 'actions' | 'actions.again'
  /** The p99 duration of one action (`actions.duration.createPayment`), or of all (`actions.duration.all`); `….custom` for a typed one. */
  | `actions.duration.${string}`
  | 'stack.language' | 'stack.language.again'
  | 'stack.framework'
  | 'stack.database' | 'stack.database.again'
  | 'stack.broker' | 'stack.broker.other'
  | 'retrySources'
  | 'paymentProviders'
  | 'concurrency'
  | 'retention' | 'retention.custom'
  | 'detectionLatency';

export interface Choice<T extends string> {
  readonly value: T;
  readonly label: string;
  readonly hint?: string;
}

export interface SelectQuestion<T extends string> {
  readonly id: QuestionId;
  readonly message: string;
  readonly options: readonly Choice<T>[];
  readonly initialValue?: T;
}

export interface MultiselectQuestion<T extends string> {
  readonly id: QuestionId;
  readonly message: string;
  readonly options: readonly Choice<T>[];
  readonly initialValues?: readonly T[];
  /** False lets the user submit an empty selection. */
  readonly required?: boolean;
}

export interface TextQuestion {
  readonly id: QuestionId;
  readonly message: string;
  readonly placeholder?: string;
  readonly initialValue?: string;
  /** Returns an error message for invalid input, undefined when it is acceptable. */
  readonly validate?: (value: string) => string | undefined;
}

export interface ConfirmQuestion {
  readonly id: QuestionId;
  readonly message: string;
  readonly initialValue?: boolean;
}

/** What the flow needs from a terminal (or from a script standing in for one). */
export interface PromptPort {
  select<T extends string>(question: SelectQuestion<T>): Promise<T>;
  multiselect<T extends string>(question: MultiselectQuestion<T>): Promise<T[]>;
  text(question: TextQuestion): Promise<string>;
  confirm(question: ConfirmQuestion): Promise<boolean>;
  /** Shows information (the findings, with `path:line`) without asking anything. */
  note(message: string, title?: string): void;
}

/**
 * What a question is about, in the user's words: the Ctrl-C message names this, never the id.
 * @example questionTopic('stack.broker') // 'question 2 (the message broker)'
 */
export function questionTopic(id: QuestionId): string {
  const base = id.replace(/\.(again|custom)$/, '');
  if (base === 'format') return 'the output format question';
  if (base.startsWith('actions.duration')) return 'question 1 (how long the actions take)';
  const topics: Record<string, string> = {
    actions: 'question 1 (the protected actions)',
    'stack.language': 'question 2 (the language)',
    'stack.framework': 'question 2 (the framework)',
    'stack.database': 'question 2 (the database)',
    'stack.broker': 'question 2 (the message broker)',
    'stack.broker.other': 'question 2 (the message broker)',
    retrySources: 'question 3 (what repeats the actions)',
    paymentProviders: 'question 4 (payments)',
    concurrency: 'question 5 (concurrency)',
    retention: 'question 6 (retention)',
    detectionLatency: 'question 7 (detection latency)',
  };
  return topics[base] ?? topics[id] ?? 'a question';
}

/** The user cancelled a prompt (Ctrl-C / Esc). The CLI exits without writing anything. */
export class PromptCancelledError extends Error {
  /** The stable id, for scripts and tests; the message names the topic instead. */
  readonly questionId: QuestionId;

  constructor(questionId: QuestionId) {
    super(`Cancelled at ${questionTopic(questionId)}; nothing was written. Run the command again to start over, or pass --answers FILE to answer without prompts.`);
    this.name = 'PromptCancelledError';
    this.questionId = questionId;
  }
}
