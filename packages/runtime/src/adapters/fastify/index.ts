/** `idempotency-builder/fastify`: idempotent Fastify 5 routes. */
export {
  idempotencyPlugin,
  idempotencyContext,
  type FastifyIdempotencyOptions,
  type FastifyRequestLike,
  type FastifyReplyLike,
  type FastifyInstanceLike,
} from './fastify-plugin.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
