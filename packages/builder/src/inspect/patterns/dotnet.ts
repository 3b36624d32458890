/**
 * C# / ASP.NET Core by reliable patterns: `[HttpPost("x")]` under `[Route("api/[controller]/[action]")]`
 * (dotnet-controllers.ts), minimal APIs under their `MapGroup` prefixes (dotnet-minimal.ts), body
 * types bound as ASP.NET binds them (dotnet-body.ts) and their fields (records, properties, nested
 * `Outer.Inner` types: dotnet-syntax.ts),
 * Stripe.net/Adyen calls, RabbitMQ/MassTransit/Kafka consumers, Hangfire/Quartz/BackgroundService.
 */
import { emptyFindings, type ScanResult } from '../types.js';
import { controllerEndpoints } from './dotnet-controllers.js';
import { minimalApiEndpoints } from './dotnet-minimal.js';
import { dotnetShapes, parseCSharp } from './dotnet-syntax.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';

const RULES: readonly EffectRule[] = [
  // A `StripeClient` service reached through `V1` is left to the rule below, so one call is one finding.
  { kind: 'payment', value: 'stripe', pattern: /\b\w*(PaymentIntent|Charge|Refund|Payout|Transfer|Session)Service\b[^;]*?\.(Create|Confirm|Capture)(Async)?\(|(?<!\bV1\.(?:\w+\.)?)\b\w+\.(Create|Confirm|Capture)Async\([^;]*new RequestOptions/, key: /IdempotencyKey/, requires: /using Stripe/ },
  // Stripe.net 46+ (2024-10): `client.V1.PaymentIntents.CreateAsync(options, requestOptions)` on a `StripeClient`;
  // the client may come by injection and `Stripe` by a global using, so any mention of Stripe suffices.
  { kind: 'payment', value: 'stripe', pattern: /\b\w+\.V1\.(PaymentIntents|Charges|Refunds|Payouts|Transfers|Checkout\.Sessions)\.(Create|Confirm|Capture)(Async)?\(/, key: /IdempotencyKey/, requires: /Stripe/ },
  // `var service = new SessionService(); … await service.CreateAsync(options)`: the call on its own line.
  { kind: 'payment', value: 'stripe', pattern: /\b\w*[sS]ervice\.(Create|Confirm|Capture)(Async)?\((?![^;]*new RequestOptions)/, key: /IdempotencyKey/, requires: /new (PaymentIntent|Charge|Refund|Payout|Transfer|Session)Service\(/ },
  // PayPal server SDK: the key is the input's PaypalRequestId, set where the input is built (key-carriers.ts reads it there).
  { kind: 'payment', value: 'paypal', pattern: /\b\w*[oO]rdersController\.(CreateOrder|CaptureOrder|AuthorizeOrder)(Async)?\(/, key: /PaypalRequestId|PayPal-Request-Id/i, requires: /PaypalServerSdk|PayPal/ },
  // PayPalCheckoutSdk: a request object whose header is set before `client.Execute(request)` (`.PayPalRequestId(k)` or `Headers.Add("PayPal-Request-Id", k)`).
  { kind: 'payment', value: 'paypal', pattern: /\bnew (Orders(?:Create|Capture|Authorize)|CapturesRefund|AuthorizationsCapture)Request\(/, key: /PayPalRequestId|PayPal-Request-Id/i, requires: /PayPalCheckoutSdk/, construction: true },
  // Adyen: `new RequestOptions { IdempotencyKey = k }` (Adyen.Model) or `new RequestOptions().AddIdempotencyKey(k)` (Adyen.Core.Client).
  // `Donations(Async)` is Checkout's DonationsService (a donation is a charge); a call without arguments is no SDK call.
  { kind: 'payment', value: 'adyen', pattern: /\.(Payments|Donations|RefundCapturedPayment|CaptureAuthorisedPayment|CancelAuthorisedPaymentByPspReference|RefundOrCancelPayment|UpdateAuthorisedAmount)(Async)?\((?!\s*\))/, key: /IdempotencyKey/, requires: /using Adyen/ },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\.BasicConsume(?:Async)?\(\s*(?:queue:\s*)?(?:"([^"]+)")?/, channel: 1 },
  { kind: 'consumer', value: 'other', pattern: /:\s*IConsumer<(\w+)>/, channel: 1 },
  { kind: 'consumer', value: 'kafka', pattern: /\.Subscribe\(\s*"([^"]+)"/, channel: 1, requires: /Confluent\.Kafka/ },
  { kind: 'scheduler', value: 'hangfire', pattern: /RecurringJob\.AddOrUpdate\b[^;]*?(Cron\.\w+\([^)]*\)|"[^"]*")\s*\)/, schedule: 1 },
  { kind: 'scheduler', value: 'quartz', pattern: /WithCronSchedule\(\s*"([^"]+)"/, schedule: 1 },
  { kind: 'scheduler', value: 'BackgroundService', pattern: /:\s*BackgroundService\b/ },
  { kind: 'database', value: 'postgresql', pattern: /\b(NpgsqlConnection|UseNpgsql)\b/ },
  { kind: 'database', value: 'mysql', pattern: /\b(MySqlConnection|UseMySql)\b/ },
  { kind: 'database', value: 'redis', pattern: /\bConnectionMultiplexer\.Connect/ },
];

/**
 * Scans one C# file.
 * @example scanDotnet('Controllers/PaymentsController.cs', '[HttpPost]\npublic IActionResult Create([FromBody] PayReq r) {}').findings.endpoints
 */
export function scanDotnet(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const source = parseCSharp(text);
  const shapes = dotnetShapes(source);
  if (/(^|\/)[\w.]*Tests?\//.test(relPath)) return { findings, shapes };
  findings.endpoints.push(...controllerEndpoints(source, relPath), ...minimalApiEndpoints(source, relPath));
  applyEffectRules(relPath, text, RULES, findings);
  return { findings, shapes };
}
