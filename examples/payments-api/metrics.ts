/**
 * Prometheus metrics for the payments API: the runtime's prom-client sink on a registry of its
 * own, and what `GET /metrics` answers. The spec's seven metrics and their labels are in
 * docs/metrics.md; the alert rules and Grafana dashboard that read them ship in the runtime
 * package (`@idempotency-builder/runtime/monitoring/*`).
 */
import * as client from 'prom-client';
import type { MetricsSink } from '@idempotency-builder/runtime';
import { createPrometheusMetrics } from '@idempotency-builder/runtime/prometheus';

/** What `GET /metrics` needs: the Prometheus text format and its content type. */
export interface MetricsExposition {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface PaymentsMetrics {
  /** Pass to `createIdempotency({ metrics })` and `startCleanup({ metrics })`. */
  readonly sink: MetricsSink;
  readonly exposition: MetricsExposition;
}

/**
 * A registry per app (not prom-client's global one), so two apps in one process (tests) never
 * share counters; Node's process metrics ride along as every prom-client exporter has them.
 */
export function createPaymentsMetrics(): PaymentsMetrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return {
    sink: createPrometheusMetrics({ client, registry }),
    exposition: { contentType: registry.contentType, metrics: () => registry.metrics() },
  };
}
