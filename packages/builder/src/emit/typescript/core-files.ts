/**
 * Generated TypeScript shared by every framework: the engine with per-action policies, the
 * per-action fingerprints, and the HTTP mapping of the runtime's typed errors.
 */
import type { Plan } from '../../design/plan/plan.js';
import { STORE_IMPORTS } from './runtime-api.js';

const ms = (value: number) => value.toLocaleString('en-US').replace(/,/g, '_');

/**
 * `idempotency.ts`: the store, the engine and the lock timeout / key expiry of every action.
 * @example engineFile(plan).includes('createIdempotency')
 */
export function engineFile(plan: Plan): string {
  const store = STORE_IMPORTS[plan.stack.store];
  const maxLease = Math.max(...plan.actions.map((a) => a.lease.leaseMs));
  const policies = plan.actions
    .map((a) => `  /** lease: ${a.lease.justification.split('. ')[0]}. */\n  ${a.action.name}: { leaseMs: ${ms(a.lease.leaseMs)}, ttlMs: ${ms(a.retention.ttlMs)} },`)
    .join('\n');
  const header = [
    `// Idempotency engine for ${plan.codeName}: one store, and the lock timeout (leaseMs) and key`,
    '// expiry (ttlMs) of every protected action, as derived in the design document.',
    "import { createIdempotency } from '@idempotency-builder/runtime';",
    `import { ${store.factory} } from '${store.module}';`,
    ...store.driverImports,
  ].join('\n');
  const setup = store.setup.length > 0 ? `\n${store.setup.join('\n')}\n` : '';
  const create = plan.stack.store === 'postgresql' && plan.partitioned ? "createPostgresStore({ db: pool, layout: 'partitioned' })" : store.create;
  const migrate = plan.stack.store === 'postgresql' ? '\n// Create the table once per environment: `await store.migrate()` (or psql -f db/idempotency_store.sql).' : '';
  return `${header}
${setup}
/** Per-action lease and retention; see the design document, sections 4 and 5. */
export const POLICIES = {
${policies}
} as const;

export type ProtectedAction = keyof typeof POLICIES;

/**
 * A failure that must be remembered and replayed (declined card, invalid request), never retried.
 * Anything else thrown by an action is transient: the claim is released and a retry runs again.
 */
export class PermanentError extends Error {
  readonly statusCode: number;

  constructor(message: string, statusCode = 422) {
    super(message);
    this.name = 'PermanentError';
    this.statusCode = statusCode;
  }
}

${migrate}
export const store = ${create};

export const idempotency = createIdempotency({
  store,
  // Engine defaults; every call passes its action's own policy.
  leaseMs: ${ms(maxLease)},
  ttlMs: ${ms(plan.maxTtlMs)},
  // A record past its expiry is never replayed: the request counts as new.
  onExpired: 'new',
  isPermanent: (error) => error instanceof PermanentError,
});
`;
}

/**
 * The fingerprint's first two parts for an action: HTTP method and path, or kind and channel.
 * @example signatureOf(plan.actions[0]) // { method: 'POST', path: '/payments' }
 */
export function signatureOf(a: Plan['actions'][number]): { method: string; path: string } {
  const { action } = a;
  if (action.kind === 'http' || action.kind === 'webhook') return { method: action.method ?? 'POST', path: action.route ?? `/${action.name}` };
  return { method: action.kind.toUpperCase(), path: action.channel ?? action.name };
}

/**
 * `fingerprints.ts`: one fingerprint per action over exactly its significant fields — the same
 * value the HTTP adapter computes for the route.
 * @example fingerprintsFile(plan).includes('fingerprintFields')
 */
export function fingerprintsFile(plan: Plan): string {
  const entries = plan.actions
    .map((a) => {
      const { method, path } = signatureOf(a);
      return `  ${a.action.name}: { method: ${JSON.stringify(method)}, path: ${JSON.stringify(path)}, fields: ${JSON.stringify(a.action.significantFields)} },`;
    })
    .join('\n');
  return `// Fingerprint utility: SHA-256 (hex) of [method, path, 'fields', SHA-256(canonical JSON of the
// significant field values)], each part typed and length-prefixed. It equals what the
// idempotency-builder HTTP adapters compute with \`fingerprint: { bodyFields }\`, and the Python, Go and
// Java utilities produce the same bytes, so services in several languages can share one store.
// Everything else in a request (timestamps, trace ids, auth headers) is deliberately left out.
import { fingerprintFields, fingerprintJson } from '@idempotency-builder/runtime';
import type { ProtectedAction } from './idempotency.js';

export const SIGNIFICANT: Record<ProtectedAction, { readonly method: string; readonly path: string; readonly fields: readonly string[] }> = {
${entries}
};

function valueAt(body: unknown, path: string): unknown {
  let node = body;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * The fingerprint of one request. Pass the concrete request path when the route has parameters
 * (\`/orders/42/refund\`, not the pattern).
 */
export function fingerprint(action: ProtectedAction, body: unknown, path: string = SIGNIFICANT[action].path): string {
  const { method, fields } = SIGNIFICANT[action];
  const values = fields.map((field) => valueAt(body, field));
  return fingerprintFields([method, path, 'fields', fingerprintJson(values, { exclude: [] })]);
}

/** A field by dot path, for derived keys. */
export function fieldValue(body: unknown, path: string): string {
  const value = valueAt(body, path);
  return value === undefined || value === null ? '' : typeof value === 'object' ? fingerprintJson(value, { exclude: [] }) : String(value);
}
`;
}
