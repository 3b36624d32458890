/**
 * Keeps the spec's question numbers (1–7, which the document cites) without visible gaps: a
 * question the code or the answers file answered is not asked, but when a later one is, a line
 * first says what answered the skipped ones ("Question 4 (payments): answered by the code …").
 */
import type { PromptPort } from './prompt-port.js';
import type { Provenance } from './propose.js';

function answeredBy(provenance: Provenance): string {
  if (provenance.source === 'code') return `answered by the code${provenance.detail ? ` (${provenance.detail})` : ''}`;
  if (provenance.source === 'file') return `answered by ${provenance.detail ?? 'the answers file'}`;
  return 'answered';
}

export class QuestionNumbers {
  readonly #prompts: PromptPort | undefined;
  readonly #pending = new Map<number, string>();
  #shown = 0;

  constructor(prompts: PromptPort | undefined) {
    this.#prompts = prompts;
  }

  /**
   * Records that question `n` needs no asking, and why.
   * @example numbers.answered(4, 'payments', { source: 'code', detail: 'package.json:13' });
   */
  answered(n: number, topic: string, provenance: Provenance): void {
    if (n > this.#shown) this.#pending.set(n, `Question ${n} (${topic}): ${answeredBy(provenance)}.`);
  }

  /**
   * The prefix of question `n`'s message; first shows the skipped questions before it, so the
   * numbers the user sees never jump.
   * @example prompts.select({ id: 'concurrency', message: `${numbers.label(5)} — how many instances…?`, … })
   */
  label(n: number): string {
    const skipped = [...this.#pending.entries()].filter(([number]) => number < n).sort(([a], [b]) => a - b);
    if (skipped.length > 0) this.#prompts?.note(skipped.map(([, line]) => line).join('\n'), 'Already answered');
    for (const number of [...this.#pending.keys()]) if (number <= n) this.#pending.delete(number);
    this.#shown = Math.max(this.#shown, n);
    return `Question ${n}`;
  }
}
