/**
 * Generated TypeScript: per-route glue on the runtime's framework adapters (Koa's in koa-file.ts)
 * (`@idempotency-builder/runtime/<framework>`), one configured middleware per header-keyed action.
 */
import type { Plan } from '../../design/plan/plan.js';
import type { CodeFramework } from '../../design/plan/stack.js';
import { isGraphqlMutation } from './graphql-file.js';
import { isServerAction } from './server-actions-file.js';
import { koaFile } from './koa-file.js';
import { pagesActions } from './next-pages-file.js';
import { expressUseBeforeComment, isUseBeforeAction } from './routing-controllers-wiring.js';
import { intentRule, isHttp } from './protect-file.js';

export const ADAPTER_MODULE: Record<string, string> = {
  express: '@idempotency-builder/runtime/express',
  fastify: '@idempotency-builder/runtime/fastify',
  hono: '@idempotency-builder/runtime/hono',
  koa: '@idempotency-builder/runtime/koa',
  nestjs: '@idempotency-builder/runtime/nestjs',
  fetch: '@idempotency-builder/runtime/fetch',
};

const RATE_LIMIT = `    // The key-flooding limit: more than 100 new keys a minute from one principal answers 429.
    // Counted per instance; with several instances pass { limiter: new RateLimiterRedis(...) }.
    rateLimit: { newKeysPerWindow: 100, windowMs: 60_000 },`;

function optionsBody(scopeLine: string): string {
  return `  return {
    idempotency,
${scopeLine}
    // No fields named in the code: the adapter's default, the whole body (canonical JSON).
    fingerprint: SIGNIFICANT[action].fields.length > 0 ? { bodyFields: SIGNIFICANT[action].fields } : {},
    ...POLICIES[action],
${RATE_LIMIT}
  };`;
}

function header(framework: string, union: string): string {
  return `// ${framework}: every header-keyed protected route gets the runtime's adapter with its own
// significant fields, lock timeout and key expiry. The key comes from the Idempotency-Key header;
// the scope from the authenticated principal, never from the request body.
import { idempotency, POLICIES } from './idempotency.js';
import { SIGNIFICANT } from './fingerprints.js';

export type HeaderAction = ${union};
`;
}

function entries(actions: readonly string[], wrap: (action: string) => string): string {
  return actions.map((action) => `  ${action}: ${wrap(action)},`).join('\n');
}

/**
 * The glue file for the framework, or undefined when no route takes its key from a header.
 * @example frameworkFile(plan, 'express')?.includes('idempotencyMiddleware')
 */
export function frameworkFile(plan: Plan, framework: CodeFramework): string | undefined {
  // A GraphQL mutation's route is the endpoint every operation shares: it is guarded in graphql.ts.
  // A server action has no route of its own: it is wrapped in server-actions.ts.
  // Next.js pages-router routes take Node's (req, res), not a Request: they are wrapped in next-pages.ts.
  const pages = new Set(pagesActions(plan));
  const actions = plan.actions.filter((a) => isHttp(a) && intentRule(a) === 'header' && !isGraphqlMutation(a) && !isServerAction(a) && !pages.has(a.action.name)).map((a) => a.action.name);
  if (actions.length === 0) return undefined;
  const union = actions.map((name) => JSON.stringify(name)).join(' | ');
  // routing-controllers actions take their middleware in @UseBefore (routing-controllers-wiring.ts).
  const useBefore = plan.actions.filter((a) => actions.includes(a.action.name) && isUseBeforeAction(a));
  switch (framework) {
    case 'express':
      return `${header('Express', union)}import { idempotencyMiddleware, type ExpressIdempotencyOptions, type ExpressRequestLike } from '@idempotency-builder/runtime/express';

/** Your auth middleware sets req.user (the passport convention). */
type AuthenticatedRequest = ExpressRequestLike & { readonly user?: { readonly id?: string } };

function options(action: HeaderAction): ExpressIdempotencyOptions<AuthenticatedRequest> {
${optionsBody('    scope: (req) => req.user?.id,')}
}

${useBefore.length > 0 ? expressUseBeforeComment(useBefore) : "/** Mount after the body parser: app.post('/payments', express.json(), idempotent.createPayment, handler). */"}
export const idempotent = {
${entries(actions, (a) => `idempotencyMiddleware(options(${JSON.stringify(a)}))`)}
};
`;
    case 'fastify':
      return `${header('Fastify', union)}import type { FastifyInstance } from 'fastify';
import { idempotencyPlugin, type FastifyIdempotencyOptions, type FastifyRequestLike } from '@idempotency-builder/runtime/fastify';

/** Your auth hook decorates request.user. */
type AuthenticatedRequest = FastifyRequestLike & { readonly user?: { readonly id?: string } };

function options(action: HeaderAction): FastifyIdempotencyOptions {
${optionsBody('    scope: (request) => (request as AuthenticatedRequest).user?.id,')}
}

/**
 * The plugin is registered per action in its own encapsulated context:
 * app.register(idempotentRoutes('createPayment', (routes) => { routes.post('/payments', handler); }));
 */
export function idempotentRoutes(action: HeaderAction, register: (routes: FastifyInstance) => void | Promise<void>) {
  return async (routes: FastifyInstance): Promise<void> => {
    await routes.register(idempotencyPlugin, options(action));
    await register(routes);
  };
}
`;
    case 'hono':
      return `${header('Hono', union)}import type { Context } from 'hono';
import { idempotency as idempotencyMiddleware, type HonoIdempotencyOptions } from '@idempotency-builder/runtime/hono';

/** Your auth middleware calls c.set('userId', …). */
export type AppEnv = { Variables: { userId?: string } };

function options(action: HeaderAction): HonoIdempotencyOptions<Context<AppEnv>> {
${optionsBody("    scope: (c) => c.get('userId'),")}
}

/** app.post('/payments', idempotent.createPayment, handler) */
export const idempotent = {
${entries(actions, (a) => `idempotencyMiddleware(options(${JSON.stringify(a)}))`)}
};
`;
    case 'koa':
      return koaFile(plan, plan.actions.filter((a) => actions.includes(a.action.name)), header('Koa', union), optionsBody('    scope: (ctx) => principalOf(ctx.state),'));
    case 'nestjs':
      return `${header('NestJS', union)}import { Idempotent, type NestIdempotencyOptions, type NestRequestLike } from '@idempotency-builder/runtime/nestjs';

/** Your guard sets request.user. */
type AuthenticatedRequest = NestRequestLike & { readonly user?: { readonly id?: string } };

function options(action: HeaderAction): NestIdempotencyOptions<AuthenticatedRequest> {
${optionsBody('    scope: (request) => request.user?.id,')}
}

/** Decorate the route handler: @Post() @idempotent.createPayment create(@Body() body: …) { … } */
export const idempotent = {
${entries(actions, (a) => `Idempotent<AuthenticatedRequest>(options(${JSON.stringify(a)}))`)}
};
`;
    default:
      return `${header('Fetch API (Next.js route handlers, workers, Deno, Bun)', union)}import { withIdempotency, type FetchHandler, type PrincipalResolver } from '@idempotency-builder/runtime/fetch';

/**
 * export const POST = idempotent('createPayment', userIdOf, async (request) => Response.json(await pay(await request.json()), { status: 201 }));
 * \`scope\` resolves the authenticated user from the session or token — never from a client header.
 */
export function idempotent<Rest extends unknown[]>(action: HeaderAction, scope: PrincipalResolver<Request>, handler: FetchHandler<Rest>) {
  return withIdempotency(handler, options(action, scope));
}

function options(action: HeaderAction, scope: PrincipalResolver<Request>) {
${optionsBody('    scope,')}
}
`;
  }
}
