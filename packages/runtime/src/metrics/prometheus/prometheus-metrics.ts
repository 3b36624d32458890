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
  /** Label names the engine may attach; declared up front as prom-client requires. */
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
 * @example
 * import * as client from 'prom-client';
 * const metrics = createPrometheusMetrics({ client });
 * const idempotency = createIdempotency({ store, metrics });
 */
export function createPrometheusMetrics<Registry>({
  client,
  registry,
  labelNames = ['status', 'outcome', 'scope_bucket', 'provider'],
  durationBucketsMs = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000],
}: PrometheusMetricsOptions<Registry>): MetricsSink {
  const common = (name: MetricName) => ({
    name: promName(name),
    help: HELP[name],
    labelNames: [...labelNames],
    ...(registry ? { registers: [registry] } : {}),
  });
  const counters = new Map<MetricName, PromCounter>();
  for (const name of [METRICS.duplicatesBlocked, METRICS.lockTimeouts, METRICS.fingerprintMismatches, METRICS.keysCreatedPerUser, METRICS.orphanReclaims, METRICS.splitBrain]) {
    counters.set(name, new client.Counter({ ...common(name), name: `${promName(name)}_total` }));
  }
  const storeSize = new client.Gauge(common(METRICS.storeSize));
  const duration = new client.Histogram({ ...common(METRICS.processingDurationMs), buckets: [...durationBucketsMs] });
  const labelsOf = (labels?: MetricLabels) => ({ ...labels });

  return {
    increment(name, labels, by = 1) {
      counters.get(name)?.inc(labelsOf(labels), by);
    },
    observe(name, value, labels) {
      if (name === METRICS.processingDurationMs) duration.observe(labelsOf(labels), value);
    },
    gauge(name, value, labels) {
      if (name === METRICS.storeSize) storeSize.set(labelsOf(labels), value);
    },
  };
}
