/**
 * The terminal implementation of the prompt port, on @clack/prompts. Only used when stdin and
 * stdout are TTYs; everything else (CI, pipes, `--yes`) never reaches this file.
 */
import { confirm, isCancel, multiselect, note, select, text } from '@clack/prompts';
import { PromptCancelledError, type PromptPort, type QuestionId } from './prompt-port.js';

function unwrap<T>(id: QuestionId, value: T | symbol): Exclude<T, symbol> {
  if (isCancel(value)) throw new PromptCancelledError(id);
  return value as Exclude<T, symbol>;
}

/**
 * Prompts on the terminal.
 * @example const prompts = createClackPrompts(); await prompts.select({ id: 'format', message: 'Format?', options })
 */
export function createClackPrompts(): PromptPort {
  return {
    async select(question) {
      const options = question.options.map((o) => ({ value: o.value, label: o.label, ...(o.hint ? { hint: o.hint } : {}) }));
      // clack's Option type is conditional on the value type; the cast keeps our generic signature.
      const answer = await select({ message: question.message, options: options as never, initialValue: question.initialValue as never });
      return unwrap(question.id, answer) as never;
    },
    async multiselect(question) {
      const options = question.options.map((o) => ({ value: o.value, label: o.label, ...(o.hint ? { hint: o.hint } : {}) }));
      const answer = await multiselect({
        message: question.message,
        options: options as never,
        initialValues: (question.initialValues ?? []) as never,
        required: question.required ?? false,
      });
      return unwrap(question.id, answer) as never;
    },
    async text(question) {
      const answer = await text({
        message: question.message,
        ...(question.placeholder ? { placeholder: question.placeholder } : {}),
        ...(question.initialValue ? { initialValue: question.initialValue } : {}),
        ...(question.validate ? { validate: (value: string | undefined) => question.validate?.(value ?? '') } : {}),
      });
      return unwrap(question.id, answer);
    },
    async confirm(question) {
      return unwrap(question.id, await confirm({ message: question.message, initialValue: question.initialValue ?? true }));
    },
    note(message, title) {
      note(message, title);
    },
  };
}
