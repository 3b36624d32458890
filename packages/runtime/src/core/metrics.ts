/**
 * The metrics port: the spec's metric names, and a sink interface small enough that prom-client,
 * OpenTelemetry or StatsD fit in a few lines (see `idempotency-builder/prometheus` and
 * `/opentelemetry`).
 */

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
  /** counter, labelled by scope hash: new keys claimed, to spot key flooding. */
  keysCreatedPerUser: 'idempotency.keys_created_per_user',
  /** counter: an orphaned PROCESSING record was taken over after its lease. */
  orphanReclaims: 'idempotency.orphan_reclaims',
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

/** Metric names as Prometheus/OpenTelemetry instrument names (`.` is not allowed in Prometheus). */
export function promName(name: MetricName): string {
  return name.replace(/\./g, '_');
}
