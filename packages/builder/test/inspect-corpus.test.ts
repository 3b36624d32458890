// The inspector against the team's corpus: full-path recall/precision, fields, webhooks, keys, stack.
import { describe, expect, it } from 'vitest';
import { evaluateCorpus, totals, type FixtureScore } from '../scripts/eval.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { auditInspection, parseAllowList } from '../src/inspect/audit.js';
import { CORPUS_DIR } from '../scripts/eval.js';
import { effectTotals } from '../scripts/eval-effects.js';
import { join } from 'node:path';

describe('the evaluation corpus', () => {
  let scores: FixtureScore[] = [];

  it('finds mutating HTTP entry points with their full paths: recall and precision ≥ 95 %', async () => {
    scores = await evaluateCorpus();
    expect(scores.length).toBeGreaterThanOrEqual(9);
    const total = totals(scores);
    for (const s of scores) expect({ name: s.name, missing: s.missing, extra: s.extra }).toEqual({ name: s.name, missing: [], extra: [] });
    expect(total.recall).toBeGreaterThanOrEqual(0.95);
    expect(total.precision).toBeGreaterThanOrEqual(0.95);
  }, 60_000);

  it('never fabricates a fingerprint field, and names the real ones for ≥ 90 % of the handlers that name theirs', () => {
    const total = totals(scores);
    expect(scores.flatMap((s) => s.fabricated)).toEqual([]);
    expect(total.fieldAccuracy).toBeGreaterThanOrEqual(0.9);
    expect(scores.flatMap((s) => s.secretErrors)).toEqual([]);
  });

  it('marks webhooks by signature verification, ranks by what the handler does, and judges provider keys', () => {
    expect(scores.flatMap((s) => s.webhookErrors)).toEqual([]);
    expect(scores.flatMap((s) => s.costErrors)).toEqual([]);
    expect(scores.flatMap((s) => s.paymentErrors)).toEqual([]);
    expect(scores.flatMap((s) => s.stackErrors)).toEqual([]);
  });
});

describe('the evaluation corpus: consumers, schedules and existing deduplication', () => {
  it('finds every consumer, schedule and existing protection its truth lists, nothing else, each described as the truth says', async () => {
    const scores = await evaluateCorpus();
    const withEffects = scores.filter((s) => s.effects.consumers || s.effects.schedules || s.effects.existing);
    expect(withEffects.map((s) => s.name)).toEqual(expect.arrayContaining(['django-celery', 'k8s-cronjob', 'rails-sidekiq', 'spring-listeners']));
    expect(scores.flatMap((s) => s.effects.errors.map((e) => `${s.name}: ${e}`))).toEqual([]);
    for (const pick of [(s: FixtureScore) => s.effects.consumers, (s: FixtureScore) => s.effects.schedules, (s: FixtureScore) => s.effects.existing]) {
      const total = effectTotals(scores.map(pick));
      expect(total.expected).toBeGreaterThan(0);
      expect(total).toMatchObject({ recall: 1, precision: 1 });
    }
  }, 60_000);
});

describe('audit', () => {
  it('fails on a money-moving entry point, an unsound or missing provider key and an undeduplicated webhook; the allow-list accepts one', async () => {
    const inspection = await inspectCodebase(join(CORPUS_DIR, 'express-mounted'));
    const result = auditInspection(inspection);
    const kinds = result.violations.map((v) => `${v.kind} ${v.location}`);
    expect(kinds).toEqual(expect.arrayContaining([
      'unprotected-entry-point src/routes/orders.ts:8',
      'webhook-without-event-dedup src/routes/hooks.ts:18',
      'provider-key-unsound src/lib/billing.ts:8',
      'provider-call-without-key src/lib/billing.ts:12',
    ]));
    // Login and plain writes do not fail the default audit.
    expect(kinds.some((k) => k.includes('accounts.ts'))).toBe(false);
    const allowed = auditInspection(inspection, { allow: parseAllowList('src/lib/billing.ts:12  # refunds are keyed upstream\nPOST /hooks/payments') });
    expect(allowed.violations).toHaveLength(result.violations.length - 2);
    expect(allowed.allowed.map((v) => v.location)).toEqual(['src/routes/hooks.ts:18', 'src/lib/billing.ts:12']);
    expect(result.violations.find((v) => v.kind === 'provider-key-unsound')?.fix).toMatch(/src\/lib\/billing\.ts:8.*idempotencyKey/);
  });
});
