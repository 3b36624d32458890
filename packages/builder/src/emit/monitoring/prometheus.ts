/**
 * The idempotency metrics (the runtime's METRICS, one spec each) with their exposition names and alert rules, derived from the
 * plan's volume and leases; rendered as a Prometheus rules file and as the document's table.
 */
import { stringify } from 'yaml';
import { METRICS } from '@idempotency-builder/runtime';
import { DAY, formatCount, formatMs } from '../../design/plan/durations.js';
import type { Plan } from '../../design/plan/plan.js';

export interface MetricSpec {
  /** The spec's dotted name, e.g. `idempotency.duplicates_blocked`. */
  readonly name: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** The Prometheus series the rule queries. */
  readonly series: string;
  readonly meaning: string;
  readonly alert: string;
  /** Why this threshold. */
  readonly threshold: string;
  readonly expr: string;
  readonly for: string;
  readonly severity: 'page' | 'warning';
  readonly runbook: string;
}

const prom = (name: string) => name.replace(/\./g, '_');

/**
 * The metric table, thresholds derived from the plan.
 * @example metricSpecs(plan).length // 8
 */
export function metricSpecs(plan: Plan): MetricSpec[] {
  const minLease = Math.min(...plan.actions.map((a) => a.lease.leaseMs));
  const expectedRows = Math.round(plan.keysPerDay * Math.max(1, plan.maxTtlMs / DAY));
  const rowLimit = Math.round(expectedRows * 1.5);
  const perMinute = plan.keysPerDay / 1440;
  const floodRate = Math.max(100, Math.ceil(perMinute * 5));
  const counter = (name: string) => `${prom(name)}_total`;
  return [
    {
      name: METRICS.duplicatesBlocked,
      type: 'counter',
      series: counter(METRICS.duplicatesBlocked),
      meaning: 'A duplicate was answered from the store (replay or in-progress).',
      alert: 'IdempotencyDuplicatesSpike',
      threshold: 'more than 3× the same hour yesterday (and above 0.1/s) for 15 min: a client retry storm, a broker redelivery loop, or an upstream timeout that makes everyone retry',
      expr: `sum(rate(${counter(METRICS.duplicatesBlocked)}[10m])) > 3 * sum(rate(${counter(METRICS.duplicatesBlocked)}[1h] offset 1d)) and sum(rate(${counter(METRICS.duplicatesBlocked)}[10m])) > 0.1`,
      for: '15m',
      severity: 'warning',
      runbook: 'split-brain-detection',
    },
    {
      name: METRICS.lockTimeouts,
      type: 'counter',
      series: counter(METRICS.lockTimeouts),
      meaning: 'A lease ran out: a worker crashed, stalled past its lease, or its heartbeats could not reach the store.',
      alert: 'IdempotencyLockTimeouts',
      threshold: 'more than 5 in 15 min: with heartbeats a healthy worker never loses its lease, so each one is a crash or a stall',
      expr: `sum(increase(${counter(METRICS.lockTimeouts)}[15m])) > 5`,
      for: '5m',
      severity: 'warning',
      runbook: 'stuck-processing-records',
    },
    {
      name: METRICS.fingerprintMismatches,
      type: 'counter',
      series: counter(METRICS.fingerprintMismatches),
      meaning: 'A key was reused with different parameters (409).',
      alert: 'IdempotencyFingerprintMismatches',
      threshold: 'more than 1 a minute for 15 min: a client generating keys per session instead of per intent, or someone probing keys',
      expr: `sum(rate(${counter(METRICS.fingerprintMismatches)}[5m])) * 60 > 1`,
      for: '15m',
      severity: 'warning',
      runbook: 'key-flooding-abuse-response',
    },
    {
      name: METRICS.storeSize,
      type: 'gauge',
      series: prom(METRICS.storeSize),
      meaning: 'Records held by the store.',
      alert: 'IdempotencyStoreNotCleaned',
      threshold: `above ${formatCount(rowLimit)} records for 1 h: 1.5× the steady state of ${formatCount(plan.keysPerDay)} keys a day kept for ${formatMs(plan.maxTtlMs)} (${formatCount(expectedRows)}) — the cleanup job has stopped or volume has changed`,
      expr: `max(${prom(METRICS.storeSize)}) > ${rowLimit}`,
      for: '1h',
      severity: 'warning',
      runbook: 'partition-maintenance',
    },
    {
      name: METRICS.processingDurationMs,
      type: 'histogram',
      series: `${prom(METRICS.processingDurationMs)}_bucket`,
      meaning: 'How long protected actions take.',
      alert: 'IdempotencySlowActions',
      threshold: `p99 above ${formatMs(Math.round(minLease / 2))} (half the shortest lease) for 10 min: the duration the lease was derived from no longer holds; a missed heartbeat would now look like a crash`,
      expr: `histogram_quantile(0.99, sum by (le) (rate(${prom(METRICS.processingDurationMs)}_bucket[10m]))) > ${Math.round(minLease / 2)}`,
      for: '10m',
      severity: 'warning',
      runbook: 'stuck-processing-records',
    },
    {
      name: METRICS.keysCreatedPerUser,
      type: 'counter',
      series: counter(METRICS.keysCreatedPerUser),
      meaning: 'New keys claimed. Per user, the HTTP layer throttles above 100 new keys a minute (429); this series watches the total.',
      alert: 'IdempotencyKeyFlooding',
      threshold: `more than ${floodRate} new keys a minute for 10 min: 5× the average of ${formatCount(perMinute)} a minute implied by ${formatCount(plan.keysPerDay)} a day (never below 100, the per-user throttle)`,
      expr: `sum(rate(${counter(METRICS.keysCreatedPerUser)}[5m])) * 60 > ${floodRate}`,
      for: '10m',
      severity: 'warning',
      runbook: 'key-flooding-abuse-response',
    },
    {
      name: METRICS.orphanReclaims,
      type: 'counter',
      series: counter(METRICS.orphanReclaims),
      meaning: 'An orphaned PROCESSING record was taken over after its lease.',
      alert: 'IdempotencyOrphanReclaims',
      threshold: 'more than 3 in 30 min, sustained for 30 min: workers keep dying mid-action; one reclaim after a deploy is normal',
      expr: `sum(increase(${counter(METRICS.orphanReclaims)}[30m])) > 3`,
      for: '30m',
      severity: 'page',
      runbook: 'provider-local-divergence',
    },
    {
      name: METRICS.splitBrain,
      type: 'counter',
      series: counter(METRICS.splitBrain),
      meaning: 'Reconciliation found two provider charges for one local intent (the runtime’s payments reconcile job).',
      alert: 'IdempotencySplitBrain',
      threshold: 'any increase: one intent was charged twice at the provider — refund one now; it means a provider key was not derived from the local key somewhere',
      expr: `sum(increase(${counter(METRICS.splitBrain)}[15m])) > 0`,
      for: '0m',
      severity: 'page',
      runbook: 'split-brain-detection',
    },
  ];
}

/**
 * The Prometheus alerting rules file.
 * @example parse(prometheusRulesFile(plan)).groups[0].rules.length // 8
 */
export function prometheusRulesFile(plan: Plan): string {
  const rules = metricSpecs(plan).map((metric) => ({
    alert: metric.alert,
    expr: metric.expr,
    for: metric.for,
    labels: { severity: metric.severity, component: 'idempotency' },
    annotations: {
      summary: `${metric.name} (${metric.type}): ${metric.meaning}`,
      description: `Fires when ${metric.threshold}.`,
      runbook: `runbook.md#${metric.runbook}`,
    },
  }));
  const header = `# Prometheus alerting rules for the idempotency layer of ${plan.codeName}.\n# Counters are exposed with the _total suffix (prom-client through idempotency-builder/prometheus,\n# prometheus_client, Micrometer). Load with rule_files: [idempotency-alerts.yml].\n`;
  return header + stringify({ groups: [{ name: 'idempotency', rules }] }, { lineWidth: 0 });
}
