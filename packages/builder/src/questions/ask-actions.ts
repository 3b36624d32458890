/**
 * Question 1 — the protected actions. The answers file wins, then the code; only when neither
 * names an action is the user asked, and asked once more with examples if the first answer is
 * empty. Partial actions from the file are completed from the code or from stated assumptions.
 */
import type { Action } from '../answers.js';
import type { PartialAction, PartialAnswers } from '../answers-file.js';
import { defaultFields, parseActionsText } from './defaults.js';
import type { PromptPort } from './prompt-port.js';
import type { Proposals, Provenance } from './propose.js';
import type { QuestionNumbers } from './question-numbers.js';

export interface ActionsResult {
  readonly actions: Action[];
  /** False when no action is known after two asks (or none could be asked). */
  readonly resolved: boolean;
  readonly provenance: Record<string, Provenance>;
}

const assumption = (detail: string): Provenance => ({ source: 'assumption', detail });

function completeAction(partial: PartialAction, proposals: Proposals, provenance: Record<string, Provenance>): Action {
  const found = proposals.actions.find((p) => p.action.name === partial.name)?.action;
  const kind = partial.kind ?? found?.kind ?? 'http';
  const provider = partial.provider ?? found?.provider;
  let significantFields = partial.significantFields ?? found?.significantFields;
  if (!significantFields || significantFields.length === 0) {
    significantFields = defaultFields(kind, provider, `${partial.name} ${partial.description ?? ''}`);
    provenance[`actions.${partial.name}.significantFields`] = assumption(`not given; assumed ${significantFields.join(', ')} from the kind of action — list the fields that distinguish one intent from another`);
  }
  const method = partial.method ?? found?.method ?? (kind === 'http' || kind === 'webhook' ? 'POST' : undefined);
  const route = partial.route ?? found?.route;
  const channel = partial.channel ?? found?.channel;
  const steps = partial.steps ?? found?.steps;
  const expectedDurationMs = partial.expectedDurationMs ?? found?.expectedDurationMs;
  const location = partial.location ?? found?.location;
  return {
    name: partial.name,
    kind,
    description: partial.description ?? found?.description ?? `${partial.name} (named in the answers file)`,
    ...(method ? { method } : {}),
    ...(route ? { route } : {}),
    ...(channel ? { channel } : {}),
    significantFields,
    ...(provider ? { provider } : {}),
    ...(steps ? { steps } : {}),
    keySource: partial.keySource ?? found?.keySource ?? (kind === 'http' ? 'client' : 'derived'),
    ...(expectedDurationMs ? { expectedDurationMs } : {}),
    ...(location ? { location } : {}),
  };
}

function noteAssumedFields(actions: readonly Action[], provenance: Record<string, Provenance>): void {
  for (const action of actions) {
    provenance[`actions.${action.name}.significantFields`] ??= assumption(`assumed ${action.significantFields.join(', ')} from the description; name the fields that distinguish one intent from another in an answers file`);
  }
}

/**
 * Resolves question 1.
 * @example const { actions, resolved } = await resolveActions({ proposals, file: {}, fileName: '', prompts: undefined });
 */
export async function resolveActions({ proposals, file, fileName, prompts, numbers }: {
  proposals: Proposals; file: PartialAnswers; fileName: string; prompts: PromptPort | undefined; numbers?: QuestionNumbers;
}): Promise<ActionsResult> {
  const provenance: Record<string, Provenance> = {};
  if (file.actions && file.actions.length > 0) {
    provenance.actions = { source: 'file', detail: fileName };
    numbers?.answered(1, 'the protected actions', provenance.actions);
    return { actions: file.actions.map((partial) => completeAction(partial, proposals, provenance)), resolved: true, provenance };
  }
  if (proposals.actions.length > 0) {
    const locations = proposals.actions.map((p) => p.action.location).filter(Boolean);
    provenance.actions = { source: 'code', detail: locations.slice(0, 5).join(', ') + (locations.length > 5 ? ', …' : '') };
    numbers?.answered(1, 'the protected actions', provenance.actions);
    for (const proposed of proposals.actions) {
      for (const [field, note] of Object.entries(proposed.notes)) provenance[`actions.${proposed.action.name}.${field}`] = note;
    }
    return { actions: proposals.actions.map((p) => p.action), resolved: true, provenance };
  }
  if (!prompts) return { actions: [], resolved: false, provenance };

  let actions = parseActionsText(await prompts.text({
    id: 'actions',
    message: `${numbers?.label(1) ?? 'Question 1'} — no mutating endpoint, consumer, webhook or job was found in the code. What action are you protecting? (one or more, comma-separated)`,
    placeholder: 'create payment',
  }));
  if (actions.length === 0) {
    actions = parseActionsText(await prompts.text({
      id: 'actions.again',
      message: 'Question 1 once more, with examples: which action must never run twice? e.g. "create payment", "submit order", "process Stripe webhook", "send notification". Leave empty if you do not know.',
      placeholder: 'submit order',
    }));
  }
  if (actions.length === 0) return { actions: [], resolved: false, provenance };
  provenance.actions = { source: 'user' };
  noteAssumedFields(actions, provenance);
  return { actions, resolved: true, provenance };
}
