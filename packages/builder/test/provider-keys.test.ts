// The one judgement of provider keys (inspect/provider-keys.ts): each case with its verdict and the reason's gist.
import { describe, expect, it } from 'vitest';
import { judgeKey, keyExpressionIn, operationOf } from '../src/inspect/provider-keys.js';

describe('judgeKey', () => {
  it.each([
    ['`refund-${orderId}-${amount}`', 'refund', /two equal partial refunds of one order/],
    ['`${userId}-${cardId}-${amount}`', 'charge', /two equal purchases by one customer/],
    ['f"{order_in.sku}-{order_in.quantity}"', 'charge', /`order_in\.sku`, `order_in\.quantity`/],
    ['`refund-${orderId}`', 'refund', /`orderId`/],
    ['`${paymentIntentId}-refund`', 'refund', /`paymentIntentId`/],
    ['`update-${req.params.pspReference}`', 'update', /two equal amount updates/],
  ] as const)('%s for a %s is unsound: two distinct intents share it', (expression, operation, reason) => {
    const verdict = judgeKey(expression, operation);
    expect(verdict.verdict).toBe('unsound');
    expect(verdict.reason).toMatch(/two distinct intents can share/);
    expect(verdict.reason).toMatch(reason);
  });

  it.each([
    ['randomUUID()', /`randomUUID\(\)` is made at the call/],
    ['uuid()', /`uuid\(\)`/],
    ['uuidv4()', /`uuidv4\(\)`/],
    ['str(uuid.uuid4())', /`uuid\.uuid4`/],
    ['`${orderId}-${Date.now()}`', /`Date\.now`/],
    ['UUID.randomUUID().toString()', /`UUID\.randomUUID`/],
    ['Guid.NewGuid().ToString()', /`Guid\.NewGuid`/],
  ])('%s is unsound: a retry gets a new key', (expression, reason) => {
    const verdict = judgeKey(expression, 'charge');
    expect(verdict).toMatchObject({ verdict: 'unsound' });
    expect(verdict.reason).toMatch(reason);
    expect(verdict.reason).toMatch(/a retry of this code sends a new key/);
  });

  it.each([
    ["stripeIdempotencyKey({ key: idempotencyKey, scope, step: 'refund' })", 'refund', /derived from the local idempotency key/],
    ["paypalRequestId({ key, scope })", 'capture', /derived from the local idempotency key/],
    ['stripe_idempotency_key(idempotency_key, scope, "charge")', 'charge', /derived from the local idempotency key/],
    ['idempotencyKey', 'charge', /derived from the local idempotency key/],
    ['`${req.user.id}:${req.headers["idempotency-key"]}`', 'charge', /derived from the local idempotency key/],
    ["req.get('Idempotency-Key') ?? ''", 'refund', /not qualified by the user scope/],
    ['paymentIntent.id', 'capture', /`paymentIntent\.id` is a stored unique id of this capture/],
    ['refundRow.id', 'refund', /`refundRow\.id` is a stored unique id of this refund/],
    ['`order-${order.id}`', 'charge', /`order\.id` is a stored unique id of this payment/],
    ['body.RefundId', 'refund', /stored unique id/],
    ['attempt.id', 'payout', /stored unique id of this payout/],
  ] as const)('%s for a %s is sound', (expression, operation, reason) => {
    const verdict = judgeKey(expression, operation);
    expect(verdict.verdict).toBe('sound');
    expect(verdict.reason).toMatch(reason);
  });

  it('an order id identifies a charge but not a refund of that order; a card id never identifies a purchase', () => {
    expect(judgeKey('`pay-${orderId}`', 'charge').verdict).toBe('sound');
    expect(judgeKey('`pay-${orderId}`', 'refund').verdict).toBe('unsound');
    expect(judgeKey('`${paymentMethodId}-${amount}`', 'charge').verdict).toBe('unsound');
  });

  it('reads C# $"…{x}…", PHP "…{$x->id}…" and Java getters; a key-making helper is unknown, not derived from the local key', () => {
    expect(judgeKey('$"refund_{providerPaymentId}"', 'refund')).toMatchObject({ verdict: 'unsound', reason: expect.stringMatching(/`providerPaymentId`/) });
    expect(judgeKey('$"charge_{request.BookingId:N}"', 'charge').verdict).toBe('sound');
    expect(judgeKey('$"{orderId}-{Guid.NewGuid():N}"', 'charge').reason).toMatch(/`Guid\.NewGuid` is made at the call/);
    expect(judgeKey('"order-{$order->id}"', 'charge').verdict).toBe('sound');
    expect(judgeKey('CREATE_PREFIX + order.getId()', 'charge').reason).toMatch(/`order\.getId\(\)` is a stored unique id/);
    expect(judgeKey("uniqid('pi_')", 'charge').verdict).toBe('unsound');
    expect(judgeKey('$this->idempotencyHelper->generateIdempotencyKey($request, $extra)', 'refund')).toMatchObject({ verdict: 'unknown', reason: expect.stringMatching(/`generateIdempotencyKey\(\)` makes the key outside/) });
    expect(judgeKey('$"refund"', 'refund').reason).toMatch(/a constant/);
  });

  it('a constant is unsound, a name made elsewhere is unknown (never called sound)', () => {
    expect(judgeKey("'refund'", 'refund')).toMatchObject({ verdict: 'unsound', reason: expect.stringMatching(/a constant/) });
    expect(judgeKey('key', 'charge')).toMatchObject({ verdict: 'unknown', reason: expect.stringMatching(/`key` is made outside the code read here/) });
  });
});

describe('keyExpressionIn and operationOf', () => {
  it('reads the key from SDK options, request ids and header entries, keeping nested calls whole', () => {
    expect(keyExpressionIn('stripe.Refund.create(charge=c, idempotency_key=f"{user}-{amount}")')).toBe('f"{user}-{amount}"');
    expect(keyExpressionIn("requests.post(url, headers={'PayPal-Request-Id': str(uuid.uuid4()), 'X': 1})")).toBe('str(uuid.uuid4())');
    expect(keyExpressionIn('gateway.transaction.sale({"amount": a, "api_request_key": key})')).toBe('key');
    expect(keyExpressionIn('HttpRequest.newBuilder().header("PayPal-Request-Id", requestId).POST(body)')).toBe('requestId');
    expect(keyExpressionIn('params.SetIdempotencyKey(key)')).toBe('key');
    expect(keyExpressionIn('stripe.Charge.create(amount=1)')).toBeUndefined();
    // Set on request objects and builders, in the SDKs' own spellings.
    expect(keyExpressionIn('request.Headers.Add("PayPal-Request-Id", key);')).toBe('key');
    expect(keyExpressionIn('$request->headers["PayPal-Request-Id"] = $key;')).toBe('$key');
    expect(keyExpressionIn('new OrdersCaptureRequest(id).payPalRequestId(prefix + id)')).toBe('prefix + id');
    expect(keyExpressionIn('new CreateOrderInput { Body = body, PaypalRequestId = key }')).toBe('key');
    expect(keyExpressionIn("$collect = ['body' => $b, 'paypalRequestId' => $key];")).toBe('$key');
    expect(keyExpressionIn('request.pay_pal_request_id(key)')).toBe('key');
    expect(keyExpressionIn("$requestOptions['idempotencyKey'] = $key;")).toBe('$key');
    expect(keyExpressionIn('new RequestOptions().AddIdempotencyKey(key)')).toBe('key');
    expect(keyExpressionIn('var requestOptions = new RequestOptions { IdempotencyKey = key };')).toBe('key');
  });

  it('names what a call does', () => {
    expect(operationOf('stripe.refunds.create')).toBe('refund');
    expect(operationOf('checkout.ModificationsApi.captureAuthorisedPayment')).toBe('capture');
    expect(operationOf('gateway.transaction.submitForSettlement')).toBe('capture');
    expect(operationOf('checkout.ModificationsApi.cancelAuthorisedPaymentByPspReference')).toBe('cancel');
    expect(operationOf('checkout.ModificationsApi.updateAuthorisedAmount')).toBe('update');
    expect(operationOf('fetch POST /v2/payments/captures/:id/refund')).toBe('refund');
    expect(operationOf('gateway.transaction.sale')).toBe('charge');
  });
});
