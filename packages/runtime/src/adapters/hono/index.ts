/** `idempotency-builder/hono`: idempotent Hono routes on every runtime. */
export { idempotency, type HonoIdempotencyOptions, type HonoContextLike } from './hono-middleware.js';
export type { HonoRequestLike } from './hono-request-view.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
