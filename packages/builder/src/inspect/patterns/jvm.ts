/**
 * Java and Kotlin (Spring) by reliable patterns: `@PostMapping`/`@PutMapping`/... and
 * `@RequestMapping(method = POST)` under a class-level prefix, `@RequestBody` DTO types (records,
 * classes, data classes), Stripe/Adyen/PayPal SDK calls, `@RabbitListener`/`@KafkaListener`/
 * `@SqsListener`/`@JmsListener` and `@Scheduled` (jvm-listeners.ts). Mappings declared on an
 * interface are resolved against the controllers implementing it, and modules' context paths
 * applied, once every file is read (jvm-spring-routes.ts).
 */
import { formatLocation, lineAtOffset } from '../location.js';
import { emptyFindings, type EndpointFinding, type MutatingMethod, type ScanResult } from '../types.js';
import { maskCode } from './code-mask.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { jvmConstants, scanJvmListeners, scanJvmSchedules } from './jvm-listeners.js';
import { jvmShapes } from './jvm-shapes.js';
import { mainJvmType, SPRING_IMPLEMENTS, SPRING_INTERFACE_NODE, springModuleNode, type JvmTypeDeclaration } from './jvm-source.js';
import { braceBlockEnd, callText, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

/** `@PostMapping`, and `@PostExchange` of an HTTP interface (a client, or since Spring 6.1 a controller's contract). */
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

/** Every path of a mapping (`@PostMapping({"/a", "/b"})`, `value =`, `path =`, `url =`), other attributes left out. */
function allPaths(args: string): string[] {
  const pathsOnly = args.replace(/\b(produces|consumes|params|headers|name|method|contentType|accept|version)\s*=\s*(\{[^}]*\}|\[[^\]]*\]|"[^"]*"|[\w.]+)/g, '');
  const paths = [...pathsOnly.matchAll(/"([^"]*)"/g)].map((m) => m[1] ?? '');
  return paths.length > 0 ? paths : [''];
}

/**
 * The methods a `method =` attribute names: `RequestMethod.POST`, a statically imported `POST`,
 * `{POST, PUT}`, Kotlin's `[RequestMethod.POST]`, `@HttpExchange`'s `"POST"`.
 */
function requestMethods(args: string): MutatingMethod[] {
  const value = /\bmethod\s*=\s*(\{[^}]*\}|\[[^\]]*\]|"[^"]*"|[\w.]+)/.exec(args)?.[1] ?? '';
  return [...new Set([...value.matchAll(/\b(POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1] as MutatingMethod))];
}

/** The arguments of the annotation whose name ends at `after` (without parentheses), or '' when it has none. */
function annotationArgs(code: string, after: number): string {
  return /^\s*\(/.test(code.slice(after, after + 40)) ? callText(code, after).replace(/^[^(]*\(/, '').replace(/\)$/, '') : '';
}

/** The type-level `@RequestMapping`/`@HttpExchange` paths, read from the annotations before the type's keyword (comments blanked: a `class` in a Javadoc is no declaration). */
function classPrefixes(code: string, type: JvmTypeDeclaration | undefined): string[] {
  if (!type) return [''];
  const mapping = /@(?:RequestMapping|HttpExchange)\b/.exec(code.slice(type.headStart, type.index));
  return mapping ? allPaths(annotationArgs(code, type.headStart + mapping.index + mapping[0].length)) : [''];
}

function joinRoute(prefix: string, path: string): string {
  return `/${[prefix, path].map((part) => part.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;
}

/**
 * One Spring endpoint: the handler is the first method signature at or after `signatureFrom`
 * (the line after its annotation), its body type the `@RequestBody` (else `@Valid`/`@ModelAttribute`) parameter.
 */
export function springEndpoint(text: string, relPath: string, method: MutatingMethod, route: string, line: number, signatureFrom = line + 1): EndpointFinding {
  const signature = nextLineMatching(text, signatureFrom, /^[ \t]*(?!@)(?:[\w<>,?\s[\]]*\s)?(\w+)\s*\(/, 6);
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
  // Comments blanked: a commented-out mapping is no route, a `class` in a Javadoc no declaration.
  const code = maskCode(text, 'jvm');
  const type = mainJvmType(text, code.search(/@(?:(?:Post|Put|Patch|Delete|Request)Mapping|(?:Post|Put|Patch|Delete|Http)Exchange)\b/));
  const prefixes = classPrefixes(code, type);
  // Mappings on an interface are a client (`@FeignClient`, an HTTP interface) unless a controller
  // implements it; jvm-spring-routes.ts decides once every file is read. Else the module's node,
  // under which its `server.servlet.context-path` is mounted (jvm-spring-config.ts).
  const scope = type?.kind === 'interface' ? `${SPRING_INTERFACE_NODE}${type.name}` : springModuleNode(relPath);
  const inHead = (index: number): boolean => type !== undefined && index >= type.headStart && index < type.index;
  // Every class path × every method path: a mapping with two paths is two entry points.
  const routes = (args: string): string[] => prefixes.flatMap((prefix) => allPaths(args).map((path) => joinRoute(prefix, path)));
  const add = (method: MutatingMethod, args: string, line: number): void => {
    for (const route of routes(args)) findings.endpoints.push({ ...springEndpoint(code, relPath, method, route, line), ...(scope ? { scope } : {}) });
  };
  for (const { match, line, index } of matchesWithLines(code, /@(Post|Put|Patch|Delete)(?:Mapping|Exchange)\b/g)) {
    add(MAPPING[match[1] ?? ''] as MutatingMethod, annotationArgs(code, index + match[0].length), line);
  }
  for (const { match, line, index } of matchesWithLines(code, /@(?:RequestMapping|HttpExchange)\b/g)) {
    if (inHead(index)) continue;
    const args = annotationArgs(code, index + match[0].length);
    for (const method of requestMethods(args)) add(method, args, line);
  }
  // A controller implementing an API interface answers that interface's mappings.
  const controller = type?.kind === 'class' && /@(?:RestController|Controller)\b/.test(code.slice(type.headStart, type.index));
  const implemented = controller && type ? type.supertypes.map((name) => ({ name: `${SPRING_IMPLEMENTS}${name}`, value: relPath, location: formatLocation(relPath, lineAtOffset(text, type.index)) })) : [];
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
  const settings = [...[...jvmConstants(text)].map(([name, value]) => ({ name: `const:${name}`, value, location: relPath })), ...implemented];
  return { findings, shapes, ...(settings.length > 0 ? { settings } : {}) };
}
