export { createOpenTelemetryMetrics, type MeterLike } from './opentelemetry-metrics.js';
