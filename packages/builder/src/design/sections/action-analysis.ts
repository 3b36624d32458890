/**
 * Section 1: action analysis — what executes, what a duplicate costs, who retries it and how it
 * recovers. Actions that share a treatment share one subsection: the explanation once, then a
 * per-action table.
 */
import { bullets, code, join, labelled, rich, section, table, txt } from '../inline.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { Section } from '../model.js';
import type { ActionPlan } from '../plan/plan.js';
import { actionAnchor, recoveryInCode, type DesignContext } from './context.js';
import { generic, groupBy, groupNames, withoutName } from './grouping.js';

/**
 * The treatment: how an action recovers (what section 1 explains at length). Impacts and retry
 * sources are explained once each in the tables that open the section, so they do not split groups.
 */
const treatment = (ctx: DesignContext, a: ActionPlan) => {
  const recovery = recoveryInCode(ctx, a);
  return withoutName(a, JSON.stringify([recovery.summary, recovery.steps, a.action.provider ?? '', a.action.kind]));
};

/**
 * The anchor of the subsection that explains an action's treatment (shared by its group).
 * @example analysisAnchor(ctx, plan.actions[1]) // 'action-createpayment' when both share one treatment
 */
export function analysisAnchor(ctx: DesignContext, a: ActionPlan): string {
  const first = ctx.plan.actions.find((x) => treatment(ctx, x) === treatment(ctx, a)) ?? a;
  return actionAnchor('action', first);
}

const impactKey = (a: ActionPlan) => `${a.impact.severity}|${generic(a, a.impact.text)}`;
const firstClause = (text: string) => /^(.+?)(?::\s|\s—\s|[.!?](?:\s|$))/.exec(text)?.[1] ?? text;

function analysis(ctx: DesignContext, actions: readonly ActionPlan[], impactsExplained: boolean): Section {
  const a = actions[0] as ActionPlan;
  const { action } = a;
  const recovery = recoveryInCode(ctx, a);
  const sourceNames = [...new Set(actions.flatMap((m) => m.retrySources.map((source) => source.source)))];
  const sources = join(sourceNames.map((source) => [code(source)]));
  const provider = action.provider ? (action.kind === 'webhook' ? ` Events come from ${PROVIDER_FACTS[action.provider].name}.` : ` Calls ${PROVIDER_FACTS[action.provider].name}.`) : '';
  // With the costs explained in the table above, a group names each of its costs by its first clause.
  const impacts = [...new Map(actions.map((m) => [impactKey(m), m])).values()];
  const impact = impactsExplained
    ? txt`${impacts.map((m) => `${m.impact.severity} (${firstClause(generic(m, m.impact.text)).replace(/^its handler/, 'the action')})`).join('; ')}, as costed above.${provider}`
    : txt`${a.impact.severity}. ${rich(generic(a, a.impact.text))}${provider}`;
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
      labelled('Duplicate impact', impact),
      labelled('Failure recovery path', txt`${rich(generic(a, recovery.summary))} ${rich(generic(a, recovery.steps.join(' ')))}`),
      labelled('Retry sources', txt`${sources}.`),
    ]),
    table(['Action', 'Trigger', 'Found at', 'Semantically significant fields', 'What executes'], rows, actions.length === 1 ? undefined : `The ${actions.length} actions with this treatment`),
  ]);
}

/**
 * Section 1: one analysis per treatment, naming every protected action.
 * @example actionAnalysisSection({ plan, artifacts }).children.length
 */
export function actionAnalysisSection(ctx: DesignContext): Section {
  const groups = groupBy(ctx.plan.actions, (a) => treatment(ctx, a), (a) => a);
  // Every cost explained once, whichever actions it threatens (when there is more than one).
  const costs = groupBy(ctx.plan.actions, impactKey, (a) => a);
  const costRows = costs.map(({ actions, value: a }) => [a.impact.severity, rich(generic(a, a.impact.text)), actions.length === ctx.plan.actions.length ? 'all' : groupNames(actions)]);
  // Every retry source explained once, whichever actions it repeats.
  const sources = new Map<string, { description: string; inherent: boolean; actions: string[] }>();
  for (const a of ctx.plan.actions) {
    for (const source of a.retrySources) {
      // The first clause says how the source repeats an action; the rest elaborates.
      const entry = sources.get(source.source) ?? { description: (withoutName(a, source.description).split('{action}').join('the action').split('; ')[0] as string), inherent: source.inherent, actions: [] };
      entry.actions.push(a.action.name);
      sources.set(source.source, entry);
    }
  }
  const sourceRows = [...sources].map(([name, entry]) => [[code(name)], rich(`${entry.description}${entry.inherent ? ' (inherent to this kind of action)' : ''}`), entry.actions.length === ctx.plan.actions.length ? 'all' : entry.actions.join(', ')]);
  return section(
    'action-analysis',
    '1. Action analysis',
    [
      table(['Retry source', 'How it repeats an action', 'Actions'], sourceRows, 'Paths that can run an action twice'),
      ...(costs.length > 1 ? [table(['Severity', 'What a second execution costs', 'Actions'], costRows, 'What a duplicate costs')] : []),
    ],
    groups.map((group) => analysis(ctx, group.actions, costs.length > 1)),
  );
}
