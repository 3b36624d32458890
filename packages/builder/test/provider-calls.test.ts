// Money-moving provider calls end to end: found in TS/JS (SDKs, REST over fetch/axios, keys through
// variables), each fix built from the real line, and the design document showing every call with its fix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as payments from '@idempotency-builder/runtime/payments';
import { buildDesign } from '../src/design/build-design.js';
import { callFix, unifiedDiff } from '../src/design/plan/provider-call-fixes.js';
import { inspectCodebase } from '../src/inspect/inspect-codebase.js';
import { scanTypeScript } from '../src/inspect/ts/scan-typescript.js';
import { collectAnswers } from '../src/questions/index.js';
import { renderMarkdown } from '../src/render/markdown.js';
import { CORPUS_DIR } from '../scripts/eval.js';

const calls = (path: string, text: string) => scanTypeScript(path, text, {}).findings.paymentCalls;

describe('provider calls in TS/JS', () => {
  it('Braintree: a sale without apiRequestKey gets the derived key as orderId; a refund is reported without an edit', () => {
    const found = calls('routes/pay.js', [
      "import { gateway } from '../lib/gateway.js';",
      'export async function pay(amount, nonce, id) {',
      '  await gateway.transaction.sale({ amount, paymentMethodNonce: nonce });',
      '  await gateway.transaction.refund(id, amount);',
      "  await gateway.transaction.sale({ amount, orderId: id, apiRequestKey: `${userId}-${amount}` });",
      '}',
    ].join('\n'));
    expect(found.map((c) => [c.provider, c.call, c.location, c.passesIdempotencyKey, c.keyVerdict?.verdict])).toEqual([
      ['braintree', 'gateway.transaction.sale', 'routes/pay.js:3', false, undefined],
      ['braintree', 'gateway.transaction.refund', 'routes/pay.js:4', false, undefined],
      ['braintree', 'gateway.transaction.sale', 'routes/pay.js:5', true, 'unsound'],
    ]);
    expect(found[0]?.fix).toEqual({ location: 'routes/pay.js:3', line: '  await gateway.transaction.sale({ amount, paymentMethodNonce: nonce });', column: 34, length: 0, text: ' orderId: {{KEY}},' });
    expect(found[1]?.fix).toBeUndefined();
  });

  it('PayPal REST over fetch: the PayPal-Request-Id header found through a headers variable and an options variable; the token call is no payment', () => {
    const found = calls('paypal.ts', [
      "import { randomUUID } from 'node:crypto';",
      "const base = 'https://api-m.sandbox.paypal.com';",
      'export async function capture(orderID: string, token: string) {',
      "  const headers = { Authorization: `Bearer ${token}`, 'PayPal-Request-Id': randomUUID() };",
      "  await fetch(`${base}/v1/oauth2/token`, { method: 'POST', headers });",
      "  return fetch(`${base}/v2/checkout/orders/${orderID}/capture`, { method: 'POST', headers });",
      '}',
      'export async function refund(captureId: string, orderId: string, amount: string) {',
      "  const init = { method: 'POST', headers: { 'paypal-request-id': `refund-${orderId}-${amount}` } };",
      '  return fetch(base + `/v2/payments/captures/${captureId}/refund`, init);',
      '}',
    ].join('\n'));
    expect(found.map((c) => [c.call, c.location, c.keyExpression, c.keyLocation, c.keyVerdict?.verdict, c.fix?.location])).toEqual([
      ['fetch POST /v2/checkout/orders/:id/capture', 'paypal.ts:6', 'randomUUID()', 'paypal.ts:4', 'unsound', 'paypal.ts:4'],
      ['fetch POST /v2/payments/captures/:id/refund', 'paypal.ts:10', '`refund-${orderId}-${amount}`', 'paypal.ts:9', 'unsound', 'paypal.ts:9'],
    ]);
    expect(found[1]?.keyIssue).toMatch(/two equal partial refunds of one order/);
  });

  it('Stripe REST and axios: a missing header is added to the headers object; a GET is no payment', () => {
    const found = calls('stripe.ts', [
      "import axios from 'axios';",
      'export const refund = (id: string) => axios.post(`https://api.stripe.com/v1/refunds`, { charge: id }, { headers: { Authorization: KEY } });',
      "export const read = (id: string) => fetch(`https://api.stripe.com/v1/refunds/${id}`, { method: 'GET' });",
    ].join('\n'));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ provider: 'stripe', call: 'axios POST /v1/refunds', passesIdempotencyKey: false, fix: { location: 'stripe.ts:2', text: " 'Idempotency-Key': {{KEY}}," } });
  });

  it('PayPal checkout-server-sdk: a request id set through the request’s payPalRequestId setter is found and judged', () => {
    const found = calls('paypal-legacy.js', [
      "import paypal from '@paypal/checkout-server-sdk';",
      'export async function capture(orderID, captureRow) {',
      '  const request = new paypal.orders.OrdersCaptureRequest(orderID);',
      '  request.payPalRequestId(`capture-${captureRow.id}`);',
      '  return client.execute(request);',
      '}',
      'export async function refund(captureId) {',
      '  const request = new paypal.payments.CapturesRefundRequest(captureId);',
      '  return client.execute(request);',
      '}',
    ].join('\n'));
    expect(found.map((c) => [c.call, c.passesIdempotencyKey, c.keyExpression, c.keyVerdict?.verdict])).toEqual([
      ['new paypal.orders.OrdersCaptureRequest', true, '`capture-${captureRow.id}`', 'sound'],
      ['new paypal.payments.CapturesRefundRequest', false, undefined, undefined],
    ]);
  });

  it('Adyen modifications with request options: a missing key becomes a new options argument', () => {
    const found = calls('adyen.ts', [
      "import { CheckoutAPI } from '@adyen/api-library';",
      'export const cancel = (api: CheckoutAPI, psp: string) => api.ModificationsApi.cancelAuthorisedPaymentByPspReference(psp, { merchantAccount: "M" });',
      'export const refundOrCancel = (api: CheckoutAPI, psp: string, key: string) => api.ModificationsApi.refundOrCancelPayment(psp, { merchantAccount: "M" }, { idempotencyKey: key });',
    ].join('\n'));
    expect(found.map((c) => [c.call, c.passesIdempotencyKey, c.keyVerdict?.verdict])).toEqual([
      ['api.ModificationsApi.cancelAuthorisedPaymentByPspReference', false, undefined],
      ['api.ModificationsApi.refundOrCancelPayment', true, 'unknown'],
    ]);
    expect(found[0]?.fix?.text).toBe(', { idempotencyKey: {{KEY}} }');
  });
});

describe('the fix for a call without a sound key', () => {
  const site = { location: 'src/pay.ts:8', line: '  const options = { idempotencyKey: `${currency}-${amount}` };', column: 36, length: '`${currency}-${amount}`'.length, text: '{{KEY}}' };
  const call = { provider: 'stripe' as const, call: 'stripe.paymentIntents.create', operation: 'charge' as const, location: 'src/pay.ts:9', passesIdempotencyKey: true, fix: site };

  it('is a unified diff of the real line, with the runtime’s own derivation in TS and the generated module’s in Python and Java', () => {
    expect(unifiedDiff(site, 'K')).toBe('--- a/src/pay.ts\n+++ b/src/pay.ts\n@@ -8 +8 @@\n-  const options = { idempotencyKey: `${currency}-${amount}` };\n+  const options = { idempotencyKey: K };');
    const ts = callFix(call, { stackLanguage: 'typescript', tsProviderKeys: false, standaloneKeys: false });
    expect(ts.expression).toBe("stripeIdempotencyKey({ key: idempotencyKey, scope, step: 'charge' })");
    expect(ts.imports).toBe("import { stripeIdempotencyKey } from '@idempotency-builder/runtime/payments';");
    const py = callFix({ ...call, location: 'app/pay.py:9', fix: { ...site, location: 'app/pay.py:8', line: '    key = f"{currency}-{amount}"', column: 10, length: 20 } }, { stackLanguage: 'python', tsProviderKeys: false, standaloneKeys: true });
    expect(py.diff).toContain('+    key = stripe_idempotency_key(idempotency_key, scope, "charge")');
    expect(py.imports).toBe('from idempotency.provider_keys import stripe_idempotency_key');
    const java = callFix({ ...call, provider: 'braintree', location: 'src/Pay.java:9', fix: undefined }, { stackLanguage: 'java', tsProviderKeys: false, standaloneKeys: true });
    expect(java.expression).toBe('ProviderKeys.braintreeOrderId(idempotencyKey, scope, "charge")');
    // Braintree in TS: the generated provider-keys.ts when it exists, else the same derivation from the runtime's parts.
    const braintree = { ...call, provider: 'braintree' as const, fix: undefined };
    expect(callFix(braintree, { stackLanguage: 'typescript', tsProviderKeys: true, standaloneKeys: false })).toMatchObject({ expression: "braintreeOrderId({ key: idempotencyKey, scope, step: 'charge' })", imports: "import { braintreeOrderId } from './idempotency/provider-keys.js';" });
    expect(callFix(braintree, { stackLanguage: 'typescript', tsProviderKeys: false, standaloneKeys: false }).expression).toBe("fitProviderKey(intentMaterial({ key: idempotencyKey, scope, step: 'charge' }), 255)");
  });

  it('uses only functions the runtime exports and the generated modules define', () => {
    for (const name of ['stripeIdempotencyKey', 'adyenIdempotencyKey', 'paypalRequestId', 'fitProviderKey', 'intentMaterial']) {
      expect(typeof (payments as Record<string, unknown>)[name]).toBe('function');
    }
    const templates = join(import.meta.dirname, '..', 'templates');
    const python = readFileSync(join(templates, 'python', 'provider_keys.py'), 'utf8');
    for (const name of ['stripe_idempotency_key', 'adyen_idempotency_key', 'paypal_request_id', 'braintree_order_id', 'fit_provider_key', 'intent_material']) expect(python).toContain(`def ${name}(`);
    const java = readFileSync(join(templates, 'java', 'ProviderKeys.java'), 'utf8');
    for (const name of ['stripeIdempotencyKey', 'adyenIdempotencyKey', 'paypalRequestId', 'braintreeOrderId', 'fitProviderKey', 'intentMaterial']) expect(java).toContain(`public static String ${name}(`);
  });

  it('does not reuse the local key’s name when the fixed line declares it', () => {
    const own = { ...site, line: '  const idempotencyKey = randomUUID();', column: 25, length: 12 };
    const fix = callFix({ ...call, fix: own }, { stackLanguage: 'typescript', tsProviderKeys: false, standaloneKeys: false });
    expect(fix.diff).toContain("+  const idempotencyKey = stripeIdempotencyKey({ key: localKey, scope, step: 'charge' });");
    // A Python keyword argument of that name is no declaration: the local key keeps its name.
    const kwarg = { ...site, location: 'app/refunds.py:10', line: '        body, psp, idempotency_key=f"{order_id}-{amount}"', column: 35, length: 20 };
    const py = callFix({ ...call, provider: 'adyen', operation: 'refund', location: 'app/refunds.py:9', fix: kwarg }, { stackLanguage: 'python', tsProviderKeys: false, standaloneKeys: true });
    expect(py.diff).toContain('+        body, psp, idempotency_key=adyen_idempotency_key(idempotency_key, scope, "refund")');
  });
});

describe('the design document', () => {
  it('lists every provider call with its verdict, and shows each fix as a diff of the real line at the right file:line', async () => {
    const dir = join(CORPUS_DIR, 'express-payments-rest');
    const { answers } = await collectAnswers({ inspect: () => inspectCodebase(dir), log: () => undefined });
    const md = renderMarkdown(buildDesign(answers, { generatedAt: new Date('2026-01-01T00:00:00Z') }));
    const part = md.slice(md.indexOf('### 6.1 Provider calls in the code'), md.indexOf('## 7.'));
    for (const call of answers.providerCalls) expect(part).toContain(`| ${call.location} |`);
    expect(answers.providerCalls).toHaveLength(13);
    // The Adyen refund keyed by order + amount through an options variable: fixed at the variable's line.
    const fileLine = readFileSync(join(dir, 'src/routes/adyen.js'), 'utf8').split('\n')[24];
    expect(fileLine).toContain('refund-${orderId}-${amount.value}');
    expect(part).toContain('*src/routes/adyen.js:25 — fix*');
    expect(part).toContain(`@@ -25 +25 @@\n-${fileLine}\n+  const requestOptions = { idempotencyKey: adyenIdempotencyKey({ key: idempotencyKey, scope, step: 'refund' }) };`);
    // A Braintree sale without a key: the derived key goes in as orderId (the generated provider-keys.ts derives it), and the note says what protects it.
    expect(part).toContain("+    orderId: braintreeOrderId({ key: idempotencyKey, scope, step: 'charge' }),");
    expect(part).toContain("Add `import { braintreeOrderId } from './idempotency/provider-keys.js';`");
    expect(part).toMatch(/ApiRequestKeyNotAllowed/);
    expect(part).toMatch(/\| src\/routes\/adyen\.js:13 \| Adyen \| `checkout\.PaymentsApi\.payments` \| charge \| .*\*\*sound\*\*/);
  }, 60_000);
});
