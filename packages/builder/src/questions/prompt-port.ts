/**
 * The one seam between the question flow and a terminal: four prompt kinds, each tagged with a
 * stable question id so a script (tests, `--answers`-like automation) can answer it and the flow
 * can prove what it asked and in which order.
 */

/** Stable ids of everything the flow can ask; a second ask of the same question ends in `.again`. */
export type QuestionId =
  | 'format'
  | 'actions' | 'actions.again'
  | 'stack.language' | 'stack.language.again'
  | 'stack.framework'
  | 'stack.database' | 'stack.database.again'
  | 'stack.broker'
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

/** The user cancelled a prompt (Ctrl-C / Esc). The CLI exits without writing anything. */
export class PromptCancelledError extends Error {
  constructor(readonly questionId: QuestionId) {
    super(`Cancelled at question "${questionId}"; nothing was written.`);
    this.name = 'PromptCancelledError';
  }
}
