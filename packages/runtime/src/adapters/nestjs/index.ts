/** `idempotency-builder/nestjs`: the `@Idempotent()` decorator and its interceptor. */
export {
  Idempotent,
  IdempotencyInterceptor,
  idempotencyContext,
  type NestIdempotencyOptions,
  type NestRequestLike,
  type ExecutionContextLike,
  type CallHandlerLike,
} from './idempotency-interceptor.js';
export { UnsupportedNestVersionError, SUPPORTED_NEST_MAJORS } from './nest-version.js';
export type { HttpIdempotencyOptions, HttpRequestView, PrincipalResolver, HttpResponse, ProblemCode, OnReplayHook, BeforeStoreHook, SkipPredicate } from '../http/index.js';
