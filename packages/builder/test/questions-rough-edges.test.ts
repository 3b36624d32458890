/**
 * The question flow's rough edges from issue 14, each shown fixed through the scripted prompts:
 * action durations asked, a short retention's raise said with its reason, "Something else" as
 * the broker asks which, an empty answer stated as the user's, question numbers without gaps, and
 * Ctrl-C naming the question in words (not `stack.broker`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';
import { collectAnswers, createScriptedPrompts, PromptCancelledError, type PromptScript, type ScriptedPrompts } from '../src/questions/index.js';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

async function run(name: string, prompts: ScriptedPrompts | undefined, extra: Partial<Parameters<typeof collectAnswers>[0]> = {}) {
  return collectAnswers({ inspect: () => inspectCodebase(fixture(name)), ...(prompts ? { prompts } : {}), log: () => {}, ...extra });
}

/** The stripe fixture's answers, everything but what a test varies. */
const STRIPE: PromptScript = {
  format: 'md', 'actions.duration.all': 'default', 'stack.broker': 'none', retrySources: ['client-retry'],
  concurrency: 'multi-instance', retention: 'default', detectionLatency: '50',
};

/** An empty project answered by hand: one action, Python/FastAPI/PostgreSQL. */
const BY_HAND: PromptScript = {
  format: 'html', actions: 'create payment via Stripe', 'stack.language': 'python', 'stack.framework': 'fastapi',
  'stack.database': 'postgresql', 'stack.broker': 'none', retrySources: ['client-retry'], paymentProviders: [],
  concurrency: 'single-server', retention: 'default', detectionLatency: '100',
};

describe('question 1: action durations', () => {
  it('asks each action’s p99 duration when nothing states it, and keeps the answer', async () => {
    const prompts = createScriptedPrompts({ ...BY_HAND, 'actions.duration.createPayment': 'custom', 'actions.duration.createPayment.custom': '3s' });
    const { answers } = await run('empty', prompts);
    expect(prompts.asked.slice(0, 4)).toEqual(['format', 'actions', 'actions.duration.createPayment', 'actions.duration.createPayment.custom']);
    expect(prompts.messages[2]).toMatch(/^Question 1 — how long does `createPayment` take at worst \(p99\)\? The lock lease is derived from it\.$/);
    expect(answers.actions[0]).toMatchObject({ name: 'createPayment', expectedDurationMs: 3000 });
    expect(answers.provenance['actions.createPayment.expectedDurationMs']).toEqual({ source: 'user' });
  });

  it('states the assumed duration when the user is unsure or nothing can be asked', async () => {
    const unsure = await run('empty', createScriptedPrompts({ ...BY_HAND, 'actions.duration.createPayment': '?' }));
    expect(unsure.answers.actions[0]!.expectedDurationMs).toBeUndefined();
    expect(unsure.answers.provenance['actions.createPayment.expectedDurationMs']).toEqual({
      source: 'assumption',
      detail: expect.stringMatching(/^p99 duration not stated; 10 s assumed, typical for a payment provider call/),
    });
    const unattended = await run('express-postgres-stripe', undefined);
    for (const action of unattended.answers.actions) {
      expect(unattended.answers.provenance[`actions.${action.name}.expectedDurationMs`]?.source, action.name).toBe('assumption');
    }
  });

  it('does not ask for a duration the answers file states', async () => {
    const prompts = createScriptedPrompts({ ...BY_HAND, actions: undefined });
    const { answers } = await run('empty', prompts, { file: { actions: [{ name: 'createPayment', kind: 'http', expectedDurationMs: 1500 }] }, fileName: 'a.yaml' });
    expect(prompts.asked.some((id) => id.startsWith('actions.duration'))).toBe(false);
    expect(answers.actions[0]!.expectedDurationMs).toBe(1500);
  });
});

describe('question 6: a retention shorter than a provider’s window', () => {
  it('says that Stripe actions keep 24 h, and why, when 2 h is stated', async () => {
    const prompts = createScriptedPrompts({ ...STRIPE, retention: 'custom', 'retention.custom': '2h' });
    const { answers } = await run('express-postgres-stripe', prompts);
    expect(answers.retentionMs).toBe(2 * 3_600_000); // the user's answer is kept as stated
    const said = prompts.notes.find((note) => note.startsWith('2 h is shorter'));
    expect(said).toMatch(/keys are kept 24 h, at least Stripe's deduplication window \(24 h\).*other actions keep 2 h/);
    expect(answers.provenance.retentionMs).toEqual({ source: 'user', detail: said });
  });

  it('says nothing when the stated retention covers the window', async () => {
    const prompts = createScriptedPrompts({ ...STRIPE, retention: 'custom', 'retention.custom': '48h' });
    const { answers } = await run('express-postgres-stripe', prompts);
    expect(prompts.notes.some((note) => /shorter/.test(note))).toBe(false);
    expect(answers.provenance.retentionMs).toEqual({ source: 'user' });
  });
});

describe('question 2: "Something else" as the broker', () => {
  it('asks which broker and keeps its name', async () => {
    const prompts = createScriptedPrompts({ ...STRIPE, 'stack.broker': 'other', 'stack.broker.other': 'Apache Pulsar' });
    const { answers } = await run('express-postgres-stripe', prompts);
    expect(prompts.asked).toContain('stack.broker.other');
    expect(answers.stack.broker).toBe('other');
    expect(answers.provenance['stack.broker']).toEqual({ source: 'user', detail: expect.stringMatching(/^Apache Pulsar: not one the generated consumer code covers/) });
  });

  it('recognises a broker the design knows under another name', async () => {
    const prompts = createScriptedPrompts({ ...STRIPE, 'stack.broker': 'other', 'stack.broker.other': 'Amazon MQ for RabbitMQ' });
    const { answers } = await run('express-postgres-stripe', prompts);
    expect(answers.stack.broker).toBe('rabbitmq');
    expect(answers.provenance['stack.broker']).toEqual({ source: 'user', detail: 'named as "Amazon MQ for RabbitMQ"' });
  });
});

describe('question 3: an empty answer', () => {
  it('is stated as the user’s "unsure", not as an unasked assumption', async () => {
    const prompts = createScriptedPrompts({ ...STRIPE, retrySources: [] });
    const { answers } = await run('express-postgres-stripe', prompts);
    expect(answers.retrySources.length).toBeGreaterThan(0);
    expect(answers.provenance.retrySources).toEqual({ source: 'assumption', detail: expect.stringMatching(/^you left question 3 empty \(unsure\), so the sources the code suggests are kept/) });
  });
});

describe('question numbers', () => {
  /** The question numbers the user sees, in order: from the questions and the "already answered" notes. */
  const shownNumbers = (prompts: ScriptedPrompts): number[] =>
    prompts.transcript.flatMap((text) => text.split('\n')).flatMap((line) => {
      const match = /^Question (\d+)/.exec(line);
      return match ? [Number(match[1])] : [];
    });

  it('never skip: a question the code answered is announced before the next one is asked', async () => {
    const prompts = createScriptedPrompts(STRIPE);
    await run('express-postgres-stripe', prompts);
    const shown = shownNumbers(prompts);
    expect(new Set(shown)).toEqual(new Set([1, 2, 3, 4, 5, 6, 7]));
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
    const four = prompts.notes.find((text) => text.includes('Question 4'));
    expect(four).toMatch(/^Question 4 \(payments: stripe\): answered by the code \(.+\)\.$/m);
    expect(prompts.notes.indexOf(four!)).toBeGreaterThan(0);
  });
});

describe('Ctrl-C', () => {
  it('names the question in words, never its internal id', () => {
    for (const [id, words] of [
      ['stack.broker', 'question 2 (the message broker)'],
      ['retention.custom', 'question 6 (retention)'],
      ['actions.duration.createPayment', 'question 1 (how long the actions take)'],
      ['format', 'the output format question'],
    ] as const) {
      const error = new PromptCancelledError(id);
      expect(error.message).toContain(`Cancelled at ${words}; nothing was written.`);
      expect(error.message).not.toContain(id === 'format' ? '"format"' : id);
      expect(error.questionId).toBe(id);
    }
  });
});
