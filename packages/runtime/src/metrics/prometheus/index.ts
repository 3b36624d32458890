export { createPrometheusMetrics, type PrometheusMetricsOptions, type PromClientLike } from './prometheus-metrics.js';
