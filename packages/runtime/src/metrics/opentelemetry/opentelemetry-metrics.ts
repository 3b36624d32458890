/**
 * A MetricsSink over the OpenTelemetry metrics API. The meter is structural
 * (`metrics.getMeter('idempotency')` from @opentelemetry/api fits), so the API package stays an
 * optional peer.
 */
import { METRICS, type MetricLabels, type MetricName, type MetricsSink } from '../../core/metrics.js';

interface OtelInstrumentOptions { description?: string; unit?: string }
interface OtelCounter { add(value: number, attributes?: Record<string, string>): void }
interface OtelHistogram { record(value: number, attributes?: Record<string, string>): void }
interface OtelGauge { record(value: number, attributes?: Record<string, string>): void }

/** The subset of an OpenTelemetry `Meter` this sink uses. */
export interface MeterLike {
  createCounter(name: string, options?: OtelInstrumentOptions): OtelCounter;
  createHistogram(name: string, options?: OtelInstrumentOptions): OtelHistogram;
  createGauge(name: string, options?: OtelInstrumentOptions): OtelGauge;
}

/**
 * Instruments keep the spec's dotted names (`idempotency.duplicates_blocked`), which are valid
 * OpenTelemetry instrument names; exporters translate them for their backend.
 * @example
 * import { metrics } from '@opentelemetry/api';
 * const sink = createOpenTelemetryMetrics({ meter: metrics.getMeter('idempotency') });
 */
export function createOpenTelemetryMetrics({ meter }: { meter: MeterLike }): MetricsSink {
  const counters = new Map<MetricName, OtelCounter>();
  for (const name of [METRICS.duplicatesBlocked, METRICS.lockTimeouts, METRICS.fingerprintMismatches, METRICS.keysCreatedPerUser, METRICS.orphanReclaims, METRICS.splitBrain]) {
    counters.set(name, meter.createCounter(name));
  }
  const duration = meter.createHistogram(METRICS.processingDurationMs, { unit: 'ms', description: 'Duration of protected actions' });
  const storeSize = meter.createGauge(METRICS.storeSize, { description: 'Records held by the idempotency store' });
  const attributes = (labels?: MetricLabels) => (labels ? { ...labels } : undefined);
  return {
    increment(name, labels, by = 1) {
      counters.get(name)?.add(by, attributes(labels));
    },
    observe(name, value, labels) {
      if (name === METRICS.processingDurationMs) duration.record(value, attributes(labels));
    },
    gauge(name, value, labels) {
      if (name === METRICS.storeSize) storeSize.record(value, attributes(labels));
    },
  };
}
