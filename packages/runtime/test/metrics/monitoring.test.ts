/**
 * The shipped monitoring files (monitoring/idempotency-alerts.yml, grafana-dashboard.json):
 * promtool checks and unit-tests the rules where it is installed (Debian `prometheus`), and every
 * expression is parsed here to name only series the prom-client sink exports, grouped only by
 * labels those series carry, and to cover the spec's seven metrics.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { METRICS, type MetricName } from '../../src/core/metrics.js';
import { PROMETHEUS_LABELS, PROMETHEUS_SERIES } from '../../src/metrics/prometheus/index.js';
import { inCI } from '../support/services.js';

const monitoring = fileURLToPath(new URL('../../monitoring/', import.meta.url));
const rules = parse(readFileSync(`${monitoring}idempotency-alerts.yml`, 'utf8')) as {
  groups: { name: string; rules: { alert: string; expr: string; labels?: Record<string, string>; annotations?: Record<string, string> }[] }[];
};
const dashboard = JSON.parse(readFileSync(`${monitoring}grafana-dashboard.json`, 'utf8')) as {
  panels: { title: string; targets: { expr: string }[] }[];
};

/** Every exposed series name -> the metric it belongs to (histograms expose three). */
const SERIES = new Map<string, MetricName>();
for (const [metric, { name, type }] of Object.entries(PROMETHEUS_SERIES) as [MetricName, (typeof PROMETHEUS_SERIES)[MetricName]][]) {
  if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) SERIES.set(`${name}${suffix}`, metric);
  else SERIES.set(name, metric);
}

const SPEC_SEVEN: readonly MetricName[] = [
  METRICS.duplicatesBlocked,
  METRICS.lockTimeouts,
  METRICS.fingerprintMismatches,
  METRICS.storeSize,
  METRICS.processingDurationMs,
  METRICS.keysCreatedPerUser,
  METRICS.orphanReclaims,
];

/** The metrics an expression reads; throws on a series name the runtime does not export. */
function metricsOf(expr: string): MetricName[] {
  const names = expr.match(/\bidempotency_[a-z_]+\b/g) ?? [];
  expect(names.length, `no idempotency series in: ${expr}`).toBeGreaterThan(0);
  return names.map((name) => {
    const metric = SERIES.get(name);
    if (!metric) throw new Error(`${name} is not a series the runtime exports (in: ${expr})`);
    return metric;
  });
}

/** `by (a, b)` / `without (a)` labels must be labels the expression's metrics carry (or `le`). */
function checkGrouping(expr: string): void {
  const allowed = new Set(['le', ...metricsOf(expr).flatMap((metric) => PROMETHEUS_LABELS[metric])]);
  for (const [, labels] of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)) {
    for (const label of labels!.split(',').map((part) => part.trim()).filter(Boolean)) {
      expect(allowed.has(label), `label ${label} in: ${expr}`).toBe(true);
    }
  }
}

describe('monitoring/idempotency-alerts.yml', () => {
  const all = rules.groups.flatMap((group) => group.rules);

  it('names only exported series and their labels, and covers the seven spec metrics', () => {
    expect(all.length).toBeGreaterThanOrEqual(7);
    const covered = new Set<MetricName>();
    for (const rule of all) {
      expect(rule.alert).toMatch(/^Idempotency[A-Za-z]+$/);
      expect(rule.labels?.severity, rule.alert).toMatch(/^(warning|page)$/);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      for (const metric of metricsOf(rule.expr)) covered.add(metric);
      checkGrouping(rule.expr);
    }
    for (const metric of SPEC_SEVEN) expect(covered.has(metric), metric).toBe(true);
  });

  it('rejects a series the runtime does not export (the check can fail)', () => {
    expect(() => metricsOf('rate(idempotency_duplicates_blocked[5m])')).toThrow(/not a series/); // no _total
    expect(() => checkGrouping('sum by (user_id) (rate(idempotency_keys_created_per_user_total[5m]))')).toThrow();
  });

  const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });
  const hasPromtool = promtool.status === 0;
  if (!hasPromtool && inCI) throw new Error('promtool is not installed (apt-get install prometheus); under CI=true this is a failure.');
  it.skipIf(!hasPromtool)('passes `promtool check rules` and the promtool unit tests of the alerts (promtool installed)', () => {
    const check = spawnSync('promtool', ['check', 'rules', 'idempotency-alerts.yml'], { cwd: monitoring, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toContain('SUCCESS');
    expect(check.status).toBe(0);
    const unit = spawnSync('promtool', ['test', 'rules', 'idempotency-alerts.test.yml'], { cwd: monitoring, encoding: 'utf8' });
    expect(unit.stdout + unit.stderr).toContain('SUCCESS');
    expect(unit.status).toBe(0);
  });
});

describe('monitoring/grafana-dashboard.json', () => {
  it('has one panel per metric, each query naming only exported series and labels', () => {
    const covered = new Set<MetricName>();
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(7);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        for (const metric of metricsOf(target.expr)) covered.add(metric);
        checkGrouping(target.expr);
      }
    }
    for (const metric of SPEC_SEVEN) expect(covered.has(metric), metric).toBe(true);
  });
});
