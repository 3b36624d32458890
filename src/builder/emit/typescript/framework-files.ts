/**
 * Generated TypeScript: the glue between each web framework and `protect()`. Small on purpose —
 * all behaviour lives in protect.ts and the runtime.
 */
import type { CodeFramework } from '../../design/plan/stack.js';

const EXPRESS = `// Express glue: wrap a route handler so it runs once per idempotency key.
// Your auth middleware must set res.locals.userId (the scope); it is never read from the body.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ActionContext } from 'idempotency-builder';
import { protect, type HttpAction, type HttpResult } from './protect.js';

function scopeOf(res: Response): string | undefined {
  const id: unknown = res.locals.userId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

/**
 * @example app.post('/payments', idempotent('createPayment', async (req) => ({ status: 201, body: await pay(req.body) })));
 */
export function idempotent(action: HttpAction, handler: (req: Request, context: ActionContext) => Promise<HttpResult>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    protect({ action, idempotencyKey: req.get('Idempotency-Key'), scope: scopeOf(res), body: req.body }, (context) => handler(req, context))
      .then((result) => {
        res.status(result.status).set({ 'Content-Type': 'application/json', ...result.headers }).send(JSON.stringify(result.body));
      })
      .catch(next);
  };
}
`;

const FASTIFY = `// Fastify glue: wrap a route handler so it runs once per idempotency key.
// Your auth hook must decorate request.user = { id } (the scope); it is never read from the body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActionContext } from 'idempotency-builder';
import { protect, type HttpAction, type HttpResult } from './protect.js';

function scopeOf(request: FastifyRequest): string | undefined {
  const id: unknown = (request as FastifyRequest & { user?: { id?: unknown } }).user?.id;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * @example app.post('/payments', idempotent('createPayment', async (request) => ({ status: 201, body: await pay(request.body) })));
 */
export function idempotent(action: HttpAction, handler: (request: FastifyRequest, context: ActionContext) => Promise<HttpResult>) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const result = await protect(
      { action, idempotencyKey: header(request.headers['idempotency-key']), scope: scopeOf(request), body: request.body },
      (context) => handler(request, context),
    );
    return reply.code(result.status).headers({ 'content-type': 'application/json', ...result.headers }).send(JSON.stringify(result.body));
  };
}
`;

const HONO = `// Hono glue: wrap a handler so it runs once per idempotency key.
// Your auth middleware must c.set('userId', …) (the scope); it is never read from the body.
import type { Context } from 'hono';
import type { ActionContext } from 'idempotency-builder';
import { protect, type HttpAction, type HttpResult } from './protect.js';

export type AppEnv = { Variables: { userId?: string } };

/**
 * @example app.post('/payments', idempotent('createPayment', async (c) => ({ status: 201, body: await pay(await c.req.json()) })));
 */
export function idempotent(action: HttpAction, handler: (c: Context<AppEnv>, context: ActionContext) => Promise<HttpResult>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const body: unknown = await c.req.json().catch(() => ({}));
    const result = await protect(
      { action, idempotencyKey: c.req.header('Idempotency-Key'), scope: c.get('userId'), body },
      (context) => handler(c, context),
    );
    return new Response(JSON.stringify(result.body), {
      status: result.status,
      headers: { 'Content-Type': 'application/json', ...result.headers },
    });
  };
}
`;

const NESTJS = `// NestJS glue: an interceptor plus an @Idempotent('action') decorator.
// Your guard must set request.user = { id } (the scope); it is never read from the body.
import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { protect, type HttpAction } from './protect.js';

const ACTION = 'idempotency:action';

/** Marks a route as protected: \`@Idempotent('createPayment')\`. */
export const Idempotent = (action: HttpAction) => SetMetadata(ACTION, action);

interface HttpRequestLike {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: unknown;
  readonly user?: { readonly id?: unknown };
}

interface HttpResponseLike {
  status(code: number): unknown;
  setHeader(name: string, value: string): unknown;
}

/** Register globally (\`app.useGlobalInterceptors(new IdempotencyInterceptor(app.get(Reflector)))\`) or per controller. */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<HttpAction | undefined>(ACTION, context.getHandler());
    if (!action) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequestLike>();
    const response = http.getResponse<HttpResponseLike>();
    const key = request.headers['idempotency-key'];
    const scope = typeof request.user?.id === 'string' ? request.user.id : undefined;
    const run = protect(
      { action, idempotencyKey: Array.isArray(key) ? key[0] : key, scope, body: request.body },
      async () => ({ status: 201, body: await lastValueFrom(next.handle()) }),
    ).then((result) => {
      response.status(result.status);
      for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);
      return result.body;
    });
    return from(run);
  }
}
`;

const FETCH = `// Fetch API glue (Next.js route handlers, Hono on workers, Deno, Bun): wrap a
// (Request) => Response handler so it runs once per idempotency key.
import type { ActionContext } from 'idempotency-builder';
import { protect, type HttpAction, type HttpResult } from './protect.js';

/** Resolves the authenticated user id from the request (session cookie, bearer token …). */
export type ScopeResolver = (request: Request) => string | undefined | Promise<string | undefined>;

/**
 * @example export const POST = idempotent('createPayment', resolveUser, async (request) => ({ status: 201, body: await pay(await request.json()) }));
 */
export function idempotent(
  action: HttpAction,
  resolveScope: ScopeResolver,
  handler: (request: Request, context: ActionContext) => Promise<HttpResult>,
): (request: Request) => Promise<Response> {
  return async (request) => {
    const body: unknown = await request.clone().json().catch(() => ({}));
    const result = await protect(
      { action, idempotencyKey: request.headers.get('Idempotency-Key') ?? undefined, scope: await resolveScope(request), body },
      (context) => handler(request, context),
    );
    return new Response(JSON.stringify(result.body), {
      status: result.status,
      headers: { 'Content-Type': 'application/json', ...result.headers },
    });
  };
}
`;

/**
 * The glue file for a TypeScript framework.
 * @example frameworkFile('express').includes('RequestHandler')
 */
export function frameworkFile(framework: CodeFramework): string {
  switch (framework) {
    case 'express':
      return EXPRESS;
    case 'fastify':
      return FASTIFY;
    case 'hono':
      return HONO;
    case 'nestjs':
      return NESTJS;
    default:
      return FETCH;
  }
}
