/**
 * A prompt port driven by a script instead of a terminal: tests (and automation) answer each
 * question by id and read back exactly what was asked, in order. Asking a question the script
 * does not answer is an error — a test must never pass on a silently invented answer.
 */
import type { PromptPort, QuestionId } from './prompt-port.js';

/**
 * Answers per question id. A repeated question has its own id (`actions.again`), so one answer
 * per id is enough — and a flow that asks one id twice shows up twice in `asked`.
 */
export type PromptScript = Partial<Record<QuestionId, unknown>>;

export interface ScriptedPrompts extends PromptPort {
  /** Question ids in the order they were asked. */
  readonly asked: QuestionId[];
  /** Everything shown with `note`, in order. */
  readonly notes: string[];
  /** Messages of the asked questions, in order (to check examples and pre-filled findings). */
  readonly messages: string[];
  /** Everything the user would have seen, questions and notes, in order. */
  readonly transcript: string[];
}

/**
 * Creates a scripted port. `'default'` answers with the question's initial value.
 * @example
 * const prompts = createScriptedPrompts({ format: 'md', concurrency: 'multi-instance' });
 * await collectAnswers({ prompts, ... }); prompts.asked // ['format', 'concurrency', ...]
 */
export function createScriptedPrompts(script: PromptScript): ScriptedPrompts {
  const asked: QuestionId[] = [];
  const notes: string[] = [];
  const messages: string[] = [];
  const transcript: string[] = [];
  const next = (id: QuestionId, message: string, initial: unknown): unknown => {
    asked.push(id);
    messages.push(message);
    transcript.push(message);
    if (!(id in script)) throw new Error(`The script has no answer for question "${id}": ${message}`);
    const answer = script[id];
    return answer === 'default' ? initial : answer;
  };
  return {
    asked,
    notes,
    messages,
    transcript,
    async select(question) {
      return next(question.id, question.message, question.initialValue) as never;
    },
    async multiselect(question) {
      return next(question.id, question.message, question.initialValues ?? []) as never;
    },
    async text(question) {
      const answer = String(next(question.id, question.message, question.initialValue ?? '') ?? '');
      const problem = question.validate?.(answer);
      if (problem) throw new Error(`Scripted answer "${answer}" to "${question.id}" is invalid: ${problem}`);
      return answer;
    },
    async confirm(question) {
      return Boolean(next(question.id, question.message, question.initialValue ?? true));
    },
    note(message) {
      notes.push(message);
      transcript.push(message);
    },
  };
}
