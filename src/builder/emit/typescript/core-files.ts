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
    `// Idempotency engine for ${plan.projectName}: one store, and the lock timeout (leaseMs) and key`,
    '// expiry (ttlMs) of every protected action, as derived in the design document.',
    "import { createIdempotency } from 'idempotency-builder';",
    `import { ${store.factory} } from '${store.module}';`,
    ...store.driverImports,
  ].join('\n');
  const setup = store.setup.length > 0 ? `\n${store.setup.join('\n')}\n` : '';
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

export const store = ${store.create};

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
 * `fingerprints.ts`: one function per action hashing exactly its significant fields.
 * @example fingerprintsFile(plan).includes('fingerprintFields')
 */
export function fingerprintsFile(plan: Plan): string {
  const entries = plan.actions
    .map((a) => {
      const fields = a.action.significantFields.map((field) => `field(body, ${JSON.stringify(field)})`).join(', ');
      return `  ${a.action.name}: (body: Body) => fingerprintFields([${JSON.stringify(a.action.name)}, ${fields}]),`;
    })
    .join('\n');
  return `// Request fingerprints: SHA-256 (hex) of each action's semantically significant fields, in a fixed
// order, typed and length-prefixed (so ("a|b","c") and ("a","b|c") differ). The same encoding is
// produced by the Python, Go and Java utilities, so services in several languages can share a store.
import { fingerprintFields, fingerprintJson, type FingerprintField } from 'idempotency-builder';
import type { ProtectedAction } from './idempotency.js';

export type Body = Readonly<Record<string, unknown>>;

/** A field by dot path; objects and arrays count by the SHA-256 of their canonical JSON (RFC 8785). */
export function field(body: Body, path: string): FingerprintField {
  const value = path.split('.').reduce<unknown>(
    (node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
    body,
  );
  if (value === null || value === undefined) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  return fingerprintJson(value, { exclude: [] });
}

/** Everything else in the request (timestamps, trace ids, headers) is deliberately left out. */
export const fingerprints: Record<ProtectedAction, (body: Body) => string> = {
${entries}
};

export function asBody(value: unknown): Body {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};
}
`;
}

/**
 * \`http-problems.ts\`: the runtime's typed errors as HTTP answers (RFC 9457 problem+json).
 * @example problemsFile().includes('fingerprint_mismatch')
 */
export function problemsFile(): string {
  return `// The runtime's typed errors as HTTP answers: application/problem+json with a stable code. A 409
// says the key was used with other parameters but never echoes the original request.
import { InProgressError, ReplayedFailureError, type IdempotencyError } from 'idempotency-builder';

export interface HttpResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export function problem(status: number, code: string, detail: string, headers: Record<string, string> = {}): HttpResult {
  return {
    status,
    body: { type: \`urn:idempotency:\${code}\`, title: code.replace(/_/g, ' '), status, code, detail },
    headers: { 'Content-Type': 'application/problem+json', ...headers },
  };
}

export function problemFor(error: IdempotencyError): HttpResult {
  switch (error.code) {
    case 'invalid_key':
    case 'invalid_scope':
    case 'invalid_options':
      return problem(400, error.code, error.message);
    case 'fingerprint_mismatch':
      return problem(409, error.code, 'This idempotency key was already used with different request parameters.');
    case 'in_progress': {
      const retryAfterMs = error instanceof InProgressError ? error.retryAfterMs : 1000;
      const headers = { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) };
      return problem(409, error.code, 'A request with this idempotency key is still being processed.', headers);
    }
    case 'key_not_found':
      return problem(404, error.code, 'No request with this idempotency key was found.');
    case 'expired_key_rejected':
      return problem(422, error.code, 'This idempotency key has expired and cannot be reused.');
    case 'lease_lost':
    case 'store_unavailable':
      return problem(503, error.code, 'The request could not be protected right now; retry with the same key.', { 'Retry-After': '1' });
    case 'replayed_failure': {
      const stored = error instanceof ReplayedFailureError ? error.stored : undefined;
      return problem(stored?.statusCode ?? 422, error.code, stored?.message ?? error.message);
    }
    default:
      return problem(500, error.code, error.message);
  }
}
`;
}
