/**
 * Go by reliable patterns: gin/echo `r.POST("/x", h)` with `Group` prefixes, chi `r.Post` (also
 * after `r.With(mw)`) inside `Route`/`Group` closures and mounted routers (go-router-scopes.ts),
 * net/http 1.22 `mux.HandleFunc("POST /x", h)` / `mux.Handle("POST /x", http.HandlerFunc(h))`
 * and gorilla `.Methods("POST")`; struct json tags as
 * body shapes; stripe-go/Adyen calls; pgx, database/sql and go-redis clients; consumers and
 * schedules (kafka-go, sarama, amqp, NATS, SQS, robfig/cron, gocron, tickers) in go-consumers.ts.
 */
import { posix } from 'node:path';
import { formatLocation } from '../location.js';
import { emptyRouteFacts, type RouteFacts } from '../route-graph.js';
import { emptyFindings, type EndpointFinding, type Framework, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, type EffectRule } from './effect-rules.js';
import { scanGoConsumers, scanGoSchedules } from './go-consumers.js';
import { CHI_WITH_CHAIN, goImports, goRouterScopes, type GoRouterScopes } from './go-router-scopes.js';
import { braceBlockEnd, matchesWithLines, sliceLines } from './line-patterns.js';

const UPPER: Record<string, MutatingMethod> = { POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE' };
/** chi `r.Post("/x", h)`, also through `r.With(mw).Post(…)`; the handler may be wrapped in `http.HandlerFunc(…)`. */
const CHI_VERB = new RegExp(String.raw`\b(\w+)${CHI_WITH_CHAIN}\.(Post|Put|Patch|Delete)\(\s*"(\/[^"]*)"\s*,\s*(?:http\.HandlerFunc\(\s*)?([\w.]+)`, 'g');

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\b(paymentintent|charge|refund|payout|transfer|session)\.(New|Confirm|Capture)\(/, key: /SetIdempotencyKey|IdempotencyKey/, requires: /stripe-go/ },
  { kind: 'payment', value: 'stripe', pattern: /\.V1(PaymentIntents|Charges|Refunds|Payouts|Transfers)\.(Create|Confirm|Capture)\(/, key: /SetIdempotencyKey|IdempotencyKey/, requires: /stripe-go/ },
  { kind: 'payment', value: 'adyen', pattern: /\.(PaymentsApi|ModificationsApi|DonationsApi)\.(Payments|Donations|RefundCapturedPayment|CaptureAuthorisedPayment|CancelAuthorisedPaymentByPspReference|RefundOrCancelPayment|UpdateAuthorisedAmount)\(/, key: /IdempotencyKey/, requires: /adyen-go-api-library/ },
  { kind: 'database', value: 'postgresql', pattern: /\b(pgxpool\.New(WithConfig)?|pgx\.Connect|sql\.Open\(\s*"(postgres|pgx)")/ },
  { kind: 'database', value: 'mysql', pattern: /\bsql\.Open\(\s*"mysql"/ },
  { kind: 'database', value: 'sqlite', pattern: /\b(?:sql|gorm)\.Open\(\s*"sqlite3?"|gorm\/dialects\/sqlite"|gorm\.io\/driver\/sqlite"|sqlite\.Open\(/ },
  { kind: 'database', value: 'postgresql', pattern: /\bgorm\.Open\(\s*"postgres"|gorm\.io\/driver\/postgres"|postgres\.Open\(/ },
  { kind: 'database', value: 'mysql', pattern: /\bgorm\.Open\(\s*"mysql"|gorm\.io\/driver\/mysql"|mysql\.Open\(/ },
  { kind: 'database', value: 'redis', pattern: /\bredis\.(NewClient|NewClusterClient|NewUniversalClient)\(/ },
  { kind: 'broker', value: 'rabbitmq', pattern: /\bamqp\.Dial\(/ },
  { kind: 'broker', value: 'nats', pattern: /\bnats\.Connect\(/ },
];

/**
 * Struct types: name → JSON field names (tag names when present, else Go field names), top-level
 * fields only: a nested `User struct { … } \`json:"user"\`` is one field, `user`.
 */
function goShapes(text: string, relPath: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match, line } of matchesWithLines(text, /^type (\w+) struct \{/gm)) {
    const body = sliceLines(text, line + 1, braceBlockEnd(text, line) - 1).split('\n');
    const fields: string[] = [];
    let depth = 0;
    let nestedName: string | undefined;
    for (const raw of body) {
      const opens = (raw.match(/\{/g) ?? []).length;
      const closes = (raw.match(/\}/g) ?? []).length;
      if (depth === 0) {
        const nested = /^[ \t]*(\w+)\s+struct\s*\{/.exec(raw);
        const plain = /^[ \t]*(\w+)\s+[\w.*[\]]+(?:\s+`[^`]*json:"([\w-]+)[^`]*`)?/.exec(raw);
        // An embedded struct (`*pwdless.Account`): its fields are the outer struct's in JSON, unless a tag names it.
        const embedded = /^[ \t]*\*?(?:\w+\.)?([A-Z]\w*)\s*(?:`[^`]*?(?:json:"([\w-]*)[^`]*)?`)?\s*(?:\/\/.*)?$/.exec(raw);
        if (nested) nestedName = nested[1];
        else if (plain) fields.push(plain[2] ?? plain[1] ?? '');
        else if (embedded) fields.push(embedded[2] ? embedded[2] : `...${embedded[1] ?? ''}`);
      } else if (depth + opens - closes === 0 && nestedName) {
        // The closing line of a nested struct carries its tag: `} \`json:"user"\``.
        fields.push(/json:"([\w-]+)/.exec(raw)?.[1] ?? nestedName);
        nestedName = undefined;
      }
      depth += opens - closes;
    }
    const named = fields.filter((f) => f && f !== '-');
    if (named.length > 0) {
      shapes.set(match[1] ?? '', named);
      shapes.set(packageTypeName(relPath, match[1] ?? ''), named);
    }
  }
  return shapes;
}

/** `v1 := r.Group("/api/v1")` → prefix per variable, nested groups resolved in order, and the root variable. */
function groupPrefixes(text: string): { prefixes: Map<string, string>; roots: Map<string, string> } {
  const prefixes = new Map<string, string>();
  const roots = new Map<string, string>();
  for (const { match } of matchesWithLines(text, /(\w+)\s*:?=\s*(\w+)\.Group\(\s*"([^"]*)"/g)) {
    const base = match[2] ?? '';
    prefixes.set(match[1] ?? '', `${prefixes.get(base) ?? ''}${match[3] ?? ''}`);
    roots.set(match[1] ?? '', roots.get(base) ?? base);
  }
  return { prefixes, roots };
}

/**
 * Route groups passed into functions (`users.Register(v1.Group("/users"))`): mounts of the callee's
 * router parameter under the caller's group, plus chi's nesting (go-router-scopes.ts).
 */
function goRouteFacts(relPath: string, text: string, pkg: string, scopes: GoRouterScopes, groups: ReturnType<typeof groupPrefixes>): RouteFacts {
  const facts = emptyRouteFacts();
  const imports = goImports(text);
  const known = new Set([...groups.prefixes.keys(), ...matchesWithLines(text, /(\w+)\s*:?=\s*(?:gin\.(?:Default|New)|echo\.New|chi\.NewRouter|mux\.NewRouter|http\.NewServeMux|fiber\.New)\(/g).map((m) => m.match[1] ?? '')]);
  for (const { match, line, index } of matchesWithLines(text, /\b(?:(\w+)\.)?([A-Z]\w*|[a-z]\w*)\(\s*(\w+)(?:\.Group\(\s*"([^"]*)"\s*\))?\s*[,)]/g)) {
    const [, qualifier, callee, argVar, groupPath] = match;
    if (!callee || !argVar || callee === 'Group') continue;
    if (!known.has(argVar) && !scopes.isRouterParam(argVar, index)) continue;
    // `h.Register(v1)` on a value a package built (`h := handler.NewHandler(…)`): that package's method.
    const builtBy = qualifier && !imports.has(qualifier) ? new RegExp(`\\b${qualifier}\\s*:?=\\s*&?(\\w+)\\.\\w+\\s*[({]`).exec(text)?.[1] : undefined;
    const targetPkg = qualifier ? imports.get(qualifier) ?? (builtBy ? imports.get(builtBy) : undefined) : pkg;
    if (!targetPkg) continue;
    const prefix = `${groups.prefixes.get(argVar) ?? ''}${groupPath ?? ''}`;
    facts.mounts.push({ parent: scopes.nodeOf(argVar, index), child: `go:${targetPkg}#${callee}`, prefix, location: formatLocation(relPath, line) });
  }
  facts.mounts.push(...scopes.chiMounts());
  return facts;
}

function handlerSpan(text: string, handler: string): { line: number; end: number } | undefined {
  const name = handler.slice(handler.lastIndexOf('.') + 1);
  const found = matchesWithLines(text, new RegExp(`^func (?:\\([^)]*\\)\\s*)?${name}\\(`, 'gm'))[0];
  return found ? { line: found.line, end: braceBlockEnd(text, found.line) } : undefined;
}

/** The struct a handler body decodes: `var req T` + `ShouldBindJSON(&req)` / `Decode(&req)`. */
function decodedType(body: string): string | undefined {
  // gin/echo `c.ShouldBindJSON(&req)`, `json.NewDecoder(r.Body).Decode(&req)`, go-chi/render `render.Bind(r, data)` / `render.DecodeJSON(r.Body, &req)`.
  const decoded = /(?:Bind\w*|Decode)\(&(\w+)\)/.exec(body)?.[1] ?? /\brender\.(?:Bind|DecodeJSON)\(\s*[\w.]+\s*,\s*&?(\w+)\s*\)/.exec(body)?.[1];
  if (decoded) return new RegExp(`(?:var ${decoded}\\s+|${decoded}\\s*:=\\s*&?)(\\w+)`).exec(body)?.[1];
  // Validator objects: `v := NewUserModelValidator(); v.Bind(c)` binds the validator struct itself.
  const validator = /(\w+)\s*:=\s*New(\w+?)(?:FillWith\w*|From\w*)?\([^)]*\)[\s\S]*?\b\1\.Bind\(/.exec(body);
  return validator?.[2];
}

/** Every top-level func that decodes a body, by name, so routes in other files can use it. */
function handlerBodyTypes(text: string, relPath: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { match, line } of matchesWithLines(text, /^func (?:\([^)]*\)\s*)?(\w+)\(/gm)) {
    const type = decodedType(sliceLines(text, line, braceBlockEnd(text, line)));
    if (type) out.set(match[1] ?? '', ownType(relPath, type));
  }
  return out;
}

/**
 * A struct qualified by its package's folder (`tokenRequest@auth/pwdless`): two packages of one
 * module often declare a `tokenRequest` each, and a body must take the fields of its own package's.
 */
const packageTypeName = (relPath: string, type: string): string => `${type}@${posix.dirname(relPath)}`;

/** The body type a handler decodes: its own package's struct first, else one of that name elsewhere. */
const ownType = (relPath: string, type: string): string => `${packageTypeName(relPath, type)}|${type}`;

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
    ...(declared ? { bodyType: ownType(relPath, declared) } : {}),
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
  const shapes = goShapes(text, relPath);
  if (relPath.endsWith('_test.go')) return { findings, shapes };
  const usesGin = /gin-gonic\/gin/.test(text);
  const framework: Framework = usesGin ? 'gin' : /labstack\/echo/.test(text) ? 'other' : 'net-http';
  const groups = groupPrefixes(text);
  const { prefixes } = groups;
  const pkg = /^package\s+(\w+)/m.exec(text)?.[1] ?? 'main';
  const scopes = goRouterScopes(relPath, text, pkg, groups.roots);
  for (const { match, line, index } of matchesWithLines(text, /\b(\w+)\.(POST|PUT|PATCH|DELETE)\(\s*"(\/?[^"]*)"\s*,\s*(?:[\w.]+\(\)\s*,\s*)*([\w.]+)/g)) {
    const route = `${prefixes.get(match[1] ?? '') ?? ''}${match[3] ?? ''}`;
    findings.endpoints.push({ ...endpoint(text, relPath, { method: UPPER[match[2] ?? ''] as MutatingMethod, route, framework, line, handler: match[4] }), scope: scopes.nodeOf(match[1] ?? '', index) });
  }
  for (const { match, line, index } of matchesWithLines(text, CHI_VERB)) {
    const route = `${prefixes.get(match[1] ?? '') ?? ''}${match[3] ?? ''}`;
    findings.endpoints.push({ ...endpoint(text, relPath, { method: UPPER[(match[2] ?? '').toUpperCase()] as MutatingMethod, route, framework: /labstack\/echo|gofiber/.test(text) ? 'other' : 'net-http', line, handler: match[4] }), scope: scopes.nodeOf(match[1] ?? '', index) });
  }
  // Go 1.22 method patterns; `Handle` takes a handler value, often `http.HandlerFunc(h)` around the function.
  for (const { match, line } of matchesWithLines(text, /\.Handle(?:Func)?\(\s*"(POST|PUT|PATCH|DELETE)\s+([^"]+)"\s*,\s*(?:http\.HandlerFunc\(\s*)?([\w.]+)/g)) {
    findings.endpoints.push(endpoint(text, relPath, { method: UPPER[match[1] ?? ''] as MutatingMethod, route: match[2] ?? '/', framework: 'net-http', line, handler: match[3] }));
  }
  for (const { match, line } of matchesWithLines(text, /\.HandleFunc\(\s*"(\/[^"]*)"\s*,\s*([\w.]+)\)\.Methods\(([^)]*)\)/g)) {
    for (const method of (match[3] ?? '').matchAll(/"(POST|PUT|PATCH|DELETE)"/g)) {
      findings.endpoints.push(endpoint(text, relPath, { method: method[1] as MutatingMethod, route: match[1] ?? '/', framework: 'net-http', line, handler: match[2] }));
    }
  }
  // `http.HandleFunc("/x", h)` without a method in the pattern: the handler decides. A POST check
  // (`r.Method != "POST"`), or no method check at all while the body is read, makes it a POST.
  for (const { match, line } of matchesWithLines(text, /\.HandleFunc\(\s*"(\/[^"\s]*)"\s*,\s*(?:(func)\s*\(|([\w.]+)\s*\))/g)) {
    const route = match[1] ?? '/';
    const named = match[3];
    const span = named ? handlerSpan(text, named) : { line, end: braceBlockEnd(text, line) };
    if (!span) continue;
    const body = sliceLines(text, span.line, span.end);
    const checksPost = /Method\s*[!=]=\s*(?:"POST"|http\.MethodPost)|case\s+(?:"POST"|http\.MethodPost)/.test(body);
    const checksOther = /Method\s*[!=]=\s*(?:"(GET|PUT|PATCH|DELETE)"|http\.Method(Get|Put|Patch|Delete))/.test(body);
    const readsBody = /\br\.Body\b|ParseForm\(|FormValue\(/.test(body);
    // A handler that creates something at a payment provider mutates, whatever method reaches it.
    const createsAtProvider = /\b(?:paymentintent|session|charge|refund|customer|subscription)\.New\(/.test(body);
    if (!checksPost && (checksOther || !(readsBody || createsAtProvider))) continue;
    findings.endpoints.push({ ...endpoint(text, relPath, { method: 'POST', route, framework: 'net-http', line, ...(named ? { handler: named } : {}) }),
      ...(named ? {} : { span: { start: span.line, end: span.end } }), webhook: /webhook|\bipn\b/i.test(route) || /webhook\.ConstructEvent/.test(body) });
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
  findings.consumers.push(...scanGoConsumers(relPath, text));
  findings.schedulers.push(...scanGoSchedules(relPath, text));
  return { findings, shapes, handlerBodyTypes: handlerBodyTypes(text, relPath), routeFacts: goRouteFacts(relPath, text, pkg, scopes, groups) };
}
