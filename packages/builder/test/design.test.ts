/**
 * The design model: every spec section for every stack, numbers derived from the answers (lock
 * timeout from duration + buffer, expiry ≥ provider window), provider keys derived correctly, and
 * the agnostic and assumption paths.
 */
import { describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import type { Block, DesignModel, Inline, Section } from '../src/design/model.js';
import { DAY, HOUR, formatMs } from '../src/design/plan/durations.js';
import { birthdayLog10, bitsNeeded } from '../src/design/plan/key-format.js';
import { derivePlan } from '../src/design/plan/plan.js';
import { adyenReference, paypalNamespace, providerKey } from '../src/design/plan/providers.js';
import { adyenIdempotencyKey, paypalRequestId, stripeIdempotencyKey } from '@idempotency-builder/runtime/payments';
import { FIXTURE_NAMES, FIXTURES, fixture, GENERATED_AT } from './fixtures.js';

const flatten = (sections: readonly Section[]): Section[] => sections.flatMap((s) => [s, ...flatten(s.children)]);
const inlineText = (content: readonly Inline[]) => content.map((p) => ('text' in p ? p.text : 'code' in p ? p.code : 'strong' in p ? p.strong : p.link.text)).join('');
function blockText(block: Block): string {
  if (block.kind === 'paragraph') return inlineText(block.content);
  if (block.kind === 'list' || block.kind === 'callout') return block.items.map(inlineText).join('\n');
  if (block.kind === 'table') return block.rows.map((row) => row.map(inlineText).join(' | ')).join('\n');
  if (block.kind === 'diagram') return block.title;
  return block.code;
}
const sectionText = (section: Section): string => [...section.blocks.map(blockText), ...section.children.map(sectionText)].join('\n');
const find = (model: DesignModel, id: string) => {
  const section = flatten(model.sections).find((s) => s.id === id);
  if (!section) throw new Error(`no section ${id}`);
  return section;
};

const SPEC_SECTIONS = ['action-analysis', 'key-design', 'fingerprinting', 'concurrency', 'partial-failure', 'providers', 'saga', 'security', 'anti-patterns', 'monitoring', 'test-scenarios', 'build-order'];

describe.each(FIXTURE_NAMES)('design for %s', (name) => {
  const answers = fixture(name);
  const model = buildDesign(answers, { generatedAt: GENERATED_AT });
  const plan = derivePlan(answers);

  it('covers every section 1–12 of the method, plus the action map and the runbook', () => {
    const ids = flatten(model.sections).map((s) => s.id);
    for (const id of [...SPEC_SECTIONS, 'action-map', 'runbook', 'store-schema', 'lock-timeout', 'cleanup']) expect(ids).toContain(id);
    expect(model.sections.map((s) => s.title).filter((t) => /^\d+\. /.test(t)).map((t) => Number(t.split('.')[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every action an analysis with a concrete recovery path (never "just retry")', () => {
    const analysis = find(model, 'action-analysis');
    for (const action of answers.actions) {
      // Actions that share a treatment share one subsection whose title names each of them.
      const group = analysis.children.find((child) => child.blocks.some((b) => b.kind === 'table' && b.rows.some((row) => row[0]?.some((part) => 'code' in part && part.code === action.name))));
      expect(group, action.name).toBeDefined();
      const text = sectionText(group as Section);
      for (const label of ['Duplicate impact:', 'Retry sources:', 'Failure recovery path:']) expect(text).toContain(label);
      const recovery = text.split('Failure recovery path:')[1]?.split('\n')[0] ?? '';
      expect(recovery.split(/\s+/).length).toBeGreaterThan(25);
      expect(recovery).not.toMatch(/^\s*(just )?retry\.?\s*$/i);
      for (const field of action.significantFields) expect(text).toContain(field);
      for (const field of action.significantFields) expect(sectionText(find(model, 'fingerprinting'))).toContain(field);
    }
  });

  it('derives each lock timeout from the stated duration plus a buffer, and justifies it', () => {
    for (const a of plan.actions) {
      const duration = a.action.expectedDurationMs ?? a.lease.durationMs;
      expect(a.lease.leaseMs).toBeGreaterThanOrEqual(duration + 5000);
      expect(a.lease.leaseMs).toBe(Math.ceil((duration + Math.max(5000, Math.round(duration / 2)) + a.lease.skewMs) / 1000) * 1000);
      expect(a.lease.heartbeatMs).toBe(Math.floor(a.lease.leaseMs / 3));
      const statement = sectionText(find(model, 'lock-timeout')).split('\n').find((line) => line.startsWith('Lock timeout:') && line.includes(a.action.name));
      expect(statement, a.action.name).toMatch(new RegExp(`${a.action.name}[^.]* ${formatMs(a.lease.leaseMs).replace('.', '\\.')}\\.`));
    }
    const skew = ['redis', 'dynamodb'].includes(plan.stack.store);
    expect(plan.actions.every((a) => (a.lease.skewMs >= 2000 && a.lease.skewMs <= 5000) === skew)).toBe(true);
  });

  it('keeps every key at least as long as its provider deduplicates, and at least the stated retention', () => {
    const windows = { stripe: 24 * HOUR, adyen: 31 * DAY, paypal: 45 * DAY, braintree: 30 * DAY, 'bank-transfer': 35 * DAY } as const;
    for (const a of plan.actions) {
      expect(a.retention.ttlMs).toBeGreaterThanOrEqual(answers.retentionMs);
      expect(a.retention.ttlMs).toBeGreaterThanOrEqual(a.lease.leaseMs);
      if (a.action.provider && a.action.kind !== 'webhook') expect(a.retention.ttlMs).toBeGreaterThanOrEqual(windows[a.action.provider]);
      expect(sectionText(find(model, 'cleanup'))).toContain(`${a.action.name} ${formatMs(a.retention.ttlMs)}`);
    }
  });

  it('embeds store DDL with PRIMARY KEY and CHECK, and names the store it was redesigned for', () => {
    const schema = sectionText(find(model, 'store-schema'));
    expect(schema).toMatch(/CREATE TABLE/);
    expect(schema).toMatch(/PRIMARY KEY \(idempotency_key, user_id/);
    expect(schema).toMatch(/CHECK \(status IN \('PROCESSING', 'COMPLETED', 'FAILED'\)\)/);
    expect(sectionText(find(model, 'claim'))).toContain(plan.stack.storeName);
  });

  it('states where fencing tokens start, and why (the ABA of a released key)', () => {
    const aba = sectionText(find(model, 'aba'));
    expect(aba).toMatch(/fresh record’s lock_version is the (database|application) clock in milliseconds \(a 64-bit column\)/);
    expect(aba).toMatch(/orphan reclaim adds 1/);
    expect(aba).toMatch(/greater of lock_version \+ 1 and the clock/);
    expect(aba).toMatch(/C claim version 1 again/);
    // Only the SQL stores embed their DDL here; where they do, the column is 64-bit.
    const schema = sectionText(find(model, 'store-schema'));
    expect(schema).not.toMatch(/lock_version\s+INT\b/);
  });

  it('lists the test scenarios of section 11 with a concurrent-duplicate case', () => {
    const table = find(model, 'test-scenarios').blocks.find((b) => b.kind === 'table');
    expect(table?.kind).toBe('table');
    const scenarios = table?.kind === 'table' ? table.rows.map((row) => inlineText(row[0] ?? [])) : [];
    expect(scenarios.length).toBeGreaterThanOrEqual(8);
    for (const scenario of ['Same key, same body, first request', 'Same key, different body', 'Concurrent requests with same key', 'Key from different user', 'Server crash mid-processing, then retry', 'Saga step 2 fails, retry the saga']) {
      expect(scenarios).toContain(scenario);
    }
  });

  it('gives the build order its ten steps and the runbook its five procedures with real queries', () => {
    expect(sectionText(find(model, 'build-order')).match(/^\d+\. /gm)?.length).toBe(10);
    const runbook = find(model, 'runbook');
    expect(runbook.children.map((c) => c.id)).toEqual(['stuck-processing-records', 'split-brain-detection', 'partition-maintenance', 'provider-local-divergence', 'key-flooding-abuse-response']);
    for (const child of runbook.children) expect(child.blocks.some((b) => b.kind === 'code')).toBe(true);
    expect(sectionText(find(model, 'stuck-processing-records'))).toMatch(plan.stack.store === 'redis' ? /redis-cli/ : /status = 'PROCESSING'/);
  });

  it('writes the runbook, monitoring config and code as artifacts', () => {
    const paths = model.artifacts.map((a) => a.path);
    expect(paths).toContain('runbook.md');
    expect(paths).toContain('monitoring/idempotency-alerts.yml');
    expect(model.artifacts.every((a) => a.content.length > 0 && !a.path.startsWith('/') && !a.path.includes('..'))).toBe(true);
  });
});

describe('derived decisions', () => {
  it('derives provider keys by the runtime\'s own derivation: the document shows what the generated code sends', () => {
    const intent = { key: `refundPayment_${'x'.repeat(60)}_0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f11`, scope: 'usr-7fQ9x' };
    const namespace = paypalNamespace('refunds');
    expect(providerKey('stripe', intent, namespace)).toBe(stripeIdempotencyKey(intent));
    expect(providerKey('stripe', intent, namespace)).toBe(`${intent.scope}:${intent.key}`); // fits 255: sent as is
    const adyen = providerKey('adyen', intent, namespace);
    expect(adyen).toBe(adyenIdempotencyKey(intent));
    expect(adyen.length).toBeLessThanOrEqual(64);
    expect(providerKey('adyen', { key: 'short_key', scope: 'u1' }, namespace)).toBe('u1:short_key');
    expect(providerKey('paypal', intent, namespace)).toBe(paypalRequestId(intent, namespace));
    expect(providerKey('paypal', intent, namespace)).toBe(providerKey('paypal', intent, namespace));
    expect(adyenReference({ key: 'refund_abc', scope: 'usr-1' }, 2)).toBe('usr-1:refund_abc_2');
    expect(adyenReference(intent, 2).length).toBeLessThanOrEqual(80);
    expect(adyenReference(intent, 2)).toMatch(/_2$/);
  });

  it('never derives provider keys for webhooks, which receive events rather than send requests', () => {
    const plan = derivePlan(fixture('express-postgres-stripe'));
    const webhook = plan.actions.find((a) => a.action.kind === 'webhook');
    expect(webhook?.providerKeys).toEqual([]);
    expect(webhook?.recovery.summary).toMatch(/2xx only after COMPLETED/);
    expect(plan.actions.find((a) => a.action.name === 'createPayment')?.providerKeys[0]?.header).toBe('Idempotency-Key');
  });

  it('estimates collisions with the birthday bound', () => {
    // 2^61 ids of 122 bits: p ≈ 2^122 / 2^123 = 0.5 in the small-p approximation.
    expect(birthdayLog10(2 ** 61, 122)).toBeCloseTo(Math.log10(0.5), 3);
    expect(birthdayLog10(1_000_000, 122)).toBeLessThan(-20);
    expect(bitsNeeded(1_000_000)).toBe(Math.ceil(Math.log2(1e6) + Math.log2(1e6 - 1) - 1 + 9 * Math.log2(10)));
  });

  it('partitions above 100K keys a day the way the runtime does, and explains the range-partitioning trap', () => {
    const answers = answersSchema.parse({ ...FIXTURES['fastapi-postgres-paypal'], keysPerDay: 500_000 });
    const model = buildDesign(answers, { generatedAt: GENERATED_AT });
    const schema = sectionText(find(model, 'store-schema'));
    // One layout on both sides: the runtime's range partitions, with its per-key advisory lock.
    expect(schema).toContain('PARTITION BY RANGE (created_at)');
    expect(schema).toContain('pg_advisory_xact_lock');
    expect(schema).not.toContain('PARTITION BY HASH');
    expect(schema).toMatch(/forces .?created_at.? into the primary key.*same \(key, user\) from existing once per partition.*advisory lock/is);
    expect(sectionText(find(model, 'anti-patterns'))).toMatch(/Range partitioning on created_at/);
  });

  it('designs technology-agnostically on the PostgreSQL reference schema when the stack is unknown', () => {
    const model = buildDesign(fixture('agnostic'), { generatedAt: GENERATED_AT });
    expect(model.meta).toMatchObject({ agnostic: true, database: 'postgresql' });
    expect(model.subtitle).toMatch(/needs adapting/);
    expect(sectionText(find(model, 'inputs'))).toMatch(/technology-agnostic.*needs adapting/s);
    expect(model.artifacts.find((a) => a.path === 'db/idempotency_store.sql')?.content).toContain('CREATE TABLE "public"."idempotency_store"');
  });

  it('lists every assumption visibly, including durations it had to assume', () => {
    const model = buildDesign(fixture('agnostic'), { generatedAt: GENERATED_AT });
    const callout = find(model, 'inputs').blocks.find((b) => b.kind === 'callout' && b.tone === 'assumption');
    const text = callout ? blockText(callout) : '';
    expect(text).toContain('no action identified after asking twice');
    expect(text).toContain('retrySources: client retries assumed');
    expect(text).toMatch(/protectedAction: p99 duration assumed/);
    expect(text).toMatch(/Volume assumed/);
  });

  it('maps unsupported stacks to the closest supported language and says so', () => {
    const answers = answersSchema.parse({ ...FIXTURES['spring-postgres'], stack: { language: 'ruby', framework: 'rails', database: 'mysql', broker: 'none' } });
    const plan = derivePlan(answers);
    expect(plan.stack.language).toBe('python');
    expect(plan.stack.notes.join(' ')).toMatch(/Ruby has no generator of its own; the code is Python/);
  });
});
