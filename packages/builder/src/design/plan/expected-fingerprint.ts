/**
 * The fingerprint the runtime computes for a sample body, embedded in the generated Go, Python and
 * Java tests so each language proves it encodes the same bytes as the TypeScript runtime.
 */
import { fingerprintFields, fingerprintJson } from '@idempotency-builder/runtime';
import type { ActionPlan } from './plan.js';

function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * SHA-256 hex of [method, path, 'fields', SHA-256(canonical JSON of the significant values)].
 * @example expectedFingerprint(plan.actions[0], { amount: 4999, currency: 'EUR' })
 */
export function expectedFingerprint(plan: ActionPlan, body: unknown): string {
  const { action } = plan;
  const http = action.kind === 'http' || action.kind === 'webhook';
  const method = http ? (action.method ?? 'POST') : action.kind.toUpperCase();
  const path = http ? (action.route ?? `/${action.name}`) : (action.channel ?? action.name);
  const values = action.significantFields.map((field) => valueAt(body, field));
  return fingerprintFields([method, path, 'fields', fingerprintJson(values, { exclude: [] })]);
}
