/**
 * The framework-neutral HTTP layer the adapters share (express, fastify, hono, fetch, nestjs):
 * options, key header parsing, fingerprints, problem+json, the response serializer and captures.
 */
export { createHttpIdempotency, type HttpIdempotency, type HttpOutcome, type ExecuteHandler } from './http-idempotency.js';
export {
  resolveHttpOptions,
  defaultStoreStatus,
  DEFAULT_MAX_BODY_BYTES,
  type HttpIdempotencyOptions,
  type ResolvedHttpOptions,
  type PrincipalResolver,
} from './options.js';
export { parseIdempotencyKey, type ParsedKey } from './key-header.js';
export { PROBLEMS, problemResponse, problemStatus, retryAfterSeconds, type ProblemCode, type HttpProfile, type ProblemInput } from './problem.js';
export {
  createHttpSerializer,
  replayOf,
  flattenHeaders,
  DEFAULT_REPLAY_HEADERS,
  FORBIDDEN_REPLAY_HEADERS,
  REPLAYED_HEADER,
  type HttpResponse,
} from './http-response.js';
export { httpFingerprint, DEFAULT_FINGERPRINT, type HttpFingerprintOptions, type ResolvedFingerprintOptions } from './request-fingerprint.js';
export { nodeRequestView, PASSTHROUGH_METHODS, pathOf, type HttpRequestView, type NodeRequestLike } from './request-view.js';
export { createNewKeyLimiter, type NewKeyRateLimitOptions, type RateLimiterLike, type RateDecision } from './new-key-rate-limit.js';
export { captureNodeResponse, writeNodeResponse, type NodeResponseLike, type NodeResponseCapture } from './node-response-capture.js';
export { fetchRequestView, captureFetchResponse, toFetchResponse, withoutReplayMarker, type CapturedFetchResponse } from './fetch-exchange.js';
