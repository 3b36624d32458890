/**
 * Sample request bodies built from an action's significant fields, for the examples in the
 * document and the generated test suites (the same values in every language).
 */
import type { Action } from '../../answers.js';

export type SampleValue = string | number | boolean | null | readonly { readonly sku: string; readonly qty: number }[];

/**
 * A plausible value for a field, chosen from its name.
 * @example sampleValue('amount') // 4999
 */
export function sampleValue(field: string): SampleValue {
  const name = field.split('.').pop() ?? field;
  if (/amount|total|price|cents|sum|fee/i.test(name)) return 4999;
  if (/currency/i.test(name)) return 'EUR';
  if (/quantity|qty|count/i.test(name)) return 2;
  if (/^(items|lines|products|skus)$/i.test(name)) return [{ sku: 'SKU-1', qty: 1 }];
  if (/email/i.test(name)) return 'ada@mail.test';
  if (/(id|Id|_id)$/.test(name)) return `${name.replace(/_?id$/i, '') || 'obj'}-42`;
  return `${name}-1`;
}

/** A nested object for a dotted path: `payer.id` → { payer: { id: … } }. */
function setPath(target: Record<string, unknown>, path: string, value: SampleValue): void {
  const parts = path.split('.');
  let node = target;
  parts.slice(0, -1).forEach((part) => {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  });
  node[parts[parts.length - 1] as string] = value;
}

/**
 * The sample body of an action, and a variant whose first significant field differs.
 * @example sampleBodies(action).same // { amount: 4999, currency: 'EUR', recipient_id: 'recipien-42' }
 */
export function sampleBodies(action: Action): { same: Record<string, unknown>; different: Record<string, unknown> } {
  // No named field: the whole body is the fingerprint, so two bodies that differ at all must
  // conflict — two empty bodies would make the generated 409 test expect what cannot happen.
  if (action.significantFields.length === 0) return { same: { example: 'body-1' }, different: { example: 'body-2' } };
  const same: Record<string, unknown> = {};
  const different: Record<string, unknown> = {};
  action.significantFields.forEach((field, index) => {
    const value = sampleValue(field);
    setPath(same, field, value);
    let changed: SampleValue = value;
    if (index === 0) changed = typeof value === 'number' ? value + 1 : typeof value === 'string' ? `${value}-other` : [{ sku: 'SKU-2', qty: 3 }];
    setPath(different, field, changed);
  });
  return { same, different };
}
