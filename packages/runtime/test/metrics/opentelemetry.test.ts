/**
 * The OpenTelemetry sink through the real @opentelemetry/sdk-metrics (as docs/metrics.md shows
 * it): the spec's seven instruments under their dotted names, with their kinds, units and
 * attributes (`scope_bucket` on keys_created_per_user, never the scope itself).
 */
import { AggregationTemporality, DataPointType, MeterProvider, MetricReader, type CollectionResult } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { createIdempotency, fingerprintFields, startCleanup } from '../../src/index.js';
import { scopeBucket } from '../../src/core/metrics.js';
import { createOpenTelemetryMetrics } from '../../src/metrics/opentelemetry/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';

/** A pull reader: what a Prometheus exporter or a periodic OTLP reader does, on demand. */
class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected async onForceFlush() {}
  protected async onShutdown() {}
  read(): Promise<CollectionResult> {
    return this.collect();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('OpenTelemetry: the seven spec metrics through sdk-metrics', () => {
  it('records each instrument with its kind, unit and attributes', async () => {
    const reader = new TestReader();
    const provider = new MeterProvider({ readers: [reader] });
    const metrics = createOpenTelemetryMetrics({ meter: provider.getMeter('idempotency') });
    const store = createMemoryStore();
    const idempotency = createIdempotency({ store, metrics, leaseMs: 40, heartbeat: false });
    const fingerprint = fingerprintFields(['pay', 100]);

    await idempotency.run({ key: 'k1', scope: 'user_alice', fingerprint }, async () => 'paid');
    await idempotency.run({ key: 'k1', scope: 'user_alice', fingerprint }, async () => 'paid'); // replay
    await expect(idempotency.run({ key: 'k1', scope: 'user_alice', fingerprint: fingerprintFields(['pay', 101]) }, async () => 'paid')).rejects.toThrow();
    void idempotency.run({ key: 'k2', scope: 'user_alice', fingerprint }, () => new Promise(() => {})); // a worker that hangs
    await sleep(70);
    await idempotency.run({ key: 'k2', scope: 'user_alice', fingerprint }, async () => 'paid'); // orphan reclaim
    const cleanup = startCleanup({ store, metrics });
    await cleanup.runOnce();
    await cleanup.stop();

    const { resourceMetrics } = await reader.read();
    const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics);
    const find = (name: string) => {
      const metric = all.find((candidate) => candidate.descriptor.name === name);
      if (!metric) throw new Error(`${name} was not recorded`);
      return metric;
    };
    const total = (name: string) => find(name).dataPoints.reduce((sum, point) => sum + (point.value as number), 0);

    expect(find('idempotency.duplicates_blocked').dataPointType).toBe(DataPointType.SUM);
    expect(find('idempotency.duplicates_blocked').dataPoints[0]!.attributes).toEqual({ status: 'completed' });
    expect(total('idempotency.duplicates_blocked')).toBe(1);
    expect(total('idempotency.fingerprint_mismatches')).toBe(1);
    expect(total('idempotency.orphan_reclaims')).toBe(1);
    expect(total('idempotency.lock_timeouts')).toBe(1);
    const keys = find('idempotency.keys_created_per_user');
    expect(keys.dataPoints.map((point) => point.attributes)).toEqual([{ scope_bucket: scopeBucket('user_alice') }]);
    expect(total('idempotency.keys_created_per_user')).toBe(2);
    const duration = find('idempotency.processing_duration_ms');
    expect(duration.dataPointType).toBe(DataPointType.HISTOGRAM);
    expect(duration.descriptor.unit).toBe('ms');
    expect(find('idempotency.store_size').dataPointType).toBe(DataPointType.GAUGE);
    expect(total('idempotency.store_size')).toBe(2);
    await provider.shutdown();
  });
});
