/**
 * Writing artifacts: every file lands under the code directory, an existing user file is never
 * overwritten unless forced, and the Prometheus rules file parses with its seven alerts.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { METRICS } from '@idempotency-builder/runtime';
import { buildDesign } from '../src/design/build-design.js';
import { derivePlan } from '../src/design/plan/plan.js';
import { emitArtifacts } from '../src/emit/emit-artifacts.js';
import { metricSpecs, prometheusRulesFile } from '../src/emit/monitoring/prometheus.js';
import { FIXTURE_NAMES, fixture, GENERATED_AT } from './fixtures.js';
import { makeWorkspace } from './support/workspace.js';

const workspace = makeWorkspace('emit');
afterAll(() => workspace.remove());

describe('emitArtifacts', () => {
  const model = buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT });

  it('writes every artifact under the code directory', () => {
    const dir = join(workspace.dir, 'fresh');
    const result = emitArtifacts(model, dir);
    expect(result.skipped).toEqual([]);
    expect(result.written).toHaveLength(model.artifacts.length);
    for (const artifact of model.artifacts) expect(readFileSync(join(dir, artifact.path), 'utf8')).toBe(artifact.content);
  });

  it('never overwrites an existing file unless forced', () => {
    const dir = join(workspace.dir, 'existing');
    mkdirSync(join(dir, 'db'), { recursive: true });
    writeFileSync(join(dir, 'idempotency.ts'), '// my own edits\n');
    writeFileSync(join(dir, 'db/idempotency_store.sql'), '-- my schema\n');
    const kept = emitArtifacts(model, dir);
    expect(kept.skipped.sort()).toEqual([join(dir, 'db/idempotency_store.sql'), join(dir, 'idempotency.ts')]);
    expect(readFileSync(join(dir, 'idempotency.ts'), 'utf8')).toBe('// my own edits\n');
    expect(existsSync(join(dir, 'express.ts'))).toBe(true);
    const forced = emitArtifacts(model, dir, { force: true });
    expect(forced.skipped).toEqual([]);
    expect(readFileSync(join(dir, 'idempotency.ts'), 'utf8')).toContain('createIdempotency');
  });

  it('accepts answers directly and refuses paths that leave the directory', () => {
    const dir = join(workspace.dir, 'answers');
    expect(emitArtifacts(fixture('go-redis'), dir).written.some((path) => path.endsWith('engine.go'))).toBe(true);
    const evil = { ...model, artifacts: [{ path: '../outside.txt', language: 'text' as const, content: 'x', purpose: 'x' }] };
    expect(() => emitArtifacts(evil, join(workspace.dir, 'evil'))).toThrow(/outside/);
    expect(existsSync(join(workspace.dir, 'outside.txt'))).toBe(false);
  });
});

describe.each(FIXTURE_NAMES)('Prometheus rules for %s', (name) => {
  it('parse as YAML with one alert per metric, thresholds derived from the plan', () => {
    const plan = derivePlan(fixture(name));
    const rules = parse(prometheusRulesFile(plan)) as { groups: { name: string; rules: Record<string, unknown>[] }[] };
    expect(rules.groups).toHaveLength(1);
    const list = rules.groups[0]?.rules ?? [];
    expect(list).toHaveLength(Object.values(METRICS).length);
    for (const rule of list) {
      expect(rule).toMatchObject({ alert: expect.stringMatching(/^Idempotency/), expr: expect.any(String), for: expect.stringMatching(/^\d+[mh]$/) });
      expect((rule.annotations as { runbook: string }).runbook).toMatch(/^runbook\.md#[a-z-]+$/);
    }
    const specs = metricSpecs(plan);
    expect(specs.map((s) => s.name).sort()).toEqual(Object.values(METRICS).sort());
    expect(specs.map((s) => s.type).sort()).toEqual(['counter', 'counter', 'counter', 'counter', 'counter', 'counter', 'gauge', 'histogram']);
    const storeSize = list.find((r) => r.alert === 'IdempotencyStoreNotCleaned');
    const expectedRows = Math.round(plan.keysPerDay * Math.max(1, plan.maxTtlMs / 86_400_000));
    expect(storeSize?.expr).toBe(`max(idempotency_store_size) > ${Math.round(expectedRows * 1.5)}`);
    const slow = list.find((r) => r.alert === 'IdempotencySlowActions');
    expect(slow?.expr).toContain(`> ${Math.round(Math.min(...plan.actions.map((a) => a.lease.leaseMs)) / 2)}`);
  });
});
