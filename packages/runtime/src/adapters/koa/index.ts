/** `@idempotency-builder/runtime/koa`: idempotent Koa 3 and 2 routes. */
export {
  idempotencyMiddleware,
  type KoaIdempotencyOptions,
  type KoaContextLike,
  type KoaIdempotencyState,
  type KoaNodeRequestLike,
  type KoaNext,
} from './koa-middleware.js';
export type { KoaNodeResponseLike, KoaResponseContextLike } from './koa-response.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
