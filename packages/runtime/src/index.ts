/**
 * idempotency-builder: make critical actions safe to retry. The root entry is the core only —
 * stores, adapters and metrics exporters live in their own subpaths with their own drivers.
 */
export { createIdempotency } from './core/engine.js';
export type { Action, ActionContext, Idempotency, RunOptions, RunRequest, RunResult, BeginOptions, BeginResult, Replayed, HeldClaim } from './core/engine.js';
export type { IdempotencyOptions, ErrorClassifier } from './core/options.js';
export { DEFAULT_LEASE_MS, DEFAULT_TTL_MS, DEFAULT_STORE_TIMEOUT_MS, DEFAULT_MAX_IN_FLIGHT_CLAIMS, DEFAULT_MAX_QUEUED_CLAIMS, DEFAULT_REPLAY_CACHE_ENTRIES, DEFAULT_REPLAY_CACHE_TTL_MS, type ReplayCacheOptions } from './core/options.js';
export { DISABLED_WARNING } from './core/disabled.js';
export { startCleanup, type CleanupOptions, type CleanupJob } from './core/cleanup.js';
export * from './core/errors.js';
export {
  validateKey,
  validateScope,
  buildKey,
  newClientIntent,
  deriveIntent,
  MAX_KEY_LENGTH,
  MAX_SCOPE_LENGTH,
  GLOBAL_SCOPE,
} from './core/key.js';
export {
  fingerprintFields,
  fingerprintJson,
  fingerprintBytes,
  fingerprintsEqual,
  isFingerprint,
  DEFAULT_EXCLUDED_PATHS,
  UnhashableInputError,
  assertHashable,
  MAX_FINGERPRINT_DEPTH,
  type UnhashableReason,
  type FingerprintField,
  type FingerprintJsonOptions,
} from './core/fingerprint.js';
export { METRICS, noopMetrics, promName, scopeBucket, SCOPE_BUCKETS, type MetricsSink, type MetricName, type MetricLabels } from './core/metrics.js';
export { silentLogger, redact, type Logger, type LogFields } from './core/logger.js';
export { identityCodec, ResponseUnreadableError, type ResponseCodec, type CodecContext } from './core/codec.js';
export { createHashOnlyCodec, RESPONSE_DIGEST_HEADER } from './core/hash-only-codec.js';
export { createEncryptionCodec, type EncryptionCodecOptions } from './core/encryption-codec.js';
export {
  jsonSerializer,
  bytesSerializer,
  toStoredFailure,
  serializeFailure,
  deserializeFailure,
  FAILURE_ENCODING,
  type ResultSerializer,
} from './core/serializer.js';
export type { IdempotencyRecord, RecordStatus, StoredResponse } from './core/record.js';
export type * from './core/store-contract.js';
