/**
 * Generated TypeScript for Koa: one middleware per header-keyed action on the runtime's Koa entry
 * (`@idempotency-builder/runtime/koa`), the principal read where the code reads it, and each
 * route's own registration with its middleware in place — Koa routes take middleware per route.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { KOA_DEFAULT_PRINCIPAL } from '../../answers.js';
import { isUseBeforeAction, useBeforeWiring } from './routing-controllers-wiring.js';

/**
 * Where the keys' scope is read: the answers' principal (from the code, or stated), else Koa's
 * auth convention; `assumed` when the code showed none.
 * @example koaScope(plan) // { path: ['user', 'email'], expression: 'ctx.state.user.email', source: 'src/controller/user.ts:144', assumed: false }
 */
export function koaScope(plan: Plan): { path: readonly string[]; expression: string; source?: string; assumed: boolean } {
  const expression = plan.answers.principal ?? KOA_DEFAULT_PRINCIPAL;
  const provenance = plan.answers.provenance.principal;
  const assumed = plan.answers.principal === undefined || provenance?.source === 'assumption';
  const source = provenance?.source === 'code' ? provenance.detail : provenance?.source === 'file' ? 'the answers file' : undefined;
  return { path: expression.split('.').slice(2), expression, ...(source ? { source } : {}), assumed };
}

/**
 * The registration line of an action as the generated comment shows it: the route's own call with
 * `idempotent.<action>` right before the handler, or, for a route the code did not show, the form.
 * @example koaWiring(action) // 'protectedRouter.post("/users", idempotent.createUser, user.createUser)'
 */
export function koaWiring(a: ActionPlan): string {
  const { registration } = a.action;
  if (isUseBeforeAction(a)) return useBeforeWiring(a);
  if (registration) return `${registration.before}idempotent.${a.action.name}, ${registration.after}`;
  return `router.${(a.action.method ?? 'POST').toLowerCase()}(${JSON.stringify(a.action.route ?? '/')}, bodyParser(), idempotent.${a.action.name}, handler)`;
}

/** The principal's type and optional-chained read: `{ user?: { id?: unknown } }`, `?.user?.id`. */
function principalAccess(path: readonly string[]): { type: string; read: string } {
  return {
    type: path.reduceRight((inner, segment) => `{ ${segment}?: ${inner} }`, 'unknown'),
    read: path.map((segment) => `?.${segment}`).join(''),
  };
}

/**
 * `koa.ts`: `header` and `options` are the shared file head and options body of framework-files.ts.
 * @example koaFile(plan, actions, header, options).includes("from '@idempotency-builder/runtime/koa'")
 */
export function koaFile(plan: Plan, actions: readonly ActionPlan[], header: string, options: string): string {
  const principal = koaScope(plan);
  const { type, read } = principalAccess(principal.path);
  const where = principal.assumed
    ? `ASSUMED: your auth middleware (koa-jwt, koa-passport) sets ${principal.expression}; no handler was
// seen reading a principal on ctx.state. Change the path below if yours lives elsewhere.`
    : `${principal.expression}, as the code reads it (${principal.source ?? 'answered'}).`;
  const wiring = actions.map((a) => [
    `//   ${a.action.name} — ${a.action.method ?? 'POST'} ${a.action.route ?? ''}${a.action.location ? ` — ${a.action.location}` : ''}${a.action.registration ? '' : ' (registration not seen in the code)'}`,
    `//     ${koaWiring(a).replace(/\*\//g, '*\\/')}`,
  ].join('\n')).join('\n');
  return `${header}import { idempotencyMiddleware, type KoaIdempotencyOptions } from '@idempotency-builder/runtime/koa';

// The principal the keys are scoped by: ${where}
function principalOf(state: unknown): string | undefined {
  const value = (state as ${type} | undefined)${read};
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

function options(action: HeaderAction): KoaIdempotencyOptions {
${options}
}

// One middleware per action, added to the route's own registration after the body parser and
// right before the handler (the handler reads the held claim at ctx.state.idempotency: signal,
// lockVersion, reclaimed):
${wiring}
export const idempotent = {
${actions.map((a) => `  ${a.action.name}: idempotencyMiddleware(options(${JSON.stringify(a.action.name)})),`).join('\n')}
};
`;
}

/**
 * webhooks.ts for Koa, which the runtime has no webhook mount for: the verified handler gets the
 * exact bytes the signature covers — `ctx.request.rawBody` as @koa/bodyparser and koa-bodyparser
 * keep it, or the request stream when no parser has read it — and its answer is set on `ctx`.
 */
export const KOA_WEBHOOK_MOUNT = `/** What is used of a Koa context (structural: no import of koa). */
export interface KoaWebhookContext {
  readonly req: AsyncIterable<Uint8Array | string> & { readonly headers: Readonly<Record<string, string | string[] | undefined>>; readonly readableEnded?: boolean };
  readonly request: object;
  status: number;
  body: unknown;
  set(fields: Record<string, string>): void;
}

async function rawBodyOf(ctx: KoaWebhookContext): Promise<Uint8Array> {
  const kept = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof kept === 'string') return new TextEncoder().encode(kept);
  if (ctx.req.readableEnded === true) {
    throw new TypeError('The webhook route needs the raw body: use @koa/bodyparser or koa-bodyparser (they keep ctx.request.rawBody), or no body parser on this route.');
  }
  const chunks: Uint8Array[] = [];
  for await (const chunk of ctx.req) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** Koa: router.post(route, mountWebhook(handler)) — the signature covers the exact bytes, never a re-encoded ctx.request.body. */
export function mountWebhook(webhook: WebhookHandler): (ctx: KoaWebhookContext) => Promise<void> {
  return async function webhookRoute(ctx) {
    const { response } = await webhook.handle({ rawBody: await rawBodyOf(ctx), headers: normalizeHeaders(ctx.req.headers) });
    ctx.status = response.status;
    ctx.set({ ...response.headers });
    ctx.body = Buffer.from(response.body);
  };
}
`;
