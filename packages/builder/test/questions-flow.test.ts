/**
 * The question flow driven through the scripted prompt port: format first, inspection before any
 * other question, only what the code and the answers file left open, questions 1–2 asked at most
 * twice before an agnostic design, and questions 3–7 answered by stated assumptions when unsure.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';
import { collectAnswers, createScriptedPrompts, type ScriptedPrompts } from '../src/questions/index.js';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);

/** Runs the flow and records how many questions had been asked when the inspection started. */
async function run(name: string, prompts: ScriptedPrompts | undefined, extra: Parameters<typeof collectAnswers>[0] extends infer O ? Partial<O> : never = {}) {
  let askedBeforeInspection = -1;
  const logged: string[] = [];
  const collected = await collectAnswers({
    inspect: () => {
      askedBeforeInspection = prompts ? prompts.asked.length : 0;
      return inspectCodebase(fixture(name));
    },
    ...(prompts ? { prompts } : {}),
    log: (text) => logged.push(text),
    ...extra,
  });
  return { ...collected, askedBeforeInspection, logged };
}

const noRepeats = (asked: readonly string[]) => expect(new Set(asked).size).toBe(asked.length);

describe('question flow', () => {
  it('asks the format first, inspects before anything else, and skips what the code answered', async () => {
    const prompts = createScriptedPrompts({
      format: 'md', 'actions.duration.all': 'default', 'stack.broker': 'none', retrySources: ['client-retry', 'double-click', 'load-balancer-replay'],
      concurrency: 'multi-instance', retention: 'default', detectionLatency: '50',
    });
    const { answers, askedBeforeInspection } = await run('express-postgres-stripe', prompts);
    expect(prompts.asked[0]).toBe('format');
    expect(askedBeforeInspection).toBe(1);
    // Actions, language, framework, database and payment providers come from the code; the
    // actions' durations do not (five actions: one question for all of them).
    expect(prompts.asked).toEqual(['format', 'actions.duration.all', 'stack.broker', 'retrySources', 'concurrency', 'retention', 'detectionLatency']);
    expect(prompts.notes[0]).toContain('POST /payments');
    expect(prompts.notes[0]).toContain('src/routes/payments.ts:7');
    expect(prompts.notes[0]).toMatch(/stripe\.paymentIntents\.create\s+stripe, NO idempotency key passed\s+src\/routes\/payments\.ts:9/);
    expect(prompts.messages[prompts.asked.indexOf('retrySources')]).toMatch(/Pre-selected from the code: Client retries.*Webhook resends.*Overlapping cron/);
    expect(prompts.messages[prompts.asked.indexOf('retention')]).toMatch(/Recommended: 24 h, at least Stripe's deduplication window/);
    expect(answers).toMatchObject({
      format: 'md',
      projectName: 'shop-payments',
      stack: { language: 'typescript', framework: 'express', database: 'postgresql', broker: 'none', testFramework: 'vitest' },
      paymentProviders: ['stripe'],
      retentionMs: 86_400_000,
      detectionLatencyMs: 50,
      agnostic: false,
    });
    expect(answers.actions.map((a) => a.name)).toEqual(['createPayment', 'refundPayment', 'processStripeWebhook', 'createOrder', 'runReconcile']);
    expect(answers.actions[0]).toMatchObject({ provider: 'stripe', significantFields: ['amount', 'currency', 'customerId'], location: 'src/routes/payments.ts:7' });
    expect(answers.provenance).toMatchObject({
      format: { source: 'user' },
      'stack.database': { source: 'code', detail: 'src/db.ts:3' },
      paymentProviders: { source: 'code', detail: 'package.json:13' },
      retrySources: { source: 'user' },
      detectionLatencyMs: { source: 'user' },
    });
  });

  it('asks nothing the answers file answered, and --format answers the format question', async () => {
    // Only the actions' durations are asked: neither the code nor this file states them.
    const prompts = createScriptedPrompts({ 'actions.duration.createOrder': '?', 'actions.duration.updateOrder': '?', 'actions.duration.handleOrderPaid': '?' });
    const { answers } = await run('fastify-redis-rabbitmq', prompts, {
      format: 'html',
      fileName: 'answers.yaml',
      file: { retrySources: ['queue-redelivery'], paymentProviders: [], concurrency: 'single-server', retentionMs: 3_600_000, detectionLatencyMs: 20, keysPerDay: 500_000 },
    });
    expect(prompts.asked.filter((id) => !id.startsWith('actions.duration.'))).toEqual([]);
    expect(answers).toMatchObject({ format: 'html', concurrency: 'single-server', retentionMs: 3_600_000, keysPerDay: 500_000, stack: { database: 'redis', broker: 'rabbitmq' } });
    expect(answers.provenance.concurrency).toEqual({ source: 'file', detail: 'answers.yaml' });
    expect(answers.provenance.format).toEqual({ source: 'user', detail: '--format' });
    expect(answers.actions.find((a) => a.kind === 'consumer')).toMatchObject({ name: 'handleOrderPaid', channel: 'order.paid', keySource: 'derived' });
  });

  it('questions 1 and 2 are asked twice at most, with examples, then the design goes agnostic', async () => {
    const prompts = createScriptedPrompts({
      format: 'default', actions: '', 'actions.again': "I don't know",
      'stack.language': '?', 'stack.language.again': '?', 'stack.database': '?', 'stack.database.again': '?',
      'stack.broker': 'none', retrySources: [], paymentProviders: [], concurrency: '?', retention: '?', detectionLatency: '?',
    });
    const { answers } = await run('empty', prompts);
    expect(prompts.asked).toEqual([
      'format', 'actions', 'actions.again', 'stack.language', 'stack.language.again', 'stack.database', 'stack.database.again',
      'stack.broker', 'retrySources', 'paymentProviders', 'concurrency', 'retention', 'detectionLatency',
    ]);
    noRepeats(prompts.asked);
    for (const id of ['actions.again', 'stack.language.again', 'stack.database.again'] as const) {
      expect(prompts.messages[prompts.asked.indexOf(id)]).toMatch(/once more, with examples.*e\.g\./);
    }
    expect(answers.agnostic).toBe(true);
    expect(answers.stack.database).toBe('postgresql');
    expect(answers.actions).toEqual([expect.objectContaining({ name: 'protectedAction', significantFields: ['amount', 'currency', 'recipientId'] })]);
    expect(answers.provenance.agnostic?.detail).toMatch(/question 1.*question 2.*PostgreSQL reference schema.*needs adapting/);
    // Unsure answers to 3–7 become stated assumptions, never a second ask.
    expect(answers.provenance.concurrency).toMatchObject({ source: 'assumption' });
    expect(answers.provenance.retentionMs).toMatchObject({ source: 'assumption' });
    expect(answers.provenance.detectionLatencyMs).toMatchObject({ source: 'assumption', detail: expect.stringMatching(/100 ms/) });
    expect(answers.concurrency).toBe('multi-instance');
  });

  it('a second answer to questions 1 and 2 is used, and the design is not agnostic', async () => {
    const prompts = createScriptedPrompts({
      format: 'html', actions: '', 'actions.again': 'create payment via Stripe, process Stripe webhook',
      'actions.duration.createPayment': '10000', 'actions.duration.processStripeWebhook': '?',
      'stack.language': 'python', 'stack.framework': 'fastapi', 'stack.database': '?', 'stack.database.again': 'mysql',
      'stack.broker': 'none', retrySources: ['client-retry'], paymentProviders: [], concurrency: 'single-server',
      retention: 'custom', 'retention.custom': '36h', detectionLatency: '10',
    });
    const { answers } = await run('empty', prompts);
    noRepeats(prompts.asked);
    expect(prompts.asked).not.toContain('stack.language.again');
    expect(answers).toMatchObject({ agnostic: false, stack: { language: 'python', framework: 'fastapi', database: 'mysql' }, retentionMs: 36 * 3_600_000 });
    expect(answers.actions).toMatchObject([
      { name: 'createPayment', kind: 'http', provider: 'stripe', significantFields: ['amount', 'currency', 'recipientId'] },
      { name: 'processStripeWebhook', kind: 'webhook', provider: 'stripe', keySource: 'derived' },
    ]);
    // The providers named with the actions are payments too, even though Q4 got "none".
    expect(answers.paymentProviders).toEqual(['stripe']);
    expect(answers.provenance.actions).toEqual({ source: 'user' });
  });

  it('without a prompt port nothing is asked: findings are logged and assumptions stated', async () => {
    const { answers, logged } = await run('empty', undefined);
    expect(logged[0]).toMatch(/No mutating endpoint, consumer, webhook or scheduled job was found/);
    expect(answers.agnostic).toBe(true);
    expect(answers.format).toBe('html');
    expect(Object.values(answers.provenance).every((p) => p.source === 'assumption')).toBe(true);

    const stripe = await run('nestjs-mysql-adyen', undefined);
    expect(stripe.answers).toMatchObject({ agnostic: false, stack: { framework: 'nestjs', database: 'mysql', broker: 'none' }, paymentProviders: ['adyen'] });
    // Adyen keeps keys for 31 days: the assumed retention covers it.
    expect(stripe.answers.retentionMs).toBe(31 * 86_400_000);
    expect(stripe.answers.provenance.retentionMs?.detail).toMatch(/Adyen's deduplication window \(31 days\)/);
  });

  it('completes partial actions from the answers file with what the code found', async () => {
    const { answers } = await run('express-postgres-stripe', undefined, {
      file: { actions: [{ name: 'createPayment' }, { name: 'sendReceipt', kind: 'job' }] },
      fileName: 'a.yaml',
    });
    expect(answers.actions).toEqual([
      expect.objectContaining({ name: 'createPayment', provider: 'stripe', route: '/payments', significantFields: ['amount', 'currency', 'customerId'] }),
      expect.objectContaining({ name: 'sendReceipt', kind: 'job', keySource: 'derived', significantFields: ['payload'] }),
    ]);
    expect(answers.provenance['actions.sendReceipt.significantFields']).toMatchObject({ source: 'assumption' });
    expect(answers.provenance.actions).toEqual({ source: 'file', detail: 'a.yaml' });
  });
});
