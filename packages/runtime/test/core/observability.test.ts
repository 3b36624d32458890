import { describe, expect, it } from 'vitest';
import * as promClient from 'prom-client';
import { MeterProvider, MetricReader, AggregationTemporality, type CollectionResult } from '@opentelemetry/sdk-metrics';
import { createIdempotency, fingerprintFields, fingerprintJson, METRICS, startCleanup } from '../../src/index.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createPrometheusMetrics } from '../../src/metrics/prometheus/index.js';
import { createOpenTelemetryMetrics } from '../../src/metrics/opentelemetry/index.js';
import { scopeBucket, SCOPE_BUCKETS } from '../../src/core/metrics.js';
import { capturingLogger, manualClock, sleep } from './helpers.js';

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

async function exercise(metrics: Parameters<typeof createIdempotency>[0]['metrics']) {
  const idem = createIdempotency({ store: createMemoryStore(), metrics, leaseMs: 40, heartbeat: false });
  const fp = fingerprintFields(['m', 1]);
  await idem.run({ key: 'k1', scope: 'u', fingerprint: fp }, async () => 1);
  await idem.run({ key: 'k1', scope: 'u', fingerprint: fp }, async () => 1); // replay
  await idem.run({ key: 'k1', scope: 'u', fingerprint: fingerprintFields(['m', 2]) }, async () => 1).catch(() => {});
  void idem.run({ key: 'k2', scope: 'u', fingerprint: fp }, () => new Promise(() => {})); // a worker that hangs
  await sleep(60);
  await idem.run({ key: 'k2', scope: 'u', fingerprint: fp }, async () => 2); // orphan reclaim
}

describe('keys_created_per_user: a safe per-user dimension (#12)', () => {
  it('buckets scopes into at most 64 stable, hashed labels that never contain the id', () => {
    const labels = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const scope = `user_${i}`;
      const label = scopeBucket(scope);
      expect(label).toMatch(/^[0-9a-f]{2}$/);
      expect(scopeBucket(scope)).toBe(label); // stable across calls (and processes: plain SHA-256)
      labels.add(label);
    }
    expect(labels.size).toBe(SCOPE_BUCKETS); // 2,000 users: every bucket used, none beyond 64
    expect(scopeBucket('user_42')).not.toContain('42');
  });
});

describe('metrics adapters against the real libraries', () => {
  it('prom-client exposes the spec metrics with their counts', async () => {
    const registry = new promClient.Registry();
    await exercise(createPrometheusMetrics({ client: promClient, registry }));
    const text = await registry.metrics();
    expect(text).toMatch(/idempotency_duplicates_blocked_total\{status="completed"\} 1/);
    expect(text).toMatch(/idempotency_fingerprint_mismatches_total 1/);
    expect(text).toMatch(/idempotency_orphan_reclaims_total 1/);
    // Labelled by scope_bucket once the engine passes scopeBucket(scope): one user, one series.
    expect(text).toMatch(/idempotency_keys_created_per_user_total(\{scope_bucket="[0-9a-f]{2}"\})? 2\n/);
    expect(text).toMatch(/idempotency_processing_duration_ms_count\{outcome="ok"\} 2/);
    expect(text).toContain('# TYPE idempotency_store_size gauge');
  });

  it('OpenTelemetry records the same instruments under the spec names', async () => {
    const reader = new TestReader();
    const provider = new MeterProvider({ readers: [reader] });
    await exercise(createOpenTelemetryMetrics({ meter: provider.getMeter('idempotency') }));
    const { resourceMetrics } = await reader.read();
    const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const sum = (name: string) =>
      metrics
        .filter((m) => m.descriptor.name === name)
        .flatMap((m) => m.dataPoints as { value: unknown }[])
        .reduce((acc, p) => acc + Number(p.value), 0);
    expect(sum(METRICS.duplicatesBlocked)).toBe(1);
    expect(sum(METRICS.fingerprintMismatches)).toBe(1);
    expect(sum(METRICS.orphanReclaims)).toBe(1);
    expect(metrics.some((m) => m.descriptor.name === METRICS.processingDurationMs)).toBe(true);
    await provider.shutdown();
  });

  it('the cleanup job purges in bounded batches and reports store_size', async () => {
    const clock = manualClock();
    const store = createMemoryStore({ clock: clock.now });
    const idem = createIdempotency({ store, ttlMs: 1_000, leaseMs: 100 });
    for (let i = 0; i < 25; i++) await idem.run({ key: `k${i}`, scope: 'u', fingerprint: fingerprintFields([i]) }, async () => i);
    clock.advance(1_001);
    await idem.run({ key: 'fresh', scope: 'u', fingerprint: fingerprintFields(['f']) }, async () => 0);
    const gauges: number[] = [];
    const job = startCleanup({ store, batchSize: 10, intervalMs: 3_600_000, metrics: { increment() {}, observe() {}, gauge: (_n, v) => gauges.push(v) } });
    expect(await job.runOnce()).toBe(25);
    expect(gauges).toEqual([1]);
    await job.stop();
  });
});

describe('log hygiene', () => {
  it('never logs a raw key, fingerprint, scope or body — only short hashes', async () => {
    const { logger, lines } = capturingLogger();
    const key = 'usr-secret_createPayment_5f1c0e2a-0000-4000-8000-000000000001';
    const scope = 'user-4242-private';
    const body = { amount: 4999, card: '4242424242424242' };
    const fingerprint = fingerprintJson(body);
    const store = createMemoryStore();
    let failComplete = 1;
    const flaky = { ...store, complete: async (i: Parameters<typeof store.complete>[0]) => (failComplete-- > 0 ? Promise.reject(new Error('blip')) : store.complete(i)) };
    const idem = createIdempotency({ store: flaky, logger, leaseMs: 30, heartbeat: true });
    await idem.run({ key, scope, fingerprint }, async () => body);
    void idem.run({ key: `${key}-2`, scope, fingerprint }, () => new Promise(() => {}));
    await sleep(10);
    await store.forceRelease({ key: `${key}-2`, scope });
    await sleep(40);
    await idem.run({ key: `${key}-2`, scope, fingerprint }, async () => body);
    expect(lines.length).toBeGreaterThan(2); // the scenario did log: retry, lease lost, reclaim
    const all = lines.join('\n');
    for (const secret of [key, scope, fingerprint, '4242424242424242', 'createPayment']) {
      expect(all).not.toContain(secret);
    }
    expect(all).toMatch(/h:[0-9a-f]{12}/);
  });
});
