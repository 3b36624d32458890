/**
 * Section 1: action analysis — what executes, what a duplicate costs, who retries it and how it
 * recovers. Actions that share a treatment share one subsection: the explanation once, then a
 * per-action table.
 */
import { bullets, code, join, labelled, para, rich, section, table, txt } from '../inline.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { Section } from '../model.js';
import type { ActionPlan } from '../plan/plan.js';
import { actionAnchor, recoveryInCode, type DesignContext } from './context.js';
import { generic, groupBy, groupNames, withoutName } from './grouping.js';

/** Everything the shared explanation says; two actions with the same signature read the same. */
const treatment = (a: ActionPlan) =>
  withoutName(a, JSON.stringify([a.impact.severity, a.impact.text, a.recovery.summary, a.recovery.steps, a.retrySources.map((s) => s.source), a.action.provider ?? '', a.action.kind]));

function analysis(ctx: DesignContext, actions: readonly ActionPlan[]): Section {
  const a = actions[0] as ActionPlan;
  const { action } = a;
  const recovery = recoveryInCode(ctx, a);
  const sources = join(a.retrySources.map((source) => [code(source.source)]));
  const provider = action.provider ? (action.kind === 'webhook' ? ` Events come from ${PROVIDER_FACTS[action.provider].name}.` : ` Calls ${PROVIDER_FACTS[action.provider].name}.`) : '';
  const kind = { http: 'HTTP', webhook: 'webhook', consumer: 'consumer', job: 'job', cron: 'scheduled' }[action.kind] ?? action.kind;
  const calls = action.provider ? (action.kind === 'webhook' ? ` from ${PROVIDER_FACTS[action.provider].name}` : ` calling ${PROVIDER_FACTS[action.provider].name}`) : '';
  // A long list of names would make the heading (and the contents) a paragraph: beyond two, the table names them.
  const title = actions.length === 1 ? `${action.name} — ${a.trigger}` : actions.length === 2 ? `${groupNames(actions)} — one treatment` : `${actions.length} ${kind} actions${calls}, one treatment`;
  const rows = actions.map((m) => [
    [code(m.action.name)],
    m.trigger,
    m.action.location ? [code(m.action.location)] : '—',
    join(m.action.significantFields.map((field) => [code(field)])),
    `${m.action.description}${m.action.steps && m.action.steps.length > 1 ? ` (${m.action.steps.join(' → ')})` : ''}`,
  ]);
  return section(actionAnchor('action', a), title, [
    bullets([
      labelled('Duplicate impact', txt`${a.impact.severity}. ${rich(generic(a, a.impact.text))}${provider}`),
      labelled('Failure recovery path', txt`${rich(generic(a, recovery.summary))} ${rich(generic(a, recovery.steps.join(' ')))}`),
      labelled('Retry sources', txt`${sources} (each explained once, above).`),
    ]),
    table(['Action', 'Trigger', 'Found at', 'Semantically significant fields', 'What executes'], rows, actions.length === 1 ? undefined : `The ${actions.length} actions with this treatment`),
  ]);
}

/**
 * Section 1: one analysis per treatment, naming every protected action.
 * @example actionAnalysisSection({ plan, artifacts }).children.length
 */
export function actionAnalysisSection(ctx: DesignContext): Section {
  const groups = groupBy(ctx.plan.actions, treatment, (a) => a);
  // Every retry source explained once, whichever actions it repeats.
  const sources = new Map<string, { description: string; inherent: boolean; actions: string[] }>();
  for (const a of ctx.plan.actions) {
    for (const source of a.retrySources) {
      const entry = sources.get(source.source) ?? { description: withoutName(a, source.description).split('{action}').join('the action'), inherent: source.inherent, actions: [] };
      entry.actions.push(a.action.name);
      sources.set(source.source, entry);
    }
  }
  const sourceRows = [...sources].map(([name, entry]) => [[code(name)], rich(`${entry.description}${entry.inherent ? ' (inherent to this kind of action)' : ''}`), entry.actions.length === ctx.plan.actions.length ? 'all' : entry.actions.join(', ')]);
  return section(
    'action-analysis',
    '1. Action analysis',
    [
      para(txt`What runs, what a second execution costs, every path that can cause one, and how each action recovers when the server dies halfway. Actions that share a treatment are explained once and listed in its table.`),
      table(['Retry source', 'How it repeats an action', 'Actions'], sourceRows, 'Paths that can run an action twice'),
    ],
    groups.map((group) => analysis(ctx, group.actions)),
  );
}
