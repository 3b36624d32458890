/**
 * Generated TypeScript: the framework-neutral HTTP flow (resolve the key, claim, run, store,
 * replay). Each framework's glue file is a few lines around `protect()`.
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

function eventIdExpression(a: ActionPlan): string {
  if (a.action.provider === 'adyen') {
    return `(() => {
      const item = (body.notificationItems as { NotificationRequestItem?: { pspReference?: unknown; eventCode?: unknown } }[] | undefined)?.[0]?.NotificationRequestItem;
      return typeof item?.pspReference === 'string' && typeof item.eventCode === 'string' ? \`\${item.pspReference}-\${item.eventCode}\` : undefined;
    })()`;
  }
  return `(typeof body.id === 'string' ? body.id : undefined)`;
}

/**
 * `protect.ts`, or undefined when no action is served over HTTP.
 * @example protectFile(plan)?.includes('export async function protect')
 */
export function protectFile(plan: Plan): string | undefined {
  // Header-keyed routes use the runtime's framework adapter; protect() covers keys it cannot read.
  const http = plan.actions.filter((a) => isHttp(a) && intentRule(a) !== 'header');
  if (http.length === 0) return undefined;
  const union = http.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const rules = http.map((a) => `  ${a.action.name}: '${intentRule(a)}',`).join('\n');
  const derivedFields = http
    .filter((a) => intentRule(a) === 'derived')
    .map((a) => `  ${a.action.name}: ${JSON.stringify(a.action.significantFields)},`)
    .join('\n');
  const webhooks = http.filter((a) => a.action.kind === 'webhook');
  const eventCases = webhooks
    .map((a) => `    case ${JSON.stringify(a.action.name)}:\n      return { id: ${eventIdExpression(a)}, scope: \`${a.action.provider ?? 'webhook'}:\${typeof body.account === 'string' ? body.account : 'platform'}\` };`)
    .join('\n');
  return `// The lock-check-process-store flow for HTTP routes whose key is not a header (server-derived keys,
// webhooks): resolve the key, claim it, run the handler once, store its result, replay it.
// Call it from the route handler and send what it returns, e.g. in Express:
//   const result = await protect({ action: 'stripeWebhook', scope: undefined, body: event }, handle);
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

/** Where each action's intent id comes from (design document, section 2). */
const INTENT: Record<HttpAction, 'derived' | 'event'> = {
${rules}
};

/** Intent fields of server-derived keys: the key is the SHA-256 of these. */
const DERIVED: Partial<Record<HttpAction, readonly string[]>> = {
${derivedFields}
};

const EVENT_ID = /^[A-Za-z0-9_.:~-]{1,180}$/;

type Body = Readonly<Record<string, unknown>>;

export interface HttpInput {
  readonly action: HttpAction;
  /** The concrete request path, when the route has parameters. */
  readonly path?: string;
  /** The authenticated user (or account/tenant) id — from the session, never from the body. */
  readonly scope: string | undefined;
  readonly body: unknown;
}

/** Webhooks: the provider event id (read after the signature is verified) and the provider account. */
function webhookEvent(action: HttpAction, body: Body): { id: string | undefined; scope: string } | undefined {
  switch (action) {
${eventCases || '    // (no webhook actions)'}
    default:
      return undefined;
  }
}

function intentOf(action: HttpAction, body: Body): string | HttpResult {
  if (INTENT[action] === 'derived') {
    return deriveIntent((DERIVED[action] ?? []).map((path) => fieldValue(body, path)));
  }
  const id = webhookEvent(action, body)?.id;
  // The event id is the idempotency key: a payload without a usable one has a malformed key.
  if (!id || !EVENT_ID.test(id)) return problemAnswer('invalid_key');
  return id;
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
  const intent = intentOf(input.action, body);
  if (typeof intent !== 'string') return intent;
  const scope = INTENT[input.action] === 'event' ? webhookEvent(input.action, body)?.scope : input.scope;
  if (!scope) return problemAnswer('unauthenticated');
  try {
    const { value, replayed } = await engine.run<HttpResult>(
      { key: \`\${input.action}_\${intent}\`, scope, fingerprint: fingerprint(input.action, body, input.path) },
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
