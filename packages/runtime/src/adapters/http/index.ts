/**
 * `@idempotency-builder/runtime/http`: the framework-neutral HTTP layer every shipped adapter is
 * built on, public so a framework we do not ship can be adapted in about 50 lines — translate the
 * request into an `HttpRequestView`, run the handler while capturing its response, send the
 * outcome (see docs/http.md, "Writing your own adapter", and `runAdapterSuite` in `/testing`).
 */
export { createHttpIdempotency, type HttpIdempotency, type HttpOutcome, type ExecuteHandler, type HttpBegin, type HttpHeld, type HandleOptions } from './http-idempotency.js';
export {
  resolveHttpOptions,
  defaultStoreStatus,
  DEFAULT_MAX_BODY_BYTES,
  type HttpIdempotencyOptions,
  type ResolvedHttpOptions,
  type PrincipalResolver,
} from './options.js';
export { parseIdempotencyKey, type ParsedKey } from './key-header.js';
export { lazyDisconnectSignal, type ClosableResponse } from './disconnect-signal.js';
export { PROBLEMS, DEFAULT_PROBLEM_TYPE_BASE, problemResponse, refusalResponse, problemStatus, retryAfterSeconds, type ProblemCode, type HttpProfile, type ProblemInput } from './problem.js';
export {
  createHttpSerializer,
  replayOf,
  flattenHeaders,
  DEFAULT_REPLAY_HEADERS,
  FORBIDDEN_REPLAY_HEADERS,
  NULL_BODY_STATUSES,
  REPLAYED_HEADER,
  type HttpResponse,
} from './http-response.js';
export {
  httpFingerprint,
  requestFingerprint,
  resolveFingerprintOptions,
  DEFAULT_FINGERPRINT,
  type HttpFingerprintOptions,
  type ResolvedFingerprintOptions,
  type RequestParts,
} from './request-fingerprint.js';
export {
  nodeRequestView,
  announcesBody,
  PASSTHROUGH_METHODS,
  pathOf,
  queryOf,
  type HttpRequestView,
  type NodeRequestLike,
  type NodeRequestViewOptions,
} from './request-view.js';
export {
  DEFAULT_MAX_REQUEST_BYTES,
  resolveMaxRequestBytes,
  interpretBody,
  readBounded,
  checkAnnouncedLength,
  mediaTypeOf,
  isJsonMediaType,
  type RequestBodyOptions,
} from './request-body.js';
export { RequestBodyError, asRequestBodyError, requestBodyProblem, type RequestBodyErrorCode } from './request-errors.js';
export { createNewKeyLimiter, type NewKeyRateLimitOptions, type RateLimiterLike, type RateDecision } from './new-key-rate-limit.js';
export { captureNodeResponse, writeNodeResponse, type NodeResponseLike, type NodeResponseCapture } from './node-response-capture.js';
export {
  fetchRequestView,
  captureFetchResponse,
  toFetchResponse,
  withoutReplayMarker,
  type CapturedFetchResponse,
  type FetchRequestViewOptions,
} from './fetch-exchange.js';
export { collectBody, streamIterator, concatBytes, type CollectedBody } from './body-collector.js';
export { type SkipPredicate } from './options.js';
export { keyFromBody, resolveKeySource, bodyKeyRequired, type KeySource } from './key-from-body.js';
export { decideStore, notifyReplay, type OnReplayHook, type BeforeStoreHook, type StoreDecision } from './response-hooks.js';
