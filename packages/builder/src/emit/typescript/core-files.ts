/**
 * Generated TypeScript shared by every framework: the engine with per-action policies, the
 * per-action fingerprints, and the HTTP mapping of the runtime's typed errors.
 */
import type { Plan } from '../../design/plan/plan.js';
import { STORE_IMPORTS } from './runtime-api.js';
import { fingerprintTarget } from '../../design/plan/expected-fingerprint.js';

const ms = (value: number) => value.toLocaleString('en-US').replace(/,/g, '_');

/**
 * `idempotency.ts`: the store, the engine and the lock timeout / key expiry of every action.
 * @example engineFile(plan).includes('createIdempotency')
 */
export function engineFile(plan: Plan): string {
  const imports = STORE_IMPORTS[plan.stack.store];
  const store = plan.stack.level.moduleFormat === 'cjs' && imports.commonjs ? { ...imports, ...imports.commonjs } : imports;
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
  const create =
    plan.stack.store === 'postgresql' && plan.partitioned
      ? "createPostgresStore({ db: pool, layout: 'partitioned' })"
      : plan.stack.store === 'dynamodb'
        ? `createDynamoDbStore({ client, table: ${JSON.stringify(plan.table)} })`
        : plan.stack.store === 'mongodb'
          ? `createMongoStore({ db: mongo.db(), collection: ${JSON.stringify(plan.table)} })`
          : plan.stack.store === 'mysql' && plan.table !== 'idempotency_store'
            ? `createMysqlStore({ db: pool, table: ${JSON.stringify(plan.table)} })`
            : store.create;
  const migrate =
    plan.stack.store === 'postgresql'
      ? '\n// Create the table once per environment: `await store.migrate()` (or psql -f db/idempotency_store.sql).'
      : plan.stack.store === 'mysql'
        ? '\n// Create the table once per environment: `await store.migrate()` (GET_LOCK-guarded), or run db/idempotency_store.sql.'
        : plan.stack.store === 'mongodb'
          ? '\n// Create the indexes once per environment: `await store.migrate()`. This store was generated into the\n// project and NOT run against a MongoDB server by idempotency-builder (see mongo-store.ts).'
          : plan.stack.store === 'dynamodb'
            ? '\n// The table (partition key `pk`, TTL on `ttl`): createDynamoDbTable(client, { table }) or your IaC, as db/dynamodb-idempotency.json.'
            : '';
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
export const signatureOf = fingerprintTarget;

/**
 * `fingerprints.ts`: one fingerprint per action over exactly its significant fields (or the whole
 * body when the code names none) — the same value the HTTP adapter computes for the route.
 * @example fingerprintsFile(plan).includes('requestFingerprint')
 */
export function fingerprintsFile(plan: Plan): string {
  const entries = plan.actions
    .map((a) => {
      const { method, path } = signatureOf(a);
      return `  ${a.action.name}: { method: ${JSON.stringify(method)}, path: ${JSON.stringify(path)}, fields: ${JSON.stringify(a.action.significantFields)} },`;
    })
    .join('\n');
  return `// Fingerprint utility: the runtime's own request fingerprint (requestFingerprint from
// @idempotency-builder/runtime/http), so it equals what the HTTP adapters compute for the route:
// [method, path, body part, query part], the body part being the significant fields (a missing
// field differs from null) or, for an action whose code names no fields, the canonical JSON of the
// whole body. The Python, Go and Java utilities produce the same bytes, so services in several
// languages can share one store. Timestamps, trace ids and auth headers are left out.
import { fingerprintJson } from '@idempotency-builder/runtime';
import { requestFingerprint, resolveFingerprintOptions } from '@idempotency-builder/runtime/http';
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
 * (\`/orders/42/refund\`, not the pattern), and the raw query string when there is one.
 */
export function fingerprint(action: ProtectedAction, body: unknown, path: string = SIGNIFICANT[action].path, query?: string): string {
  const { method, fields } = SIGNIFICANT[action];
  const options = resolveFingerprintOptions(fields.length > 0 ? { bodyFields: fields } : {});
  return requestFingerprint({ method, path, body, ...(query === undefined ? {} : { query }) }, options);
}

/** A field by dot path, for derived keys. */
export function fieldValue(body: unknown, path: string): string {
  const value = valueAt(body, path);
  return value === undefined || value === null ? '' : typeof value === 'object' ? fingerprintJson(value, { exclude: [] }) : String(value);
}
`;
}
