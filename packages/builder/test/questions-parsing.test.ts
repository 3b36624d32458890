/**
 * The small readers behind the flow: action names from routes and handlers, free-text answers to
 * question 1, durations, retention that covers provider windows, and the scripted port's refusal
 * to invent an answer.
 */
import { describe, expect, it } from 'vitest';
import { actionSchema } from '../src/answers.js';
import { inferRetrySources, parseActionsText, recommendedRetention } from '../src/questions/defaults.js';
import { parseDuration } from '../src/questions/duration.js';
import { camelCase, consumerActionName, httpActionName, jobActionName, singular, uniqueNames, webhookActionName } from '../src/questions/naming.js';
import { createScriptedPrompts } from '../src/questions/scripted-prompts.js';

describe('action names', () => {
  it('derive verb + resource from routes, prefer meaningful handler names', () => {
    expect(httpActionName('POST', '/payments')).toBe('createPayment');
    expect(httpActionName('POST', '/api/v1/orders', 'create')).toBe('createOrder');
    expect(httpActionName('POST', '/payments/:id/refund')).toBe('refundPayment');
    expect(httpActionName('POST', '/payments/{pspReference}/refunds', 'refund')).toBe('refundPayment');
    expect(httpActionName('PATCH', '/orders/:id')).toBe('updateOrder');
    expect(httpActionName('POST', '/orders', 'create_order')).toBe('createOrder');
    expect(httpActionName('POST', '/x', 'submitCheckout')).toBe('submitCheckout');
    expect(webhookActionName('/hooks/stripe')).toBe('processStripeWebhook');
    expect(webhookActionName('/events')).toBe('processWebhook');
    expect(consumerActionName('order.paid')).toBe('handleOrderPaid');
    expect(consumerActionName('https://sqs.eu-west-1.amazonaws.com/1/payouts')).toBe('handlePayouts');
    expect(jobActionName('src/jobs/settlement.job.ts:4')).toBe('runSettlement');
    expect(jobActionName('x.ts:1', 'reconcileSettlements')).toBe('reconcileSettlements');
    expect(uniqueNames(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a2', 'a3']);
    expect(singular('deliveries')).toBe('delivery');
    expect(singular('addresses')).toBe('address');
    expect(camelCase('3d secure check')).toBe('dSecureCheck');
  });

  it('every derived name is valid for the answers schema', () => {
    const names = [httpActionName('DELETE', '/'), httpActionName('POST', '/:id'), consumerActionName('123'), jobActionName('9.ts:1'), camelCase('---')];
    for (const name of names) expect(actionSchema.shape.name.safeParse(name).success, name).toBe(true);
  });
});

describe('free-text answers to question 1', () => {
  it('reads several actions with their kind, provider and assumed fields', () => {
    const actions = parseActionsText('create payment via Stripe, process Adyen webhook; nightly settlement and consume order events');
    expect(actions.map((a) => [a.name, a.kind, a.provider ?? null])).toEqual([
      ['createPayment', 'http', 'stripe'],
      ['processAdyenWebhook', 'webhook', 'adyen'],
      ['nightlySettlement', 'cron', null],
      ['consumeOrderEvents', 'consumer', null],
    ]);
    expect(actions[0]?.significantFields).toEqual(['amount', 'currency', 'recipientId']);
    for (const action of actions) expect(actionSchema.safeParse(action).success).toBe(true);
  });

  it('"don\'t know" and empty answers name no action', () => {
    expect(parseActionsText('')).toEqual([]);
    expect(parseActionsText("  I don't know ")).toEqual([]);
    expect(parseActionsText('?')).toEqual([]);
  });
});

describe('durations and assumed values', () => {
  it('parses durations as written', () => {
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('31 days')).toBe(31 * 86_400_000);
    expect(parseDuration('1.5s')).toBe(1500);
    expect(parseDuration('250')).toBe(250);
    expect(parseDuration('0s')).toBeUndefined();
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('5 fortnights')).toBeUndefined();
  });

  it('retention covers the longest provider window, never below a day', () => {
    expect(recommendedRetention([]).ms).toBe(86_400_000);
    expect(recommendedRetention(['stripe']).ms).toBe(86_400_000);
    expect(recommendedRetention(['stripe', 'adyen']).ms).toBe(31 * 86_400_000);
    expect(recommendedRetention(['paypal']).ms).toBeGreaterThanOrEqual(recommendedRetention(['stripe']).ms);
  });

  it('retry sources follow the kinds of actions', () => {
    expect(inferRetrySources([{ kind: 'http' }, { kind: 'consumer' }, { kind: 'http' }])).toEqual(['client-retry', 'double-click', 'queue-redelivery']);
    expect(inferRetrySources([])).toEqual(['client-retry']);
  });
});

describe('scripted prompt port', () => {
  it('refuses to answer a question the script does not cover, and validates text answers', async () => {
    const prompts = createScriptedPrompts({ 'retention.custom': 'later' });
    await expect(prompts.select({ id: 'format', message: 'Format?', options: [] })).rejects.toThrow(/no answer for question "format"/);
    await expect(prompts.text({ id: 'retention.custom', message: 'Retention', validate: (v) => (parseDuration(v) ? undefined : 'not a duration') })).rejects.toThrow(/invalid: not a duration/);
    expect(prompts.asked).toEqual(['format', 'retention.custom']);
  });
});
