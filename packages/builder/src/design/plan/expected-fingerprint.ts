/**
 * The fingerprint the runtime's HTTP adapters compute for a sample body — by the runtime's own
 * `requestFingerprint`, never restated — shown in the document and embedded in the generated Go,
 * Python and Java tests so each language proves it encodes the same bytes as the runtime.
 */
import { requestFingerprint, resolveFingerprintOptions } from '@idempotency-builder/runtime/http';
import type { ActionPlan } from './plan.js';

/**
 * The method and path an action's fingerprint starts with: the route for HTTP, the channel or
 * name (with the kind as the method) for consumers and jobs.
 */
export function fingerprintTarget(plan: ActionPlan): { method: string; path: string } {
  const { action } = plan;
  const http = action.kind === 'http' || action.kind === 'webhook';
  return {
    method: http ? (action.method ?? 'POST') : action.kind.toUpperCase(),
    path: http ? (action.route ?? `/${action.name}`) : (action.channel ?? action.name),
  };
}

/**
 * The significant fields an action hashes, or the whole body (canonical JSON, the runtime's
 * default exclusions) when the code names none.
 * @example expectedFingerprint(plan.actions[0], { amount: 4999, currency: 'EUR' })
 */
export function expectedFingerprint(plan: ActionPlan, body: unknown): string {
  const fields = plan.action.significantFields;
  const options = resolveFingerprintOptions(fields.length > 0 ? { bodyFields: fields } : {});
  return requestFingerprint({ ...fingerprintTarget(plan), body }, options);
}
