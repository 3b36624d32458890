/**
 * Serves the suite routes on a Koa app with @koa/router, as the docs mount it: a body parser,
 * then the middleware, then the handler, per route. Shared by the Koa 3 and Koa 2 matrix runs
 * (Koa 2 is loaded under the `koa2` alias) and the chaos fuzz run, with either body parser.
 */
import { bodyParser as koaBodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type Koa from 'koa';
import { idempotencyMiddleware } from '../../../src/adapters/koa/index.js';
import type { SuiteRoute, SuiteServer } from '../../../src/testing/adapter-suite.js';
import { listenOnLoopback, nodeStreamOf } from './listen.js';
import { clientErrorStatus, frameworkProblem } from './servers.js';

/** The `koa` module's default export; Koa 2 and 3 construct the same way. */
export type KoaModule = typeof Koa;

/** A body parser factory: `@koa/bodyparser`'s `bodyParser`, `koa-bodyparser`'s default export, or none. */
export type KoaBodyParser = (() => Koa.Middleware) | null;

export interface KoaServerOptions {
  /** Default: @koa/bodyparser. `null` mounts none: the middleware reads the raw body itself. */
  readonly bodyParser?: KoaBodyParser;
}

/**
 * A Koa app for the suite routes. The app's own error middleware answers what the framework
 * refuses (a body parser's 4xx) as problem+json and anything else as a quiet 500, as an app should.
 */
export async function serveOnKoa(KoaApp: KoaModule, routes: readonly SuiteRoute[], { bodyParser = () => koaBodyParser() }: KoaServerOptions = {}): Promise<SuiteServer> {
  const app = new KoaApp();
  app.silent = true; // the suite throws on purpose
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const status = clientErrorStatus(error);
      const answer = status === undefined ? { status: 500, headers: {}, body: 'internal error' } : frameworkProblem(status);
      ctx.status = answer.status;
      ctx.set(answer.headers);
      ctx.body = answer.body;
    }
  });
  const router = new Router();
  for (const route of routes) {
    const handler: Koa.Middleware = async (ctx) => {
      const body = (ctx.request as { body?: unknown }).body;
      const result = await route.handle({ method: ctx.method, header: (name) => ctx.get(name) || undefined, body });
      ctx.status = result.status;
      ctx.set(result.headers ?? {});
      ctx.body = result.chunks ? nodeStreamOf(result) : typeof result.body === 'string' ? result.body : Buffer.from(result.body ?? '');
    };
    const chain = [...(bodyParser ? [bodyParser()] : []), idempotencyMiddleware(route.options), handler];
    if (route.method === 'GET') router.get(route.path, ...chain);
    else router.post(route.path, ...chain);
  }
  app.use(router.routes());
  return listenOnLoopback(app.listen(0, '127.0.0.1'));
}
