/** `idempotency-builder/fetch`: idempotent Web-standard `(Request) => Response` handlers. */
export { withIdempotency, type FetchHandler, type FetchIdempotencyOptions } from './with-idempotency.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
