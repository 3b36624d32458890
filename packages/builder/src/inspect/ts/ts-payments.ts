/**
 * Money-moving provider calls in TS/JS: the Stripe, Adyen (payments and modifications), PayPal
 * (server SDK and the legacy request classes) and Braintree SDKs, and the PayPal, Stripe and Adyen
 * REST APIs over fetch/axios. Each finding carries the key passed (option objects and headers
 * followed through same-file variables), its verdict, and where the fix goes.
 */
import ts from 'typescript';
import { addEntry, appendArgument, fixSiteAt, KEY_PLACEHOLDER } from '../fix-site.js';
import { judgeKey, operationOf } from '../provider-keys.js';
import type { CallProvider, FixSite, PaymentCallFinding } from '../types.js';
import { chainText, literalText, nodeLocation, propertyValue, type ParsedSource } from './ts-source.js';
import { assignedHeader, objectArgument, propertyIn, urlText, valueOf } from './ts-values.js';

const STRIPE_CALL = /(paymentIntents|charges|refunds|payouts|transfers|checkout\.sessions|subscriptions|invoices|setupIntents|customers|paymentLinks|topups)\.(create|confirm|capture|cancel|pay|update)$/;
const ADYEN_CALL = /\.(payments|sessions|paymentsDetails|donations|refundCapturedPayment|captureAuthorisedPayment|cancelAuthorisedPaymentByPspReference|cancelAuthorisedPayment|refundOrCancelPayment|updateAuthorisedAmount|reversalAuthorisedPayment|payouts)$/;
const PAYPAL_CALL = /\.(createOrder|captureOrder|authorizeOrder|captureAuthorizedPayment|refundCapturedPayment|createPayout)$/;
const PAYPAL_REQUEST = /(OrdersCreateRequest|OrdersCaptureRequest|OrdersAuthorizeRequest|CapturesRefundRequest|AuthorizationsCaptureRequest)$/;
// Braintree's transaction gateway; `apiRequestKey` is its At-Most-Once key (SDKs since node 3.37 / python 4.43 / ruby 4.36).
const BRAINTREE_CALL = /(^|\.)transaction\.(sale|refund|submitForSettlement|submitForPartialSettlement|credit)$/;

/** The option (SDK) or header (REST) that carries each provider's key. */
const KEY_OPTION: Record<CallProvider, readonly string[]> = {
  stripe: ['idempotencyKey', 'Idempotency-Key'],
  adyen: ['idempotencyKey', 'Idempotency-Key'],
  paypal: ['paypalRequestId', 'PayPal-Request-Id'],
  braintree: ['apiRequestKey'],
  'bank-transfer': [],
};

function importsAny(src: ParsedSource, pattern: RegExp): boolean {
  return [...src.modules].some((m) => pattern.test(m));
}

function sdkProvider(src: ParsedSource, chain: string): CallProvider | undefined {
  const lower = chain.toLowerCase();
  if (STRIPE_CALL.test(chain) && (importsAny(src, /^stripe$/) || lower.includes('stripe'))) return 'stripe';
  if (ADYEN_CALL.test(chain) && (importsAny(src, /^@adyen\//) || lower.includes('adyen'))) return 'adyen';
  if (PAYPAL_CALL.test(chain) && (importsAny(src, /paypal/) || lower.includes('paypal') || /ordersController|paymentsController/.test(chain))) return 'paypal';
  // The gateway is usually built in another module (`const gateway = require('../lib/gateway')`).
  if (BRAINTREE_CALL.test(chain) && (importsAny(src, /braintree/) || lower.includes('braintree') || /(^|\.)\w*gateway\.transaction\./i.test(chain) || /braintree/i.test(src.sf.text))) return 'braintree';
  return undefined;
}

/** The key's verdict and location, following a variable to the value it was given. */
function judged(src: ParsedSource, keyNode: ts.Expression, operation: ReturnType<typeof operationOf>): Pick<PaymentCallFinding, 'keyExpression' | 'keyIssue' | 'keyVerdict' | 'keyLocation'> & { value: ts.Expression } {
  const value = valueOf(src, keyNode);
  const written = keyNode.getText(src.sf);
  // A parameter or import keeps its name: judged by what it is called (`idempotencyKey`), else unknown.
  const verdict = judgeKey(value.getText(src.sf), operation);
  return {
    keyExpression: written.length > 160 ? `${written.slice(0, 157)}...` : written,
    ...(verdict.verdict === 'unsound' ? { keyIssue: verdict.reason } : {}),
    keyVerdict: verdict,
    keyLocation: nodeLocation(src, value),
    value,
  };
}

/** A fix that replaces an unsound key's value where it is written. */
function replaceKey(src: ParsedSource, value: ts.Expression): FixSite | undefined {
  const start = value.getStart(src.sf);
  return fixSiteAt(src.relPath, src.sf.text, start, value.getEnd() - start, KEY_PLACEHOLDER);
}

function closeParen(src: ParsedSource, call: ts.CallExpression): number | undefined {
  const end = call.getEnd() - 1;
  return src.sf.text[end] === ')' ? end : undefined;
}

/** Where a missing key goes for an SDK call: a new options argument, or an entry in the object the SDK reads it from. */
function missingKeyFix(src: ParsedSource, provider: CallProvider, call: ts.CallExpression, chain: string): FixSite | undefined {
  const args = call.arguments;
  if (provider === 'paypal' || provider === 'braintree') {
    // PayPal's server SDK reads `paypalRequestId` from its one request object; a Braintree sale gets the
    // derived key as `orderId` (searchable, and part of Braintree's duplicate check), unless it has one.
    if (provider === 'braintree' && !/\.sale$/.test(chain)) return undefined;
    const object = objectArgument(src, args[0]);
    if (!object || (provider === 'braintree' && propertyValue(object, 'orderId'))) return undefined;
    return addEntry(src.relPath, src.sf.text, object.getStart(src.sf), `${provider === 'paypal' ? 'paypalRequestId' : 'orderId'}: ${KEY_PLACEHOLDER}`);
  }
  // stripe-node takes a trailing object with an option key as request options; Adyen's request options come last.
  const options = args.length > 1 ? objectArgument(src, args[args.length - 1]) : undefined;
  const isOptions = options && (provider === 'adyen' ? args.length >= (/\.(payments|sessions|paymentsDetails|donations|payouts)$/.test(chain) ? 2 : 3)
    : options.properties.some((p) => p.name && ts.isIdentifier(p.name) && /^(stripeAccount|apiVersion|timeout|maxNetworkRetries|host)$/.test(p.name.text)));
  if (options && isOptions) return addEntry(src.relPath, src.sf.text, options.getStart(src.sf), `idempotencyKey: ${KEY_PLACEHOLDER}`);
  const close = closeParen(src, call);
  return close === undefined ? undefined : appendArgument(src.relPath, src.sf.text, close, `{ idempotencyKey: ${KEY_PLACEHOLDER} }`);
}

/** The argument of a `payPalRequestId(…)` call in the function that builds a legacy PayPal request. */
function requestIdSetter(node: ts.Node): ts.Expression | undefined {
  let scope: ts.Node = node;
  while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  let found: ts.Expression | undefined;
  const visit = (current: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression) && current.expression.name.text === 'payPalRequestId') found = current.arguments[0];
    ts.forEachChild(current, visit);
  };
  visit(scope);
  return found;
}

/** An SDK call (or a legacy PayPal request class), with its key judged. */
function sdkCall(src: ParsedSource, node: ts.CallExpression | ts.NewExpression): PaymentCallFinding | undefined {
  const chain = chainText(node.expression);
  if (ts.isNewExpression(node)) {
    if (!PAYPAL_REQUEST.test(chain) || !importsAny(src, /paypal/)) return undefined;
    // The legacy SDK sets the header on the request object: `request.headers['PayPal-Request-Id'] = ...`
    // or through its setter, `request.payPalRequestId(...)` (capture, authorize and refund requests).
    const key = assignedHeader(src, node, 'PayPal-Request-Id') ?? requestIdSetter(node);
    const passes = key !== undefined || src.sf.text.includes('PayPal-Request-Id');
    if (key) return finding(src, 'paypal', `new ${chain}`, node, key, () => undefined);
    return { provider: 'paypal', call: `new ${chain}`, location: nodeLocation(src, node), passesIdempotencyKey: passes };
  }
  const provider = sdkProvider(src, chain);
  if (!provider) return undefined;
  const names = KEY_OPTION[provider];
  const key = node.arguments.map((arg) => propertyIn(src, objectArgument(src, arg), names)).find(Boolean);
  return finding(src, provider, chain, node, key, () => missingKeyFix(src, provider, node, chain));
}

function finding(src: ParsedSource, provider: CallProvider, call: string, node: ts.Node, key: ts.Expression | undefined, missingFix: () => FixSite | undefined): PaymentCallFinding {
  const base = { provider, call, location: nodeLocation(src, node) };
  if (!key) {
    const fix = missingFix();
    return { ...base, passesIdempotencyKey: false, ...(fix ? { fix } : {}) };
  }
  const { value, ...keyed } = judged(src, key, operationOf(call));
  const fix = keyed.keyVerdict?.verdict !== 'sound' ? replaceKey(src, value) : undefined;
  return { ...base, passesIdempotencyKey: true, ...keyed, ...(fix ? { fix } : {}) };
}

interface RestTarget {
  readonly provider: CallProvider;
  /** The REST path with parameters as `:id`, e.g. `/v2/checkout/orders/:id/capture`. */
  readonly path: string;
}

/** Which provider's money-moving endpoint a URL names, if any. */
function restTarget(src: ParsedSource, url: string): RestTarget | undefined {
  const tidy = (path: string): string => path.replace(/\$\{[^}]*\}|\{[^}]*\}|['"`]\s*\+\s*\w+(\.\w+)*\s*\+\s*['"`]/g, ':id');
  const paypal = /\/v2\/checkout\/orders(?:\/[^\s'"`]*?\/(?:capture|authorize))?(?=['"`?]|$)|\/v2\/payments\/(?:authorizations\/[^\s'"`]*?\/capture|captures\/[^\s'"`]*?\/refund)|\/v1\/payments\/payouts/.exec(url);
  if (paypal) return { provider: 'paypal', path: tidy(paypal[0]) };
  const stripe = /\/v1\/(?:payment_intents|charges|refunds|payouts|transfers|checkout\/sessions)(?:\/[^\s'"`]*?\/(?:confirm|capture|cancel))?(?=['"`?]|$)/.exec(url);
  if (stripe && (/stripe/i.test(url) || importsAny(src, /^stripe$/) || /api\.stripe\.com/.test(src.sf.text))) return { provider: 'stripe', path: tidy(stripe[0]) };
  const adyen = /\/v\d+\/(?:payments(?:\/[^\s'"`]*?\/(?:captures|refunds|cancels|reversals|amountUpdates))?|sessions)(?=['"`?]|$)/.exec(url);
  if (adyen && /adyen/i.test(src.sf.text)) return { provider: 'adyen', path: tidy(adyen[0]) };
  return undefined;
}

/** A provider's REST API called with fetch or axios: `fetch(`${base}/v2/checkout/orders/${id}/capture`, { method: 'POST', headers })`. */
function restCall(src: ParsedSource, node: ts.CallExpression): PaymentCallFinding | undefined {
  const chain = chainText(node.expression);
  const client = chain === 'fetch' || chain.endsWith('.fetch') ? 'fetch' : /^axios(\.(post|request))?$/.test(chain) ? 'axios' : undefined;
  if (!client) return undefined;
  const args = node.arguments;
  const config = chain === 'axios' || chain === 'axios.request' ? objectArgument(src, args[0]) : undefined;
  const url = config ? urlText(src, propertyValue(config, 'url')) : urlText(src, args[0]);
  const target = restTarget(src, url);
  if (!target) return undefined;
  const init = client === 'fetch' ? objectArgument(src, args[1]) : config ?? objectArgument(src, args[2]);
  const method = chain === 'axios.post' ? 'POST' : literalText(valueOf(src, propertyValue(init, 'method') ?? ts.factory.createStringLiteral('GET')))?.toUpperCase();
  if (method !== 'POST') return undefined;
  const header = target.provider === 'paypal' ? 'PayPal-Request-Id' : 'Idempotency-Key';
  const headers = objectArgument(src, propertyValue(init, 'headers'));
  const key = propertyIn(src, headers, [header]) ?? assignedHeader(src, node, header);
  const call = `${client} POST ${target.path}`;
  return finding(src, target.provider, call, node, key, () => {
    const entry = `'${header}': ${KEY_PLACEHOLDER}`;
    if (headers) return addEntry(src.relPath, src.sf.text, headers.getStart(src.sf), entry);
    return init && !propertyValue(init, 'headers') ? addEntry(src.relPath, src.sf.text, init.getStart(src.sf), `headers: { ${entry} }`) : undefined;
  });
}

/**
 * The money-moving provider call `node` makes, if it is one.
 * @example paymentCall(parseSource('pay.ts', "import Stripe from 'stripe'; stripe.refunds.create({})"), callNode)?.passesIdempotencyKey // false
 */
export function paymentCall(src: ParsedSource, node: ts.CallExpression | ts.NewExpression): PaymentCallFinding | undefined {
  return sdkCall(src, node) ?? (ts.isCallExpression(node) ? restCall(src, node) : undefined);
}
