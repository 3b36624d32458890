/**
 * Java and Kotlin (Spring) by reliable patterns: `@PostMapping`/`@PutMapping`/... and
 * `@RequestMapping(method = POST)` under a class-level prefix, `@RequestBody` DTO types (records,
 * classes, data classes), Stripe/Adyen/PayPal SDK calls, `@RabbitListener`/`@KafkaListener`/
 * `@SqsListener`/`@JmsListener` and `@Scheduled` (jvm-listeners.ts).
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type EndpointFinding, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { jvmConstants, scanJvmListeners, scanJvmSchedules } from './jvm-listeners.js';
import { braceBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

const MAPPING: Record<string, MutatingMethod> = { Post: 'POST', Put: 'PUT', Patch: 'PATCH', Delete: 'DELETE' };

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\b(PaymentIntent|Charge|Refund|Payout|Transfer|Session|Subscription)\.create\(/, key: /setIdempotencyKey/, requires: /com\.stripe/, fix: { argument: 'RequestOptions.builder().setIdempotencyKey({{KEY}}).build()' } },
  { kind: 'payment', value: 'stripe', pattern: /\.(paymentIntents|charges|refunds|payouts|transfers)\(\)\s*\.create\(/, key: /setIdempotencyKey/, requires: /com\.stripe/, label: (m) => `.${m[1] ?? ''}().create`, fix: { argument: 'RequestOptions.builder().setIdempotencyKey({{KEY}}).build()' } },
  // Adyen: `RequestOptions` with `setIdempotencyKey(k)` / `.idempotencyKey(k)`, passed as the last argument.
  // `donations` is Checkout's DonationsApi; without arguments it is an accessor (`campaign.donations()`), not the SDK call.
  { kind: 'payment', value: 'adyen', pattern: /\b\w+\.(payments|donations|refundCapturedPayment|captureAuthorisedPayment|cancelAuthorisedPaymentByPspReference|cancelAuthorisedPayment|refundOrCancelPayment|updateAuthorisedAmount)\((?!\s*\))/, key: /idempotencyKey/i, requires: /com\.adyen/ },
  { kind: 'payment', value: 'braintree', pattern: /\.transaction\(\)\.(sale|refund|submitForSettlement|submitForPartialSettlement|credit)\(/, key: /apiRequestKey/, requires: /com\.braintreegateway/ },
  // PayPal REST through java.net.http: the whole request-builder statement carries the header.
  { kind: 'payment', value: 'paypal', pattern: /HttpRequest\.newBuilder\(\)[^;]*?(\/v2\/checkout\/orders|\/v2\/payments\/)[^;]*?\.POST\([^;]*;/, key: /PayPal-Request-Id/i, statement: true, label: (m) => `HttpClient POST ${/capture|authorize|refund/.exec(m[0].slice(m[0].indexOf('/v2/')))?.[0] ? `${m[1]}…/${/capture|authorize|refund/.exec(m[0].slice(m[0].indexOf('/v2/')))?.[0] ?? ''}` : m[1] ?? ''}` },
  // PayPal server SDK: `new CreateOrderInput.Builder(…).paypalRequestId(k).build()`, passed by name.
  { kind: 'payment', value: 'paypal', pattern: /\b\w+\.(createOrder|captureOrder|authorizeOrder)\(|\b\w*OrdersController\(\)\s*\.(createOrder|captureOrder|authorizeOrder)\(/, key: /paypalRequestId|PayPal-Request-Id/i, requires: /com\.paypal/ },
  // Checkout-Java-SDK: `new OrdersCaptureRequest(id).payPalRequestId(k)` or `request.header("PayPal-Request-Id", k)` before `client.execute(request)`.
  { kind: 'payment', value: 'paypal', pattern: /\bnew (Orders(?:Create|Capture|Authorize)|CapturesRefund|AuthorizationsCapture)Request\(/, key: /paypalRequestId|PayPal-Request-Id/i, requires: /com\.paypal/, construction: true },
  { kind: 'database', value: 'postgresql', pattern: /jdbc:postgresql:/ },
  { kind: 'database', value: 'redis', pattern: /\b(RedisTemplate|StringRedisTemplate|JedisPool)\b/ },
];

/** Records, classes with fields and Kotlin data classes: name → field names. */
function jvmShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match } of matchesWithLines(text, /\brecord\s+(\w+)\s*\(([^)]*)\)/g)) {
    const fields = (match[2] ?? '').split(',').map((part) => /(\w+)\s*$/.exec(part.replace(/@\w+(\([^)]*\))?/g, '').trim())?.[1] ?? '').filter(Boolean);
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  for (const { match } of matchesWithLines(text, /\bdata\s+class\s+(\w+)\s*\(([^)]*)\)/g)) {
    const fields = [...(match[2] ?? '').matchAll(/\b(?:val|var)\s+(\w+)/g)].map((m) => m[1] ?? '');
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(?:public\s+)?(?:abstract\s+)?class\s+(\w+)([^{]*)\{/gm)) {
    if (shapes.has(match[1] ?? '')) continue;
    const body = sliceLines(text, line, braceBlockEnd(text, line));
    // Collections of other entities (`List<Pet> pets`) are relations, not values a request sends.
    const fields = [...body.matchAll(/^[ \t]*(?:private|protected|public)\s+(?:final\s+)?([\w<>,\s?]+?)\s+(\w+)\s*(?:=[^;]*)?;/gm)]
      // Generated keys (`@Id @GeneratedValue`) are never sent by the client.
      .filter((m) => !/@(Id|GeneratedValue)\b[^;]*$/.test(body.slice(Math.max(0, (m.index ?? 0) - 120), m.index ?? 0)))
      .filter((m) => !/^(static|List|Set|Collection|Map)\b|\bstatic\b/.test(m[1] ?? '')).map((m) => m[2] ?? '');
    const parent = /\bextends\s+(\w+)/.exec(match[2] ?? '')?.[1];
    const all = [...(parent ? [`...${parent}`] : []), ...fields];
    if (all.length > 0) shapes.set(match[1] ?? '', all);
  }
  return shapes;
}

/** Every path of a mapping (`@PostMapping({"/a", "/b"})`, `value =`, `path =`), other attributes left out. */
function allPaths(args: string): string[] {
  const pathsOnly = args.replace(/\b(produces|consumes|params|headers|name)\s*=\s*(\{[^}]*\}|"[^"]*"|[\w.]+)/g, '');
  const paths = [...pathsOnly.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '');
  return paths.length > 0 ? paths : [''];
}

function classPrefixes(text: string): string[] {
  const classAt = text.search(/\bclass\s+\w+/);
  const head = classAt < 0 ? text : text.slice(0, classAt);
  const mapping = /@RequestMapping\(([^)]*)\)/.exec(head);
  return mapping ? allPaths(mapping[1] ?? '') : [''];
}

function joinRoute(prefix: string, path: string): string {
  return `/${[prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

function endpoint(text: string, relPath: string, method: MutatingMethod, route: string, line: number): EndpointFinding {
  const signature = nextLineMatching(text, line + 1, /^[ \t]*(?!@)(?:[\w<>,?\s[\]]*\s)?(\w+)\s*\(/, 6);
  const end = signature ? braceBlockEnd(text, signature.line) : line;
  const header = signature ? sliceLines(text, signature.line, Math.min(end, signature.line + 4)) : '';
  const bodyType = /@RequestBody\s+(?:@\w+(?:\([^)]*\))?\s+)*(?:final\s+)?(\w+)\s+\w+|@RequestBody\s+(?:@\w+\s+)*\w+\s*:\s*(\w+)/.exec(header)
    ?? /@Valid\s+(?:@\w+(?:\([^)]*\))?\s+)*(?:final\s+)?(\w+)\s+\w+()/.exec(header)
    ?? /@ModelAttribute(?:\([^)]*\))?\s+(?:final\s+)?(\w+)\s+\w+()/.exec(header);
  const body = signature ? sliceLines(text, signature.line, end) : '';
  return {
    method,
    route,
    framework: 'spring',
    location: formatLocation(relPath, line),
    ...(signature ? { handler: signature.match[1] } : {}),
    bodyFields: [],
    ...(bodyType ? { bodyType: bodyType[1] ?? bodyType[2] } : {}),
    webhook: /webhook|\bipn\b/i.test(route) || /Webhook\.constructEvent|HMACValidator/.test(body),
    span: { start: signature?.line ?? line, end },
  };
}

/**
 * Scans one Java or Kotlin file.
 * @example scanJvm('src/main/java/PaymentController.java', '@PostMapping("/payments")\npublic Payment pay(@RequestBody PayReq r) {}').findings.endpoints
 */
export function scanJvm(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const shapes = jvmShapes(text);
  if (/(^|\/)src\/test\//.test(relPath) || /Tests?\.(java|kt)$/.test(relPath)) return { findings, shapes };
  const prefixes = classPrefixes(text);
  // Every class path × every method path: a mapping with two paths is two entry points.
  const routes = (args: string): string[] => prefixes.flatMap((prefix) => allPaths(args).map((path) => joinRoute(prefix, path)));
  for (const { match, line } of matchesWithLines(text, /@(Post|Put|Patch|Delete)Mapping\b(?:\(([^)]*)\))?/g)) {
    for (const route of routes(match[2] ?? '')) findings.endpoints.push(endpoint(text, relPath, MAPPING[match[1] ?? ''] as MutatingMethod, route, line));
  }
  for (const { match, line } of matchesWithLines(text, /@RequestMapping\(([^)]*method\s*=\s*[^)]*)\)/g)) {
    for (const method of (match[1] ?? '').matchAll(/RequestMethod\.(POST|PUT|PATCH|DELETE)/g)) {
      for (const route of routes((match[1] ?? '').replace(/method\s*=\s*(\{[^}]*\}|[\w.]+)/, ''))) findings.endpoints.push(endpoint(text, relPath, method[1] as MutatingMethod, route, line));
    }
  }
  // Spark: `post("/x", (request, response) -> { … })`.
  if (/import static spark\.Spark\.|spark\.Spark/.test(text)) {
    for (const { match, line } of matchesWithLines(text, /\b(post|put|patch|delete)\(\s*"([^"]+)"\s*,\s*\(/g)) {
      const end = braceBlockEnd(text, line);
      const body = sliceLines(text, line, end);
      findings.endpoints.push({
        method: (match[1] ?? '').toUpperCase() as MutatingMethod, route: match[2] ?? '/', framework: 'other', location: formatLocation(relPath, line),
        bodyFields: [], webhook: /webhook|\bipn\b/i.test(match[2] ?? '') || /Webhook\.constructEvent/.test(body), span: { start: line, end },
      });
    }
  }
  applyEffectRules(relPath, text, RULES, findings);
  findings.consumers.push(...scanJvmListeners(relPath, text));
  findings.schedulers.push(...scanJvmSchedules(relPath, text));
  // Topic constants are often declared in another file than the listener that names them.
  const settings = [...jvmConstants(text)].map(([name, value]) => ({ name: `const:${name}`, value, location: relPath }));
  return { findings, shapes, ...(settings.length > 0 ? { settings } : {}) };
}
