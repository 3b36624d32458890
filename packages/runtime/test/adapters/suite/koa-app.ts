/**
 * A Koa app for the Koa-specific tests: the docs' mounting (`router.post(path, bodyParser(),
 * idempotent, handler)`), an auth middleware that puts `ctx.state.user`, a memory store to read
 * records back, and run counters by probe, so each test proves how often its handler ran.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import { createIdempotency, type Idempotency } from '../../../src/index.js';
import { idempotencyMiddleware, type KoaIdempotencyOptions } from '../../../src/adapters/koa/index.js';
import { createMemoryStore, type MemoryStore } from '../../../src/stores/memory/index.js';
import type { SuiteServer } from '../../../src/testing/adapter-suite.js';
import { listenOnLoopback } from './listen.js';
import type { KoaModule } from './koa-server.js';

export interface KoaTestApp extends SuiteServer {
  readonly store: MemoryStore;
  readonly idempotency: Idempotency;
  /** Counts one run of a handler for `probe`, and returns the run's number. */
  run(probe: string | undefined): number;
  count(probe: string): number;
}

export interface KoaMount {
  readonly app: Koa;
  readonly router: Router;
  /** The middleware as the docs write it, `scope: (ctx) => ctx.state.user?.id`, plus these options. */
  idempotent(options?: Partial<KoaIdempotencyOptions>): Koa.Middleware;
  run(probe: string | undefined): number;
}

/**
 * Serves what `mount` registers. Errors reach Koa's own error handling (`ctx.onerror`), quietly.
 * @example const app = await serveKoaApp(Koa, ({ router, idempotent }) => router.post('/p', bodyParser(), idempotent(), handler));
 */
export async function serveKoaApp(KoaApp: KoaModule, mount: (parts: KoaMount) => void): Promise<KoaTestApp> {
  const store = createMemoryStore();
  const idempotency = createIdempotency({ store, leaseMs: 5_000 });
  const runs = new Map<string, number>();
  const run = (probe: string | undefined) => {
    const next = (runs.get(probe ?? 'none') ?? 0) + 1;
    runs.set(probe ?? 'none', next);
    return next;
  };
  const app = new KoaApp();
  app.silent = true; // handlers throw on purpose
  // The test's whole authentication: `Authorization: Bearer <user>`.
  app.use(async (ctx, next) => {
    const user = /^Bearer (\S+)$/.exec(ctx.get('authorization'))?.[1];
    if (user) ctx.state.user = { id: user };
    await next();
  });
  const router = new Router();
  const idempotent = (options: Partial<KoaIdempotencyOptions> = {}) =>
    idempotencyMiddleware({ idempotency, scope: (ctx) => ctx.state.user?.id, ...options });
  mount({ app, router, idempotent, run });
  app.use(router.routes());
  const server = await listenOnLoopback(app.listen(0, '127.0.0.1'));
  return { ...server, store, idempotency, run, count: (probe) => runs.get(probe) ?? 0 };
}
