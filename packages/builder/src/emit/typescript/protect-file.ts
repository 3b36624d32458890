/**
 * Generated TypeScript: the framework-neutral HTTP flow for routes keyed by content (resolve the
 * derived key, claim, run, store, replay). Header-keyed routes use the runtime's framework adapter
 * and webhooks its createWebhookHandler (webhook-file.ts).
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';

export const isHttp = (a: ActionPlan) => a.action.kind === 'http' || a.action.kind === 'webhook';

/**
 * Where an HTTP action's intent id comes from: the header, the body (derived), or the webhook event.
 * @example intentRule(plan.actions[0]) // 'header'
 */
export function intentRule(a: ActionPlan): 'header' | 'derived' | 'event' {
  if (a.action.kind === 'webhook') return 'event';
  return a.action.keySource === 'derived' ? 'derived' : 'header';
}

/**
 * `protect.ts`, or undefined when no HTTP route derives its key from the content.
 * @example protectFile(plan)?.includes('export async function protect')
 */
export function protectFile(plan: Plan): string | undefined {
  const http = plan.actions.filter((a) => a.action.kind === 'http' && intentRule(a) === 'derived' && a.action.operation === undefined && a.action.serverAction === undefined);
  if (http.length === 0) return undefined;
  const union = http.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const derivedFields = http.map((a) => `  ${a.action.name}: ${JSON.stringify(a.action.significantFields)},`).join('\n');
  return `// The lock-check-process-store flow for HTTP routes whose key the server derives from the request
// content (no Idempotency-Key header): derive the key, claim it, run the handler once, store its
// result, replay it. Call it from the route handler and send what it returns, e.g. in Express:
//   const result = await protect({ action: '${http[0]?.action.name}', scope: req.user?.id, body: req.body }, handle);
//   res.status(result.status).set(result.headers ?? {}).json(result.body);
import { deriveIntent, IdempotencyError, type ActionContext, type Idempotency } from '@idempotency-builder/runtime';
import { problemAnswer, problemForError } from '@idempotency-builder/runtime/contract';
import { fieldValue, fingerprint } from './fingerprints.js';
import { idempotency, POLICIES } from './idempotency.js';

/** What a route sends: status, body and headers. Refusals are the runtime adapters' own answers. */
export interface HttpResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type HttpAction = ${union};

/** Intent fields of server-derived keys (design document, section 2): the key is the SHA-256 of these. */
const DERIVED: Record<HttpAction, readonly string[]> = {
${derivedFields}
};

type Body = Readonly<Record<string, unknown>>;

export interface HttpInput {
  readonly action: HttpAction;
  /** The concrete request path, when the route has parameters. */
  readonly path?: string;
  /** The authenticated user (or account/tenant) id — from the session, never from the body. */
  readonly scope: string | undefined;
  readonly body: unknown;
}

/**
 * Runs \`handler\` at most once per (scope, key) while the record lives. Duplicates get the stored
 * result (with Idempotent-Replayed: true) or a problem+json answer; 5xx results are not stored.
 */
export async function protect(
  input: HttpInput,
  handler: (context: ActionContext) => Promise<HttpResult>,
  engine: Idempotency = idempotency,
): Promise<HttpResult> {
  const body: Body = input.body !== null && typeof input.body === 'object' ? (input.body as Body) : {};
  if (!input.scope) return problemAnswer('unauthenticated');
  const intent = deriveIntent(DERIVED[input.action].map((path) => fieldValue(body, path)));
  try {
    const { value, replayed } = await engine.run<HttpResult>(
      { key: \`\${input.action}_\${intent}\`, scope: input.scope, fingerprint: fingerprint(input.action, body, input.path) },
      handler,
      { ...POLICIES[input.action], shouldStore: (result) => result.status < 500 },
    );
    return replayed ? { ...value, headers: { ...value.headers, 'Idempotent-Replayed': 'true' } } : value;
  } catch (error) {
    // The same problem+json the runtime's adapters answer (status table, type, Retry-After).
    if (error instanceof IdempotencyError) return problemForError(error);
    throw error;
  }
}
`;
}
