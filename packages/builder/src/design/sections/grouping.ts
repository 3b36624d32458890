/** Groups actions that share one treatment, so the document explains it once and lists the actions in a table. */
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { ActionPlan } from '../plan/plan.js';

export interface ActionGroup<T> {
  readonly actions: readonly ActionPlan[];
  /** The shared treatment, computed from the first action of the group. */
  readonly value: T;
}

/**
 * Actions grouped by the signature `signature` computes (equal signatures share one explanation).
 * @example groupBy(plan.actions, (a) => a.recovery.summary).length // 1 when every action recovers alike
 */
export function groupBy<T>(actions: readonly ActionPlan[], signature: (a: ActionPlan) => string, value: (a: ActionPlan) => T): ActionGroup<T>[] {
  const groups = new Map<string, ActionPlan[]>();
  for (const action of actions) {
    const key = signature(action);
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  return [...groups.values()].map((members) => ({ actions: members, value: value(members[0] as ActionPlan) }));
}

/** Replaces the action's own name in a derived text so texts that differ only by name group together. */
export const withoutName = (a: ActionPlan, text: string): string => text.split(a.action.name).join('{action}').split(a.action.description).join('{description}');

/**
 * A derived text as a group reads it: the action's own name and description replaced by neutral words.
 * @example generic(a, 'createPayment retries') // 'the action retries'
 */
export const generic = (a: ActionPlan, text: string): string =>
  withoutName(a, text).replace(/“\{description\}”/g, 'its handler').split('{description}').join('its handler').split('{action}').join('the action');

/**
 * `a`, `b` and 10 more — the names of a group for headings and labels.
 * @example groupNames([a]) // 'createPayment'
 */
export function groupNames(actions: readonly ActionPlan[]): string {
  const names = actions.map((a) => a.action.name);
  return names.length <= 2 ? names.join(' and ') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

const KIND = { http: 'HTTP', webhook: 'webhook', consumer: 'consumer', job: 'job', cron: 'scheduled' } as const;

/**
 * A group named for a label or table cell: up to three names as they are, beyond that what they
 * have in common (`8 HTTP actions calling Stripe`) — the action analysis table lists every name.
 * @example groupLabel([a, b]) // 'createPayment and placeOrder'
 */
export function groupLabel(actions: readonly ActionPlan[]): string {
  if (actions.length <= 3) return groupNames(actions);
  const kinds = new Set(actions.map((a) => a.action.kind));
  const providers = new Set(actions.map((a) => a.action.provider ?? ''));
  const first = actions[0] as ActionPlan;
  const kind = kinds.size === 1 ? `${KIND[first.action.kind]} ` : '';
  const provider = providers.size === 1 && first.action.provider ? (first.action.kind === 'webhook' ? ` from ${PROVIDER_FACTS[first.action.provider].name}` : ` calling ${PROVIDER_FACTS[first.action.provider].name}`) : '';
  return `the ${actions.length} ${kind}actions${provider} (${first.action.name} …)`;
}
