/**
 * C# / ASP.NET Core by reliable patterns: `[HttpPost("x")]` under `[Route("api/[controller]")]`,
 * minimal APIs (`app.MapPost("/x", ...)`), `[FromBody]` DTO types (records and properties),
 * Stripe.net/Adyen calls, RabbitMQ/MassTransit/Kafka consumers, Hangfire/Quartz/BackgroundService.
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type EndpointFinding, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { braceBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

const VERB: Record<string, MutatingMethod> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };

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

/** Records and classes with auto-properties: name → property names. */
function dotnetShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match } of matchesWithLines(text, /\brecord\s+(?:class\s+|struct\s+)?(\w+)\s*\(([^)]*)\)/g)) {
    const fields = (match[2] ?? '').split(',').map((part) => /(\w+)\s*$/.exec(part.trim())?.[1] ?? '').filter(Boolean);
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*public\s+(?:sealed\s+)?class\s+(\w+)[^{]*\{?/gm)) {
    const body = sliceLines(text, line, braceBlockEnd(text, line));
    const fields = [...body.matchAll(/public\s+[\w<>?[\],\s]+?\s+(\w+)\s*\{\s*get;/g)].map((m) => m[1] ?? '');
    if (fields.length > 0 && !shapes.has(match[1] ?? '')) shapes.set(match[1] ?? '', fields);
  }
  return shapes;
}

/** The `[Route]` of the controller class enclosing `index` (a file may hold several controllers). */
function controllerPrefix(text: string, index = text.length): string {
  const before = text.slice(0, index);
  const routes = [...before.matchAll(/\[Route\("([^"]*)"\)\]\s*(?:\[[^\]]*\]\s*)*public\s+(?:\w+\s+)*class\s+(\w+?)(?:Controller)?\b/g)];
  const classes = [...before.matchAll(/\bclass\s+\w+/g)];
  const route = routes[routes.length - 1];
  const lastClass = classes[classes.length - 1];
  // The route must belong to the nearest class, not to an earlier one.
  if (!route || !lastClass || (route.index ?? 0) + route[0].length < (lastClass.index ?? 0) + lastClass[0].length) return '';
  return (route[1] ?? '').replace('[controller]', (route[2] ?? '').toLowerCase());
}

function joinRoute(prefix: string, path: string): string {
  if (path.startsWith('/') || path.startsWith('~/')) return path.replace(/^~/, '');
  return `/${[prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

function endpoint(text: string, relPath: string, method: MutatingMethod, route: string, line: number, framework: 'aspnet'): EndpointFinding {
  const signature = nextLineMatching(text, line + 1, /^[ \t]*(?!\[)(?:public|private|internal)\s+[\w<>?,\s]+?\s+(\w+)\s*\(/, 6);
  const end = signature ? braceBlockEnd(text, signature.line) : line;
  const header = signature ? sliceLines(text, signature.line, Math.min(end, signature.line + 3)) : '';
  const bodyType = /\[FromBody\]\s*(\w+)\s+\w+/.exec(header)?.[1];
  const body = signature ? sliceLines(text, signature.line, end) : '';
  return {
    method,
    route,
    framework,
    location: formatLocation(relPath, line),
    ...(signature ? { handler: signature.match[1] } : {}),
    bodyFields: [],
    ...(bodyType ? { bodyType } : {}),
    webhook: /webhook|\bipn\b/i.test(route) || /EventUtility\.ConstructEvent|HmacValidator/.test(body),
    span: { start: signature?.line ?? line, end },
  };
}

/**
 * Scans one C# file.
 * @example scanDotnet('Controllers/PaymentsController.cs', '[HttpPost]\npublic IActionResult Create([FromBody] PayReq r) {}').findings.endpoints
 */
export function scanDotnet(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const shapes = dotnetShapes(text);
  if (/(^|\/)[\w.]*Tests?\//.test(relPath)) return { findings, shapes };
  for (const { match, line, index } of matchesWithLines(text, /\[Http(Post|Put|Patch|Delete)(?:\(\s*"([^"]*)"[^)]*\))?\]/g)) {
    findings.endpoints.push(endpoint(text, relPath, VERB[match[1] ?? ''] as MutatingMethod, joinRoute(controllerPrefix(text, index), match[2] ?? ''), line, 'aspnet'));
  }
  for (const { match, line } of matchesWithLines(text, /\.Map(Post|Put|Patch|Delete)\(\s*"([^"]*)"\s*,\s*(async\s*)?\(([^)]*)\)\s*=>|\.Map(Post|Put|Patch|Delete)\(\s*"([^"]*)"/g)) {
    const verb = match[1] ?? match[5] ?? '';
    const route = match[2] ?? match[6] ?? '/';
    // A lambda handler: its block is the span; a typed parameter that is a record is the body.
    const lambda = match[4] !== undefined;
    const end = lambda ? braceBlockEnd(text, line) : line;
    const body = lambda ? sliceLines(text, line, end) : '';
    const bodyType = lambda ? [...(match[4] ?? '').matchAll(/(\w+)\s+\w+/g)].map((m) => m[1] ?? '').find((t) => !/^(HttpRequest|HttpContext|HttpResponse|CancellationToken|string|int|long|Guid)$/.test(t)) : undefined;
    findings.endpoints.push({
      method: VERB[verb] as MutatingMethod,
      route,
      framework: 'aspnet',
      location: formatLocation(relPath, line),
      bodyFields: [],
      ...(bodyType ? { bodyType } : {}),
      webhook: /webhook/i.test(route) || /EventUtility\.ConstructEvent|HmacValidator/.test(body),
      ...(lambda ? { span: { start: line, end } } : {}),
    });
  }
  applyEffectRules(relPath, text, RULES, findings);
  return { findings, shapes };
}
