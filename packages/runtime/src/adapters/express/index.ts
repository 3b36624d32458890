/** `idempotency-builder/express`: idempotent Express 5 and 4 routes. */
export {
  idempotencyMiddleware,
  type ExpressIdempotencyOptions,
  type ExpressRequestLike,
  type ExpressResponseLike,
  type ExpressNext,
} from './express-middleware.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
