/** `@idempotency-builder/runtime/prometheus`: the prom-client sink and the series it exposes. */
export { createPrometheusMetrics, PROMETHEUS_LABELS, PROMETHEUS_SERIES, type PrometheusMetricsOptions, type PromClientLike } from './prometheus-metrics.js';
