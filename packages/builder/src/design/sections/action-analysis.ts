/** Section 1: action analysis — per action what executes, what a duplicate costs, who retries it. */
import { bullets, code, join, labelled, para, rich, section, txt } from '../inline.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { Section } from '../model.js';
import type { ActionPlan } from '../plan/plan.js';
import { actionAnchor, type DesignContext } from './context.js';

function analysis(a: ActionPlan): Section {
  const { action } = a;
  const where = action.location ? txt` (found at ${code(action.location)})` : [];
  const sources = a.retrySources.map((source) => txt`${code(source.source)}${source.inherent ? ' (inherent to this kind of action, added)' : ''}: ${rich(source.description)}`);
  return section(actionAnchor('action', a), `${action.name} — ${a.trigger}`, [
    bullets([
      labelled('What executes', txt`${action.description}${where}.${action.provider ? (action.kind === 'webhook' ? ` Its events come from ${PROVIDER_FACTS[action.provider].name}.` : ` It calls ${PROVIDER_FACTS[action.provider].name}.`) : ''}${action.steps && action.steps.length > 1 ? ` It has ${action.steps.length} steps: ${action.steps.join(' → ')}.` : ''}`),
      labelled('Duplicate impact', txt`${a.impact.severity}. ${rich(a.impact.text)}`),
      labelled('Retry sources', txt`${sources.length} path${sources.length === 1 ? '' : 's'} can repeat it — see below.`),
      labelled('Semantically significant fields', join(action.significantFields.map((field) => [code(field)]))),
      labelled('Failure recovery path', txt`${rich(a.recovery.summary)} ${rich(a.recovery.steps.join(' '))}`),
    ]),
    bullets(sources),
  ]);
}

/**
 * Section 1: one analysis per protected action.
 * @example actionAnalysisSection({ plan, artifacts }).children.length
 */
export function actionAnalysisSection(ctx: DesignContext): Section {
  return section(
    'action-analysis',
    '1. Action analysis',
    [para(txt`Each protected action, what runs when it executes, what a second execution costs, every path that can cause one, and how it recovers when the server dies halfway. The recovery paths are detailed in section 5.`)],
    ctx.plan.actions.map(analysis),
  );
}
