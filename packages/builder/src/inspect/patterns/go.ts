/**
 * Go by reliable patterns: gin/echo `r.POST("/x", h)` with `Group` prefixes, chi `r.Post`,
 * net/http 1.22 `mux.HandleFunc("POST /x", h)` and gorilla `.Methods("POST")`; struct json tags as
 * body shapes; stripe-go/Adyen calls; amqp, NATS, kafka-go and SQS consumers; robfig/cron and
 * tickers; pgx, database/sql and go-redis clients.
 */
import { formatLocation } from '../location.js';
import { emptyFindings, type EndpointFinding, type Framework, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { braceBlockEnd, matchesWithLines, sliceLines } from './line-patterns.js';

const UPPER: Record<string, MutatingMethod> = { POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE' };

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\b(paymentintent|charge|refund|payout|transfer|session)\.(New|Confirm|Capture)\(/, key: /SetIdempotencyKey|IdempotencyKey/, requires: /stripe-go/ },
  { kind: 'payment', value: 'stripe', pattern: /\.V1(PaymentIntents|Charges|Refunds|Payouts|Transfers)\.(Create|Confirm|Capture)\(/, key: /SetIdempotencyKey|IdempotencyKey/, requires: /stripe-go/ },
  { kind: 'payment', value: 'adyen', pattern: /\.(PaymentsApi|ModificationsApi)\.(Payments|RefundCapturedPayment|CaptureAuthorisedPayment)\(/, key: /IdempotencyKey/, requires: /adyen-go-api-library/ },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\.Consume\(\s*(?:"([^"]+)")?/, channel: 1, requires: /amqp091-go|streadway\/amqp/ },
  { kind: 'consumer', value: 'nats', pattern: /\.(?:Queue)?Subscribe\(\s*"([^"]+)"/, channel: 1, requires: /nats\.go/ },
  { kind: 'consumer', value: 'kafka', pattern: /\.(?:ReadMessage|FetchMessage)\(/, requires: /kafka-go/ },
  { kind: 'consumer', value: 'sqs', pattern: /\.ReceiveMessage\(/, requires: /service\/sqs/ },
  { kind: 'scheduler', value: 'robfig/cron', pattern: /\.(?:AddFunc|AddJob)\(\s*"([^"]+)"/, schedule: 1, requires: /robfig\/cron/ },
  { kind: 'scheduler', value: 'time.Ticker', pattern: /\btime\.(?:NewTicker|Tick)\(([^)]*)\)/, schedule: 1 },
  { kind: 'database', value: 'postgresql', pattern: /\b(pgxpool\.New(WithConfig)?|pgx\.Connect|sql\.Open\(\s*"(postgres|pgx)")/ },
  { kind: 'database', value: 'mysql', pattern: /\bsql\.Open\(\s*"mysql"/ },
  { kind: 'database', value: 'sqlite', pattern: /\bsql\.Open\(\s*"sqlite3?"/ },
  { kind: 'database', value: 'redis', pattern: /\bredis\.(NewClient|NewClusterClient|NewUniversalClient)\(/ },
  { kind: 'broker', value: 'rabbitmq', pattern: /\bamqp\.Dial\(/ },
  { kind: 'broker', value: 'nats', pattern: /\bnats\.Connect\(/ },
];

/** Struct types: name → JSON field names (tag names when present, else Go field names). */
function goShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match, line } of matchesWithLines(text, /^type (\w+) struct \{/gm)) {
    const body = sliceLines(text, line + 1, braceBlockEnd(text, line) - 1);
    const fields = [...body.matchAll(/^[ \t]*(\w+)\s+[\w.*[\]]+(?:\s+`[^`]*json:"([\w-]+)[^`]*`)?/gm)]
      .map((m) => m[2] ?? m[1] ?? '').filter((f) => f && f !== '-');
    if (fields.length > 0) shapes.set(match[1] ?? '', fields);
  }
  return shapes;
}

/** `v1 := r.Group("/api/v1")` → prefix per variable, nested groups resolved in order. */
function groupPrefixes(text: string): Map<string, string> {
  const prefixes = new Map<string, string>();
  for (const { match } of matchesWithLines(text, /(\w+)\s*:?=\s*(\w+)\.Group\(\s*"([^"]*)"/g)) {
    prefixes.set(match[1] ?? '', `${prefixes.get(match[2] ?? '') ?? ''}${match[3] ?? ''}`);
  }
  return prefixes;
}

function handlerSpan(text: string, handler: string): { line: number; end: number } | undefined {
  const name = handler.slice(handler.lastIndexOf('.') + 1);
  const found = matchesWithLines(text, new RegExp(`^func (?:\\([^)]*\\)\\s*)?${name}\\(`, 'gm'))[0];
  return found ? { line: found.line, end: braceBlockEnd(text, found.line) } : undefined;
}

/** The struct a handler body decodes: `var req T` + `ShouldBindJSON(&req)` / `Decode(&req)`. */
function decodedType(body: string): string | undefined {
  const decoded = /(?:Bind\w*|Decode)\(&(\w+)\)/.exec(body)?.[1];
  return decoded ? new RegExp(`(?:var ${decoded}\\s+|${decoded}\\s*:=\\s*&?)(\\w+)`).exec(body)?.[1] : undefined;
}

/** Every top-level func that decodes a body, by name, so routes in other files can use it. */
function handlerBodyTypes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { match, line } of matchesWithLines(text, /^func (?:\([^)]*\)\s*)?(\w+)\(/gm)) {
    const type = decodedType(sliceLines(text, line, braceBlockEnd(text, line)));
    if (type) out.set(match[1] ?? '', type);
  }
  return out;
}

function endpoint(text: string, relPath: string, spec: { method: MutatingMethod; route: string; framework: Framework; line: number; handler?: string }): EndpointFinding {
  const span = spec.handler ? handlerSpan(text, spec.handler) : undefined;
  const body = span ? sliceLines(text, span.line, span.end) : '';
  const declared = decodedType(body);
  return {
    method: spec.method,
    route: spec.route,
    framework: spec.framework,
    location: formatLocation(relPath, spec.line),
    ...(spec.handler ? { handler: spec.handler.slice(spec.handler.lastIndexOf('.') + 1) } : {}),
    bodyFields: [],
    ...(declared ? { bodyType: declared } : {}),
    webhook: /webhook|\bipn\b/i.test(spec.route) || /webhook\.ConstructEvent/.test(body),
    ...(span ? { span: { start: span.line, end: span.end } } : {}),
  };
}

/**
 * Scans one Go file.
 * @example scanGo('main.go', 'r := gin.Default()\nr.POST("/payments", createPayment)').findings.endpoints // POST /payments
 */
export function scanGo(relPath: string, text: string): ScanResult {
  const findings = emptyFindings();
  const shapes = goShapes(text);
  if (relPath.endsWith('_test.go')) return { findings, shapes };
  const usesGin = /gin-gonic\/gin/.test(text);
  const framework: Framework = usesGin ? 'gin' : /labstack\/echo/.test(text) ? 'other' : 'net-http';
  const prefixes = groupPrefixes(text);
  for (const { match, line } of matchesWithLines(text, /\b(\w+)\.(POST|PUT|PATCH|DELETE)\(\s*"(\/[^"]*)"\s*,\s*([\w.]+)/g)) {
    const route = `${prefixes.get(match[1] ?? '') ?? ''}${match[3] ?? ''}`;
    findings.endpoints.push(endpoint(text, relPath, { method: UPPER[match[2] ?? ''] as MutatingMethod, route, framework, line, handler: match[4] }));
  }
  for (const { match, line } of matchesWithLines(text, /\b(\w+)\.(Post|Put|Patch|Delete)\(\s*"(\/[^"]*)"\s*,\s*([\w.]+)/g)) {
    const route = `${prefixes.get(match[1] ?? '') ?? ''}${match[3] ?? ''}`;
    findings.endpoints.push(endpoint(text, relPath, { method: UPPER[(match[2] ?? '').toUpperCase()] as MutatingMethod, route, framework: 'net-http', line, handler: match[4] }));
  }
  for (const { match, line } of matchesWithLines(text, /\.HandleFunc\(\s*"(POST|PUT|PATCH|DELETE)\s+([^"]+)"\s*,\s*([\w.]+)/g)) {
    findings.endpoints.push(endpoint(text, relPath, { method: UPPER[match[1] ?? ''] as MutatingMethod, route: match[2] ?? '/', framework: 'net-http', line, handler: match[3] }));
  }
  for (const { match, line } of matchesWithLines(text, /\.HandleFunc\(\s*"(\/[^"]*)"\s*,\s*([\w.]+)\)\.Methods\(([^)]*)\)/g)) {
    for (const method of (match[3] ?? '').matchAll(/"(POST|PUT|PATCH|DELETE)"/g)) {
      findings.endpoints.push(endpoint(text, relPath, { method: method[1] as MutatingMethod, route: match[1] ?? '/', framework: 'net-http', line, handler: match[2] }));
    }
  }
  if (!usesGin && findings.endpoints.length === 0 && /\bhttp\.(HandleFunc|NewServeMux|ListenAndServe)\(/.test(text)) {
    const line = matchesWithLines(text, /\bhttp\.(HandleFunc|NewServeMux|ListenAndServe)\(/g)[0]?.line ?? 1;
    findings.frameworks.push({ value: 'net-http', location: formatLocation(relPath, line), evidence: 'net/http server' });
  }
  if (findings.endpoints[0]) {
    const first = findings.endpoints[0];
    findings.frameworks.push({ value: first.framework, location: first.location, evidence: `${first.method} ${first.route}` });
  }
  applyEffectRules(relPath, text, RULES, findings);
  return { findings, shapes, handlerBodyTypes: handlerBodyTypes(text) };
}
