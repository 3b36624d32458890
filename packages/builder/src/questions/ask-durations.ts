/**
 * Question 1, continued — how long each protected action takes (p99). The lease is derived from
 * it, so it is asked whenever neither the code nor the answers file states it; unasked or unsure,
 * the typical duration for the kind of action is assumed, and the assumption is stated.
 */
import type { Action } from '../answers.js';
import { defaultDurationMs } from '../design/plan/timing.js';
import { MINUTE, SECOND, formatMs } from '../design/plan/durations.js';
import { parseDuration } from './duration.js';
import type { Choice, PromptPort } from './prompt-port.js';
import type { Provenance } from './propose.js';
import type { QuestionNumbers } from './question-numbers.js';

/** Asked one by one up to this many actions; more share one question (the slowest of them). */
const ASK_EACH_UP_TO = 3;
const UNSURE = '?';
const PRESETS = [SECOND, 2 * SECOND, 10 * SECOND, 30 * SECOND, MINUTE, 5 * MINUTE];

export interface DurationsResult {
  readonly actions: Action[];
  readonly provenance: Record<string, Provenance>;
}

function assumed(action: Action): Provenance {
  return {
    source: 'assumption',
    detail: `p99 duration not stated; ${formatMs(defaultDurationMs(action))} assumed, typical for ${action.provider ? 'a payment provider call' : `a ${action.kind} action`} — the lease is derived from it`,
  };
}

async function askDuration(prompts: PromptPort, id: string, subject: string, label: string, fallback: Action): Promise<number | undefined> {
  const typical = defaultDurationMs(fallback);
  const options: Choice<string>[] = PRESETS.map((ms) => ({ value: String(ms), label: formatMs(ms), ...(ms === typical ? { hint: 'typical for this kind' } : {}) }));
  options.push({ value: 'custom', label: 'Another duration…' }, { value: UNSURE, label: "I don't know", hint: `assume ${formatMs(typical)}` });
  const answer = await prompts.select({
    id: id as `actions.duration.${string}`,
    message: `${label} — how long does ${subject} take at worst (p99)? The lock lease is derived from it.`,
    options,
    initialValue: String(typical),
  });
  if (answer === UNSURE) return undefined;
  if (answer !== 'custom') return Number(answer);
  const text = await prompts.text({
    id: `${id}.custom` as `actions.duration.${string}`,
    message: 'Duration, e.g. 800ms, 45s, 3m:',
    placeholder: formatMs(typical).replace(' ', ''),
    validate: (value) => (parseDuration(value) ? undefined : 'Write a duration such as 800ms, 45s or 3m'),
  });
  return parseDuration(text);
}

/**
 * Fills `expectedDurationMs` of the actions that lack it: asked when a terminal is there.
 * @example const { actions } = await resolveDurations({ actions, prompts, numbers });
 */
export async function resolveDurations({ actions, prompts, numbers }: {
  actions: readonly Action[]; prompts: PromptPort | undefined; numbers: QuestionNumbers;
}): Promise<DurationsResult> {
  const provenance: Record<string, Provenance> = {};
  const missing = actions.filter((action) => action.expectedDurationMs === undefined);
  if (missing.length === 0) return { actions: [...actions], provenance };
  const stated = new Map<string, number | undefined>();
  if (prompts) {
    const label = numbers.label(1);
    if (missing.length <= ASK_EACH_UP_TO) {
      for (const action of missing) stated.set(action.name, await askDuration(prompts, `actions.duration.${action.name}`, `\`${action.name}\``, label, action));
    } else {
      const slowest = missing.reduce((a, b) => (defaultDurationMs(b) > defaultDurationMs(a) ? b : a));
      const ms = await askDuration(prompts, 'actions.duration.all', `the slowest of these ${missing.length} actions`, label, slowest);
      for (const action of missing) stated.set(action.name, ms);
    }
  }
  const result = actions.map((action) => {
    if (action.expectedDurationMs !== undefined) return action;
    const ms = stated.get(action.name);
    if (ms === undefined) {
      provenance[`actions.${action.name}.expectedDurationMs`] = assumed(action);
      return action;
    }
    provenance[`actions.${action.name}.expectedDurationMs`] = { source: 'user' };
    return { ...action, expectedDurationMs: ms };
  });
  return { actions: result, provenance };
}
