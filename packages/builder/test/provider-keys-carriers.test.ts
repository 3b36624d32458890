// Provider keys set on what a call passes, not in the call: request options and inputs built in a
// variable, request objects whose header is set before they are executed, and same-file helpers that
// build the options. Code written for this test, in the spellings of the official SDKs (PayPal
// Checkout and Server SDKs, stripe-java, Stripe.net, stripe-php, Adyen Java/.NET/PHP).
import { describe, expect, it } from 'vitest';
import { scanDotnet } from '../src/inspect/patterns/dotnet.js';
import { scanGo } from '../src/inspect/patterns/go.js';
import { scanJvm } from '../src/inspect/patterns/jvm.js';
import { scanPhp } from '../src/inspect/patterns/php.js';
import { scanPython } from '../src/inspect/patterns/python.js';
import { scanRuby } from '../src/inspect/patterns/ruby.js';
import type { ScanResult } from '../src/inspect/types.js';

type Row = [location: string, passes: boolean, key: string | undefined, verdict: string | undefined, keyAt: string | undefined];
const rows = (result: ScanResult): Row[] =>
  result.findings.paymentCalls.map((c) => [c.location, c.passesIdempotencyKey, c.keyExpression, c.keyVerdict?.verdict, c.keyLocation]);

describe('keys set up before the call', () => {
  it('C#: RequestOptions in a variable (Stripe.net), AddIdempotencyKey (Adyen), the PayPal input property and the legacy request header', () => {
    const text = [
      'using Stripe;',
      'using Adyen;',
      'using PayPalCheckoutSdk.Orders;',
      'public class Payments {',
      '  public async Task Charge(Order order) {',
      '    var options = new PaymentIntentCreateOptions { Amount = order.Total };',
      '    var requestOptions = new RequestOptions { IdempotencyKey = $"charge_{order.Id}" };',
      '    await new PaymentIntentService().CreateAsync(options, requestOptions);',
      '  }',
      '  public async Task Refund(string paymentIntentId, long amount) {',
      '    var ro = new RequestOptions();',
      '    ro.IdempotencyKey = $"refund_{paymentIntentId}_{amount}";',
      '    await new RefundService().CreateAsync(new RefundCreateOptions { PaymentIntent = paymentIntentId }, ro);',
      '  }',
      '  public async Task Adyen(PaymentRequest request) {',
      '    var requestOptions = new RequestOptions().AddIdempotencyKey(Guid.NewGuid().ToString());',
      '    await _paymentsService.PaymentsAsync(request, requestOptions);',
      '  }',
      '  public async Task Legacy(string orderId) {',
      '    var request = new OrdersCaptureRequest(orderId);',
      '    request.Headers.Add("PayPal-Request-Id", $"capture-{orderId}");',
      '    await client.Execute(request);',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanDotnet('Services/Payments.cs', text))).toEqual([
      ['Services/Payments.cs:8', true, '$"charge_{order.Id}"', 'sound', 'Services/Payments.cs:7'],
      ['Services/Payments.cs:13', true, '$"refund_{paymentIntentId}_{amount}"', 'unsound', 'Services/Payments.cs:12'],
      ['Services/Payments.cs:20', true, '$"capture-{orderId}"', 'sound', 'Services/Payments.cs:21'],
      ['Services/Payments.cs:17', true, 'Guid.NewGuid().ToString()', 'unsound', 'Services/Payments.cs:16'],
    ]);
  });

  it('C#: the PayPal server SDK input with PaypalRequestId in its initializer, and one without', () => {
    const text = [
      'using PaypalServerSdk.Standard.Controllers;',
      'public class Orders {',
      '  private async Task<dynamic> Create(Cart cart, string idempotencyKey) {',
      '    CreateOrderInput input = new CreateOrderInput',
      '    {',
      '        Body = new OrderRequest { Intent = CheckoutPaymentIntent.Capture },',
      '        PaypalRequestId = idempotencyKey,',
      '    };',
      '    return await _ordersController.CreateOrderAsync(input);',
      '  }',
      '  private async Task<dynamic> Capture(string orderID) {',
      '    CaptureOrderInput input = new CaptureOrderInput { Id = orderID };',
      '    return await _ordersController.CaptureOrderAsync(input);',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanDotnet('Server.cs', text))).toEqual([
      ['Server.cs:9', true, 'idempotencyKey', 'sound', 'Server.cs:7'],
      ['Server.cs:13', false, undefined, undefined, undefined],
    ]);
  });

  it('Java: RequestOptions built in a variable and in a helper (stripe-java), setIdempotencyKey (Adyen), builders and header constants (PayPal)', () => {
    const text = [
      'import com.stripe.net.RequestOptions;',
      'import com.adyen.model.RequestOptions;',
      'import com.paypal.orders.OrdersCaptureRequest;',
      'class Payments {',
      '  private static final String REQUEST_ID = "PayPal-Request-Id";',
      '  private RequestOptions options(String key) {',
      '    return RequestOptions.builder().setIdempotencyKey(key).build();',
      '  }',
      '  PaymentIntent charge(Booking booking) throws StripeException {',
      '    String idemKey = "PAYINT:" + booking.getId() + ":" + System.currentTimeMillis();',
      '    RequestOptions opts = RequestOptions.builder().setIdempotencyKey(idemKey).build();',
      '    return PaymentIntent.create(params, opts);',
      '  }',
      '  Refund refund(Order order) throws StripeException {',
      '    return client.v1()',
      '        .refunds()',
      '        .create(params, options("refund-" + order.getId()));',
      '  }',
      '  PaymentResponse pay(PaymentRequest paymentRequest) throws Exception {',
      '    RequestOptions requestOptions = new RequestOptions();',
      '    requestOptions.setIdempotencyKey(UUID.randomUUID().toString());',
      '    return paymentsApi.payments(paymentRequest, requestOptions);',
      '  }',
      '  Order capture(Long orderId, String paypalOrderId) throws IOException {',
      '    OrdersCaptureRequest request = new OrdersCaptureRequest(paypalOrderId)',
      '        .requestBody(new OrderCaptureRequest());',
      '    request.header(REQUEST_ID, "capture-" + orderId);',
      '    return client.execute(request).result();',
      '  }',
      '  Order create(Payment payment) throws Exception {',
      '    CreateOrderInput input = new CreateOrderInput.Builder(null, body)',
      '        .paypalRequestId("create-" + payment.getId())',
      '        .build();',
      '    return client.getOrdersController().createOrder(input).getResult();',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanJvm('src/main/java/Payments.java', text))).toEqual([
      ['src/main/java/Payments.java:12', true, 'idemKey', 'unsound', 'src/main/java/Payments.java:10'],
      ['src/main/java/Payments.java:16', true, '"refund-" + order.getId()', 'unsound', 'src/main/java/Payments.java:17'],
      ['src/main/java/Payments.java:22', true, 'UUID.randomUUID().toString()', 'unsound', 'src/main/java/Payments.java:21'],
      ['src/main/java/Payments.java:34', true, '"create-" + payment.getId()', 'sound', 'src/main/java/Payments.java:32'],
      ['src/main/java/Payments.java:25', true, '"capture-" + orderId', 'sound', 'src/main/java/Payments.java:27'],
    ]);
  });

  it('PHP: options arrays (stripe-php, Adyen), the PayPal server SDK collect array and the legacy request headers', () => {
    const text = [
      '<?php',
      'use Adyen\\Service\\Checkout\\ModificationsApi;',
      'use PayPalCheckoutSdk\\Orders\\OrdersCreateRequest;',
      'class Payments {',
      '  public function refund($psp, $refundRow) {',
      '    $requestOptions = [];',
      "    $requestOptions['idempotencyKey'] = 'refund-' . $refundRow->id;",
      '    return $service->refundCapturedPayment($psp, $request, $requestOptions);',
      '  }',
      '  public function charge($cart) {',
      "    $opts = ['idempotency_key' => uniqid('pi_')];",
      '    return $stripe->paymentIntents->create(["amount" => $cart->total], $opts);',
      '  }',
      '  public function order($order) {',
      '    $request = new OrdersCreateRequest();',
      '    $request->payPalRequestId("order-{$order->id}");',
      '    return $client->execute($request);',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanPhp('app/Payments.php', text))).toEqual([
      ['app/Payments.php:12', true, "uniqid('pi_')", 'unsound', 'app/Payments.php:11'],
      ['app/Payments.php:15', true, '"order-{$order->id}"', 'sound', 'app/Payments.php:16'],
      ['app/Payments.php:8', true, "'refund-' . $refundRow->id", 'sound', 'app/Payments.php:7'],
    ]);
  });

  it('Python and Ruby: the PayPal server SDK options dict or hash built before the call, and the legacy request header', () => {
    const py = [
      'from paypalserversdk.controllers.orders_controller import OrdersController',
      'from paypalcheckoutsdk.orders import OrdersCaptureRequest',
      'def create(cart, idempotency_key):',
      '    collect = {"body": body(cart), "paypal_request_id": idempotency_key}',
      '    return orders_controller.create_order(collect)',
      'def capture(order_id):',
      '    request = OrdersCaptureRequest(order_id)',
      '    request.headers["PayPal-Request-Id"] = str(uuid.uuid4())',
      '    return client.execute(request)',
    ].join('\n');
    expect(rows(scanPython('shop/paypal.py', py))).toEqual([
      ['shop/paypal.py:5', true, 'idempotency_key', 'sound', 'shop/paypal.py:4'],
      ['shop/paypal.py:7', true, 'str(uuid.uuid4())', 'unsound', 'shop/paypal.py:8'],
    ]);
    const rb = [
      "require 'paypal_server_sdk'",
      'def capture(order_id, amount)',
      "  collect = { 'id' => order_id, 'paypal_request_id' => \"capture-#{amount}\" }",
      '  paypal_client.orders.capture_order(collect)',
      'end',
    ].join('\n');
    expect(rows(scanRuby('app/paypal.rb', rb))).toEqual([['app/paypal.rb:4', true, '"capture-#{amount}"', 'unsound', 'app/paypal.rb:3']]);
  });

  it('Go: stripe-go params with SetIdempotencyKey set before the call', () => {
    const text = [
      'package billing',
      'import "github.com/stripe/stripe-go/v82/paymentintent"',
      'func Charge(order Order) (*stripe.PaymentIntent, error) {',
      '\tparams := &stripe.PaymentIntentParams{Amount: stripe.Int64(order.Total)}',
      '\tparams.SetIdempotencyKey("pi-" + order.ID)',
      '\treturn paymentintent.New(params)',
      '}',
      'func Refund(pi string, amount int64) (*stripe.Refund, error) {',
      '\treturn refund.New(&stripe.RefundParams{PaymentIntent: stripe.String(pi)})',
      '}',
    ].join('\n');
    expect(rows(scanGo('billing/charge.go', text))).toEqual([
      ['billing/charge.go:6', true, '"pi-" + order.ID', 'sound', 'billing/charge.go:5'],
      ['billing/charge.go:9', false, undefined, undefined, undefined],
    ]);
  });

  it('another function’s variable of the same name is not read', () => {
    const text = [
      'import com.stripe.net.RequestOptions;',
      'class A {',
      '  public void other() {',
      '    RequestOptions opts = RequestOptions.builder().setIdempotencyKey(k).build();',
      '  }',
      '  public PaymentIntent charge() throws Exception {',
      '    return PaymentIntent.create(params, opts);',
      '  }',
      '}',
    ].join('\n');
    expect(rows(scanJvm('src/main/java/A.java', text))).toEqual([['src/main/java/A.java:7', false, undefined, undefined, undefined]]);
  });
});
