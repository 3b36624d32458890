/**
 * The metrics port: the spec's metric names, and a sink interface small enough that prom-client,
 * OpenTelemetry or StatsD fit in a few lines (see `idempotency-builder/prometheus` and
 * `/opentelemetry`).
 */
import { createHash } from 'node:crypto';

export const METRICS = {
  /** counter: a duplicate was answered from the store (replay, in-progress or mismatch). */
  duplicatesBlocked: 'idempotency.duplicates_blocked',
  /** counter: a worker's lease ran out (heartbeat lost it, or an orphan was found). */
  lockTimeouts: 'idempotency.lock_timeouts',
  /** counter: a key was reused with different parameters. */
  fingerprintMismatches: 'idempotency.fingerprint_mismatches',
  /** gauge: records held by the store; rising forever means cleanup is not running. */
  storeSize: 'idempotency.store_size',
  /** histogram (ms): how long protected actions take; compare with leaseMs. */
  processingDurationMs: 'idempotency.processing_duration_ms',
  /**
   * counter, labelled `scope_bucket` (see `scopeBucket`): new keys claimed, to spot key flooding.
   * The bucket, not the user id, keeps the series count bounded (64) and keeps ids out of metrics.
   */
  keysCreatedPerUser: 'idempotency.keys_created_per_user',
  /** counter: an orphaned PROCESSING record was taken over after its lease. */
  orphanReclaims: 'idempotency.orphan_reclaims',
  /**
   * counter, labelled `provider`: reconciliation found two provider charges for one local intent
   * (split brain). Any increase is a page: money moved twice.
   */
  splitBrain: 'idempotency.split_brain',
} as const;

export type MetricName = (typeof METRICS)[keyof typeof METRICS];

/** Low-cardinality labels only: never a raw key, fingerprint or user id. */
export type MetricLabels = Readonly<Record<string, string>>;

export interface MetricsSink {
  increment(name: MetricName, labels?: MetricLabels, by?: number): void;
  observe(name: MetricName, value: number, labels?: MetricLabels): void;
  gauge(name: MetricName, value: number, labels?: MetricLabels): void;
}

/** The default sink: records nothing, costs nothing. */
export const noopMetrics: MetricsSink = {
  increment() {},
  observe() {},
  gauge() {},
};

/** How many `scope_bucket` values `keys_created_per_user` can have: the whole series budget. */
export const SCOPE_BUCKETS = 64;

/**
 * The `scope_bucket` label of `keys_created_per_user`: the first bytes of SHA-256(scope) modulo
 * `SCOPE_BUCKETS`, as two hex digits. Safe to export anywhere: a raw user id would be PII in the
 * metrics backend and one time series per user (unbounded cardinality); 64 buckets bound the
 * series and still show one flooding user as one hot bucket (then find them in the rate limiter's
 * 429s or the store, by scope). Not reversible for any realistic id space beyond "1 of 64".
 * @example scopeBucket('user_42') // e.g. '1f'
 */
export function scopeBucket(scope: string): string {
  const digest = createHash('sha256').update(scope).digest();
  return (digest.readUInt32BE(0) % SCOPE_BUCKETS).toString(16).padStart(2, '0');
}

/** Metric names as Prometheus/OpenTelemetry instrument names (`.` is not allowed in Prometheus). */
export function promName(name: MetricName): string {
  return name.replace(/\./g, '_');
}
