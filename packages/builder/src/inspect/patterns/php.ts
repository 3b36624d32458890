/**
 * PHP / Laravel by reliable patterns: `Route::post('/x', ...)`, Stripe/Adyen calls, php-amqplib
 * consumers and the console scheduler.
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { matchesWithLines } from './line-patterns.js';

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /->(paymentIntents|charges|refunds|payouts|transfers)->(create|confirm|capture)\(|\\?Stripe\\(PaymentIntent|Charge|Refund)::create\(/, key: /idempotency_key/ },
  // PayPal server SDK: `'paypalRequestId' => k` in the options array, usually built in a variable before the call.
  { kind: 'payment', value: 'paypal', pattern: /->(createOrder|captureOrder|authorizeOrder)\(/, key: /paypalRequestId|PayPal-Request-Id/i, requires: /PaypalServerSdk/ },
  // PayPalCheckoutSdk: `$request->payPalRequestId(k)` or `$request->headers["PayPal-Request-Id"] = k` before `$client->execute($request)`.
  { kind: 'payment', value: 'paypal', pattern: /\bnew (Orders(?:Create|Capture|Authorize)|CapturesRefund|AuthorizationsCapture)Request\(/, key: /payPalRequestId|PayPal-Request-Id/i, requires: /PayPalCheckoutSdk/, construction: true },
  // `donations` is Checkout's DonationsApi (and the legacy Service\Checkout); without arguments it is an Eloquent relation (`$user->donations()`).
  { kind: 'payment', value: 'adyen', pattern: /->(payments|donations|refundCapturedPayment|captureAuthorisedPayment|cancelAuthorisedPaymentByPspReference|refundOrCancelPayment|updateAuthorisedAmount)\((?!\s*\))/, key: /idempotencyKey|Idempotency-Key/, requires: /Adyen\\/ },
  { kind: 'consumer', value: 'rabbitmq', pattern: /->basic_consume\(\s*(?:["']([^"']+)["'])?/, channel: 1 },
  { kind: 'scheduler', value: 'laravel scheduler', pattern: /\$schedule->(?:command|job|call)\([^;]*?->(\w+\([^)]*\))/, schedule: 1 },
];

/**
 * Scans one PHP file.
 * @example scanPhp('routes/api.php', "Route::post('/payments', [PaymentController::class, 'store']);").findings.endpoints
 */
export function scanPhp(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  if (/(^|\/)tests\//.test(relPath)) return { findings, shapes: new Map() };
  // A script in a public docroot is its own route (`public/webhook.php` → `/webhook.php`); it is a
  // POST entry point when it reads a request body.
  const docroot = /(?:^|\/)(?:public|htdocs|www|web)\/((?:[\w.-]+\/)*[\w.-]+\.php)$/.exec(relPath);
  // A form target that creates at the provider and redirects (`header('Location: …')`) is a POST too.
  const formTarget = /->create\(/.test(text) && /header\(\s*["'](?:Location:|HTTP\/1\.1 303)/.test(text);
  if (docroot && (/php:\/\/input|\$_POST\b/.test(text) || formTarget)) {
    const line = matchesWithLines(text, /php:\/\/input|\$_POST\b|->create\(/g)[0]?.line ?? 1;
    findings.endpoints.push({
      method: 'POST', route: `/${docroot[1] ?? ''}`, framework: 'other', location: formatLocation(relPath, line), bodyFields: [],
      webhook: /webhook/i.test(relPath) || /Webhook::constructEvent/.test(text), span: { start: 1, end: text.split('\n').length },
    });
  }
  for (const { match, line } of matchesWithLines(text, /Route::(post|put|patch|delete)\(\s*["']([^"']+)["']/g)) {
    const route = (match[2] ?? '').startsWith('/') ? (match[2] ?? '') : `/${match[2] ?? ''}`;
    const prefix = relPath.endsWith('routes/api.php') ? '/api' : '';
    findings.endpoints.push({
      method: (match[1] ?? '').toUpperCase() as MutatingMethod,
      route: `${prefix}${route}`,
      framework: 'laravel',
      location: formatLocation(relPath, line),
      bodyFields: [],
      webhook: /webhook/i.test(route),
    });
  }
  applyEffectRules(relPath, text, RULES, findings);
  return { findings, shapes: new Map() };
}
