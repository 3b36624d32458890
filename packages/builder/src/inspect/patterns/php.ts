/**
 * PHP / Laravel by reliable patterns: Laravel route files (php-routes.ts, linked to their
 * controllers once every file is known by php-controllers.ts), Stripe/Adyen/PayPal calls,
 * php-amqplib consumers, queued jobs and the console scheduler (php-jobs.ts). Comments are blanked
 * first: commented-out code is no finding.
 */
import { formatLocation } from '../location.js';
import { joinRoute } from '../route-graph.js';
import { emptyFindings, type EndpointFinding, type ScanResult } from '../types.js';
import { maskCode } from './code-mask.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { matchesWithLines } from './line-patterns.js';
import { laravelJobs, laravelSchedules } from './php-jobs.js';
import { defaultRouteFilePrefix, laravelRouteOrigins, laravelRoutes } from './php-routes.js';

// stripe-php: static resources (`\Stripe\PaymentIntent::create(`, `Session::create(` after `use
// Stripe\Checkout\Session;`) and StripeClient services (`$stripe->paymentIntents->create(`,
// `$stripe->checkout->sessions->create(`); the key goes in the options array (`['idempotency_key' => k]`).
const STRIPE_RESOURCES = 'PaymentIntent|Charge|Refund|Payout|Transfer|Subscription|Invoice|Checkout\\\\Session';
const STRIPE_SERVICES = 'paymentIntents|charges|refunds|payouts|transfers|subscriptions|invoices|checkout->sessions';

/** Matches nothing: the call cannot be given a key. */
const NO_KEY_ARGUMENT = /(?!)/;

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: new RegExp(`->(?:${STRIPE_SERVICES})->(?:create|confirm|capture|pay)\\(|\\\\?\\bStripe\\\\(?:${STRIPE_RESOURCES})::create\\(`), key: /idempotency_key/ },
  // A resource imported by `use Stripe\PaymentIntent;` (or `use Stripe\Checkout\Session;`) and called by its short name.
  { kind: 'payment', value: 'stripe', pattern: /(?<![\\\w])(?:PaymentIntent|Charge|Refund|Payout|Transfer|Subscription)::create\(/, key: /idempotency_key/, requires: /^\s*use\s+Stripe\\(?:PaymentIntent|Charge|Refund|Payout|Transfer|Subscription)\s*;/m },
  { kind: 'payment', value: 'stripe', pattern: /(?<![\\\w])Session::create\(/, key: /idempotency_key/, requires: /^\s*use\s+Stripe\\Checkout\\Session\s*;/m },
  // Laravel Cashier (Billable): `$user->charge(…)`, `->newSubscription(…)->create(…)`, `->checkout(…)`.
  // Cashier sends no idempotency key, and its options array holds PaymentIntent parameters, not request
  // options: no argument of these calls can carry one (a key needs a direct stripe-php call).
  { kind: 'payment', value: 'stripe', pattern: /->(?:charge|invoiceFor|checkout|checkoutCharge)\((?!\s*\))|->newSubscription\([^;]*?->create\(/, key: NO_KEY_ARGUMENT, requires: /Laravel\\Cashier|Billable|->newSubscription\(/ },
  // PayPal server SDK: `'paypalRequestId' => k` in the options array, usually built in a variable before the call.
  { kind: 'payment', value: 'paypal', pattern: /->(createOrder|captureOrder|authorizeOrder)\(/, key: /paypalRequestId|PayPal-Request-Id/i, requires: /PaypalServerSdk/ },
  // PayPalCheckoutSdk: `$request->payPalRequestId(k)` or `$request->headers["PayPal-Request-Id"] = k` before `$client->execute($request)`.
  { kind: 'payment', value: 'paypal', pattern: /\bnew (Orders(?:Create|Capture|Authorize)|CapturesRefund|AuthorizationsCapture)Request\(/, key: /payPalRequestId|PayPal-Request-Id/i, requires: /PayPalCheckoutSdk/, construction: true },
  // `donations` is Checkout's DonationsApi (and the legacy Service\Checkout); without arguments it is an Eloquent relation (`$user->donations()`).
  { kind: 'payment', value: 'adyen', pattern: /->(payments|donations|refundCapturedPayment|captureAuthorisedPayment|cancelAuthorisedPaymentByPspReference|refundOrCancelPayment|updateAuthorisedAmount)\((?!\s*\))/, key: /idempotencyKey|Idempotency-Key/, requires: /Adyen\\/ },
  { kind: 'consumer', value: 'rabbitmq', pattern: /->basic_consume\(\s*(?:["']([^"']+)["'])?/, channel: 1 },
];

/** Laravel routes declared in this file, each with its route-file default prefix; the controller is linked later. */
function routeEndpoints(relPath: string, code: string): EndpointFinding[] {
  if (!/\bRoute::|\$router->/.test(code)) return [];
  const prefix = defaultRouteFilePrefix(relPath);
  return laravelRoutes(relPath, code).routes.map((route) => {
    const path = joinRoute(prefix, route.path);
    const [controller, method] = route.handler?.split('@') ?? [];
    // The handler is the action method (`store`); an invokable controller is named by its class.
    const handler = method === '__invoke' ? controller?.slice(controller.lastIndexOf('\\') + 1) : method;
    const endpoint: EndpointFinding = {
      method: route.method, route: path, framework: 'laravel', location: formatLocation(relPath, route.line), bodyFields: [],
      ...(handler ? { handler } : {}),
      webhook: /webhook/i.test(path),
      ...(route.span ? { span: route.span } : {}),
      ...(route.anyMethod ? { anyMethod: { readsBody: false } } : {}),
    };
    laravelRouteOrigins.set(endpoint, { file: relPath, path: route.path, ...(controller && method ? { controller, method } : {}) });
    return endpoint;
  });
}

/**
 * Scans one PHP file.
 * @example scanPhp('routes/api.php', "Route::post('/payments', [PaymentController::class, 'store']);").findings.endpoints
 */
export function scanPhp(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  if (/(^|\/)tests\//.test(relPath)) return { findings, shapes: new Map() };
  // Commented-out code (`// Route::post(…)`, `// $schedule->command('inspire')->hourly();`) is no finding.
  const code = maskCode(text, 'php');
  // A script in a public docroot is its own route (`public/webhook.php` → `/webhook.php`); it is a
  // POST entry point when it reads a request body.
  const docroot = /(?:^|\/)(?:public|htdocs|www|web)\/((?:[\w.-]+\/)*[\w.-]+\.php)$/.exec(relPath);
  // A form target that creates at the provider and redirects (`header('Location: …')`) is a POST too.
  const formTarget = /->create\(/.test(code) && /header\(\s*["'](?:Location:|HTTP\/1\.1 303)/.test(code);
  if (docroot && (/php:\/\/input|\$_POST\b/.test(code) || formTarget)) {
    const line = matchesWithLines(code, /php:\/\/input|\$_POST\b|->create\(/g)[0]?.line ?? 1;
    findings.endpoints.push({
      method: 'POST', route: `/${docroot[1] ?? ''}`, framework: 'other', location: formatLocation(relPath, line), bodyFields: [],
      webhook: /webhook/i.test(relPath) || /Webhook::constructEvent/.test(code), span: { start: 1, end: text.split('\n').length },
    });
  }
  findings.endpoints.push(...routeEndpoints(relPath, code));
  applyEffectRules(relPath, text, RULES, findings);
  findings.consumers.push(...laravelJobs(relPath, code));
  findings.schedulers.push(...laravelSchedules(relPath, code));
  return { findings, shapes: new Map() };
}
