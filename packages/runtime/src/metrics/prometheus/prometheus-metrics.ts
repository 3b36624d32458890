/**
 * A MetricsSink over prom-client. The registry is structural, so any prom-client version (or a
 * registry-compatible library) fits without this package importing the driver.
 */
import { METRICS, promName, type MetricLabels, type MetricName, type MetricsSink } from '../../core/metrics.js';

interface PromMetricOptions<Registry> {
  name: string;
  help: string;
  labelNames?: string[];
  registers?: Registry[];
  buckets?: number[];
}
interface PromCounter { inc(labels: Record<string, string>, value?: number): void }
interface PromGauge { set(labels: Record<string, string>, value: number): void }
interface PromHistogram { observe(labels: Record<string, string>, value: number): void }

/** The prom-client module, structurally: `import * as client from 'prom-client'`. */
export interface PromClientLike<Registry> {
  Counter: new (options: PromMetricOptions<Registry>) => PromCounter;
  Gauge: new (options: PromMetricOptions<Registry>) => PromGauge;
  Histogram: new (options: PromMetricOptions<Registry>) => PromHistogram;
}

export interface PrometheusMetricsOptions<Registry> {
  readonly client: PromClientLike<Registry>;
  /** A prom-client Registry; default is prom-client's global registry. */
  readonly registry?: Registry;
  /**
   * Label names declared on every metric (prom-client needs them up front). Default: each metric
   * gets the labels the engine attaches to it ({@link PROMETHEUS_LABELS}), e.g. `scope_bucket`
   * on `keys_created_per_user`.
   */
  readonly labelNames?: readonly string[];
  /** Histogram buckets for processing_duration_ms, in ms. */
  readonly durationBucketsMs?: readonly number[];
}

const HELP: Record<MetricName, string> = {
  [METRICS.duplicatesBlocked]: 'Duplicates answered from the store (replay, in progress).',
  [METRICS.lockTimeouts]: 'Leases that ran out: crashed or stalled workers.',
  [METRICS.fingerprintMismatches]: 'Keys reused with different request parameters.',
  [METRICS.storeSize]: 'Records held by the idempotency store.',
  [METRICS.processingDurationMs]: 'Duration of protected actions in milliseconds.',
  [METRICS.keysCreatedPerUser]: 'New idempotency keys claimed.',
  [METRICS.orphanReclaims]: 'Orphaned PROCESSING records taken over after their lease.',
  [METRICS.splitBrain]: 'Reconciliation found two provider charges for one local intent.',
};

/**
 * The labels the engine attaches, per metric: `duplicates_blocked{status}` (completed, failed,
 * processing), `processing_duration_ms{outcome}`, `keys_created_per_user{scope_bucket}` (64
 * buckets, see `scopeBucket`), `split_brain{provider}`; the rest carry none.
 */
export const PROMETHEUS_LABELS: Readonly<Record<MetricName, readonly string[]>> = {
  [METRICS.duplicatesBlocked]: ['status'],
  [METRICS.lockTimeouts]: [],
  [METRICS.fingerprintMismatches]: [],
  [METRICS.storeSize]: [],
  [METRICS.processingDurationMs]: ['outcome'],
  [METRICS.keysCreatedPerUser]: ['scope_bucket'],
  [METRICS.orphanReclaims]: [],
  [METRICS.splitBrain]: ['provider'],
};

/**
 * The exposed Prometheus name of each metric and its type: counters get `_total`, the histogram
 * exposes `_bucket`/`_sum`/`_count` series. Alert rules and dashboards may use only these.
 * @example PROMETHEUS_SERIES['idempotency.lock_timeouts'] // { name: 'idempotency_lock_timeouts_total', type: 'counter' }
 */
export const PROMETHEUS_SERIES: Readonly<Record<MetricName, { readonly name: string; readonly type: 'counter' | 'gauge' | 'histogram' }>> = Object.fromEntries(
  (Object.values(METRICS) as MetricName[]).map((name) => {
    const type = name === METRICS.storeSize ? 'gauge' : name === METRICS.processingDurationMs ? 'histogram' : 'counter';
    return [name, { name: type === 'counter' ? `${promName(name)}_total` : promName(name), type }];
  }),
) as Record<MetricName, { name: string; type: 'counter' | 'gauge' | 'histogram' }>;

/**
 * @example
 * import * as client from 'prom-client';
 * const metrics = createPrometheusMetrics({ client });
 * const idempotency = createIdempotency({ store, metrics });
 */
export function createPrometheusMetrics<Registry>({
  client,
  registry,
  labelNames,
  durationBucketsMs = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000],
}: PrometheusMetricsOptions<Registry>): MetricsSink {
  const common = (name: MetricName) => ({
    name: promName(name),
    help: HELP[name],
    labelNames: [...(labelNames ?? PROMETHEUS_LABELS[name])],
    ...(registry ? { registers: [registry] } : {}),
  });
  const counters = new Map<MetricName, PromCounter>();
  for (const name of [METRICS.duplicatesBlocked, METRICS.lockTimeouts, METRICS.fingerprintMismatches, METRICS.keysCreatedPerUser, METRICS.orphanReclaims, METRICS.splitBrain]) {
    counters.set(name, new client.Counter({ ...common(name), name: `${promName(name)}_total` }));
  }
  const storeSize = new client.Gauge(common(METRICS.storeSize));
  const duration = new client.Histogram({ ...common(METRICS.processingDurationMs), buckets: [...durationBucketsMs] });
  // prom-client throws on an undeclared label: a label the engine adds later is dropped here, never
  // turned into an exception inside a request.
  const labelsOf = (name: MetricName, labels?: MetricLabels) => {
    const declared = labelNames ?? PROMETHEUS_LABELS[name];
    const kept: Record<string, string> = {};
    for (const [label, value] of Object.entries(labels ?? {})) if (declared.includes(label)) kept[label] = value;
    return kept;
  };

  return {
    increment(name, labels, by = 1) {
      counters.get(name)?.inc(labelsOf(name, labels), by);
    },
    observe(name, value, labels) {
      if (name === METRICS.processingDurationMs) duration.observe(labelsOf(name, labels), value);
    },
    gauge(name, value, labels) {
      if (name === METRICS.storeSize) storeSize.set(labelsOf(name, labels), value);
    },
  };
}
