/**
 * Python by reliable patterns: FastAPI/Flask route decorators (with APIRouter/Blueprint prefixes),
 * Django REST `@api_view` and class-based view methods (urls.py in python-django-urls.ts), Pydantic
 * models as body shapes, payment SDK calls, consumers (pika, aio-pika, Kafka, NATS, SQS; Celery
 * tasks in python-celery.ts), schedules (Celery beat, APScheduler, schedule: python-schedules.ts),
 * clients.
 */
import { formatLocation } from '../location.js';
import { emptyRouteFacts, type ModuleRef, type RouteFacts } from '../route-graph.js';
import { emptyFindings, type EndpointFinding, type Framework, type MutatingMethod, type ScanResult } from '../types.js';
import { applyEffectRules, PAYPAL_REST_PATH, restLabel, STRIPE_REST_PATH, type EffectRule } from './effect-rules.js';
import { pythonGraphqlFacts, scanPythonGraphql, withoutTransports } from './python-graphql.js';
import { celerySettings, scanCeleryTasks } from './python-celery.js';
import { djangoUrlFacts } from './python-django-urls.js';
import { scanPythonSchedules } from './python-schedules.js';
import { indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';

const METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
const VIEWSET: Record<string, MutatingMethod> = { create: 'POST', update: 'PUT', partial_update: 'PATCH', destroy: 'DELETE' };

const RULES: readonly EffectRule[] = [
  { kind: 'payment', value: 'stripe', pattern: /\bstripe\.(PaymentIntent|Charge|Refund|Payout|Transfer|Subscription|Customer|checkout\.Session)\.(create|confirm|capture)\(/, key: /idempotency_key\s*=/, fix: { argument: 'idempotency_key={{KEY}}' } },
  { kind: 'payment', value: 'stripe', pattern: /\.v1\.(payment_intents|charges|refunds|payouts|transfers|checkout\.sessions)\.(create|confirm|capture)\(/, key: /idempotency_key/ },
  { kind: 'payment', value: 'adyen', pattern: /\.(payments_api|modifications_api|donations_api)\.(payments|donations|refund_captured_payment|capture_authorised_payment|cancel_authorised_payment_by_psp_reference|cancel_authorised_payment|refund_or_cancel_payment|update_authorised_amount)\(|adyen\.checkout\.payments\(/, key: /idempotency_key|Idempotency-Key/, requires: /import Adyen|from Adyen|import adyen/, fix: { argument: 'idempotency_key={{KEY}}' } },
  // Braintree: `api_request_key` is its At-Most-Once key (braintree 4.43+); a sale without one gets the derived key as `order_id`.
  { kind: 'payment', value: 'braintree', pattern: /\bbraintree\.Transaction\.(sale|refund|submit_for_settlement|submit_for_partial_settlement|credit)\(|\b\w+\.transaction\.(sale|refund|submit_for_settlement|submit_for_partial_settlement|credit)\(/, key: /api_request_key/, requires: /import braintree|from braintree/, fix: { entry: '"order_id": {{KEY}}', unless: /order_id/ } },
  { kind: 'payment', value: 'paypal', pattern: new RegExp(String.raw`\b(requests|httpx|session|client|http)\.post\(\s*f?(["'])[^"'\n]*?(${PAYPAL_REST_PATH})\2`), key: /PayPal-Request-Id/i, label: (m) => restLabel(m[1] ?? 'requests', m[3] ?? '') },
  { kind: 'payment', value: 'stripe', pattern: new RegExp(String.raw`\b(requests|httpx|session|client|http)\.post\(\s*f?(["'])[^"'\n]*?api\.stripe\.com(${STRIPE_REST_PATH})\2`), key: /Idempotency-Key/i, label: (m) => restLabel(m[1] ?? 'requests', m[3] ?? '') },
  // PayPal server SDK: `"paypal_request_id": k` in the options dict, often built in a variable before the call.
  { kind: 'payment', value: 'paypal', pattern: /\b(orders_controller|orders)\.(create_order|capture_order|authorize_order)\(|paypalrestsdk\.Payment\(/, key: /pay_pal_request_id|paypal_request_id|PayPal-Request-Id/i, requires: /paypal/i },
  // paypalcheckoutsdk: `request.pay_pal_request_id(k)` or `request.headers["PayPal-Request-Id"] = k` before `client.execute(request)`.
  { kind: 'payment', value: 'paypal', pattern: /\b(Orders(?:Create|Capture|Authorize)|CapturesRefund|AuthorizationsCapture)Request\(/, key: /pay_pal_request_id|PayPal-Request-Id/i, requires: /paypal/i, construction: true },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\.basic_consume\(\s*(?:queue\s*=\s*)?(?:["']([\w.-]+))?/, channel: 1 },
  { kind: 'consumer', value: 'rabbitmq', pattern: /\bawait\s+\w+\.consume\(|\basync with \w+\.iterator\(/, requires: /aio_pika/ },
  { kind: 'consumer', value: 'kafka', pattern: /\b(?:AIO)?KafkaConsumer\(\s*["']([^"']+)/, channel: 1 },
  { kind: 'consumer', value: 'kafka', pattern: /\.subscribe\(\s*\[\s*["']([^"']+)/, requires: /confluent_kafka/, channel: 1 },
  { kind: 'consumer', value: 'nats', pattern: /\.subscribe\(\s*["']([^"']+)/, requires: /import nats|from nats/, channel: 1 },
  { kind: 'consumer', value: 'sqs', pattern: /\.receive_message\(\s*QueueUrl\s*=\s*["']?([^"',)]*)/, channel: 1 },
  { kind: 'database', value: 'postgresql', pattern: /\b(psycopg2?\.connect|asyncpg\.(connect|create_pool)|create(_async)?_engine\(\s*["']postgres)/ },
  { kind: 'database', value: 'mysql', pattern: /\b(pymysql\.connect|aiomysql\.|create(_async)?_engine\(\s*["']mysql)/ },
  { kind: 'database', value: 'redis', pattern: /\b(redis|aioredis)\.(Redis|StrictRedis|from_url)\(/ },
  { kind: 'database', value: 'mongodb', pattern: /\bMongoClient\(/ },
  { kind: 'broker', value: 'rabbitmq', pattern: /\b(pika\.BlockingConnection|aio_pika\.connect(_robust)?)\(/ },
];

/** Receiver variables bound to an app or router, with the route prefix each adds. */
function routers(text: string): Map<string, { framework: Framework; prefix: string }> {
  const out = new Map<string, { framework: Framework; prefix: string }>();
  for (const { match } of matchesWithLines(text, /^(\w+)\s*=\s*(FastAPI|APIRouter|Flask|Blueprint)\(([^)]*)\)/gm)) {
    const framework: Framework = match[2] === 'Flask' || match[2] === 'Blueprint' ? 'flask' : 'fastapi';
    const prefix = /(?:url_)?prefix\s*=\s*["']([^"']*)["']/.exec(match[3] ?? '')?.[1] ?? '';
    out.set(match[1] ?? '', { framework, prefix });
  }
  return out;
}

/** Base classes whose subclasses are request shapes. */
const SHAPE_BASES = /^(?:[\w.]*BaseModel|SQLModel|Schema|TypedDict|[\w.]*Serializer|[\w.]*ModelSerializer|Struct)$/;

/**
 * Pydantic/SQLModel models, dataclasses, TypedDicts and serializers: class name → annotated
 * field names. A class that extends another (`class ItemCreate(ItemBase)`) lists `...ItemBase`,
 * which the inspector expands once every file's classes are known.
 */
function pythonShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  for (const { match, line } of matchesWithLines(text, /^class (\w+)\(([^)]*)\):/gm)) {
    const bases = (match[2] ?? '').split(',').map((b) => b.trim()).filter((b) => b && !b.includes('='));
    const direct = bases.some((b) => SHAPE_BASES.test(b));
    const dataclass = /@dataclass[^\n]*\n\s*$/.test(text.slice(0, text.indexOf(match[0])));
    const body = sliceLines(text, line + 1, indentBlockEnd(text, line));
    const fields = [...body.matchAll(/^[ \t]{2,}(\w+)[ \t]*(?::[ \t]*[^=\s][^=\n]*|=\s*serializers\.\w+)/gm)]
      .map((m) => m[1] ?? '').filter((f) => f && f !== 'model_config' && !/^(Meta|objects)$/.test(f));
    const inherited = direct ? [] : bases.filter((b) => /^[A-Z]\w*$/.test(b)).map((b) => `...${b}`);
    if (direct || dataclass || inherited.length > 0) shapes.set(match[1] ?? '', [...inherited, ...fields]);
  }
  return shapes;
}

/** Fields read from the request inside a handler: `request.json["x"]`, `data.get("x")`, `payload.x`. */
function handlerFields(body: string): string[] {
  const fields: string[] = [];
  const bound = new Set<string>(['request.json', 'request.data', 'request.form']);
  for (const m of body.matchAll(/(\w+)\s*=\s*(?:await\s+)?(request\.(?:get_json\(\)|json\(\)|json|data|form)|json\.loads\(request\.body\))/g)) bound.add(m[1] ?? '');
  for (const name of bound) {
    const escaped = name.replace('.', '\\.');
    for (const m of body.matchAll(new RegExp(`${escaped}(?:\\[["'](\\w+)["']\\]|\\.get\\(\\s*["'](\\w+)["'])`, 'g'))) {
      const field = m[1] ?? m[2];
      if (field && !fields.includes(field)) fields.push(field);
    }
  }
  return fields;
}

/** Last line of a `def` whose signature may span lines (`def f(\n  a: A,\n) -> R:`). */
function defBlockEnd(text: string, defLine: number): number {
  const lines = text.split('\n');
  const header = lines[defLine - 1] ?? '';
  const base = header.length - header.trimStart().length;
  let close = defLine;
  while (close < lines.length && close < defLine + 15 && !/\)\s*(->\s*[^:]+)?:\s*(#.*)?$/.test(lines[close - 1] ?? '')) close += 1;
  let last = close;
  for (let i = close; i < lines.length; i += 1) {
    const current = lines[i] ?? '';
    if (current.trim() === '') continue;
    if (current.length - current.trimStart().length <= base) break;
    last = i + 1;
  }
  return last;
}

function endpoint(text: string, relPath: string, spec: { method: MutatingMethod; route: string; framework: Framework; line: number }): EndpointFinding {
  const def = nextLineMatching(text, spec.line, /^[ \t]*(?:async\s+)?def (\w+)\(/, 12);
  const end = def ? defBlockEnd(text, def.line) : spec.line;
  const body = def ? sliceLines(text, def.line, end) : '';
  const fields = handlerFields(body);
  // Parameters may span lines: read up to the closing parenthesis of the signature.
  const params = def ? /\(([^)]*)\)/.exec(sliceLines(text, def.line, def.line + 12))?.[1] ?? '' : '';
  const candidates = [...params.matchAll(/(\w+)\s*:\s*([A-Z]\w*)/g)].map((m) => m[2] ?? '').filter((t) => !/^(Request|Response|Session|AsyncSession|BackgroundTasks|Depends|Header|Optional|Query|Path|Cookie)$/.test(t));
  // Every typed parameter is a candidate; the inspector keeps the one that is a known model.
  const typed = candidates.length > 0 ? candidates.join('|') : undefined;
  const queryFields = [...params.matchAll(/(\w+)\s*:[^,=]*=\s*Query\(/g)].map((m) => m[1] ?? '');
  return {
    method: spec.method,
    route: spec.route,
    framework: spec.framework,
    location: formatLocation(relPath, spec.line),
    ...(def ? { handler: def.match[1] } : {}),
    bodyFields: fields,
    ...(typed ? { bodyType: typed } : {}),
    ...(queryFields.length > 0 ? { queryFields } : {}),
    webhook: /webhook|\bipn\b/i.test(spec.route) || /construct_event|verify_webhook_signature|is_valid_hmac/.test(body),
    span: { start: def?.line ?? spec.line, end },
  };
}

function scanRoutes(relPath: string, text: string, out: EndpointFinding[]): void {
  const bound = routers(text);
  const defaultFramework: Framework = /from fastapi|import fastapi/.test(text) ? 'fastapi' : /from flask|import flask/.test(text) ? 'flask' : 'django';
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@(\w+)\.(post|put|patch|delete)\(\s*["']([^"']*)["']/gm)) {
    const router = bound.get(match[1] ?? '');
    if (!router && defaultFramework === 'django') continue;
    const route = `${router?.prefix ?? ''}${match[3] ?? ''}` || '/';
    out.push({ ...endpoint(text, relPath, { method: METHOD[match[2] ?? ''] as MutatingMethod, route, framework: router?.framework ?? defaultFramework, line }), scope: `${relPath}#${match[1] ?? ''}` });
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@(\w+)\.(?:route|api_route)\(\s*["']([^"']*)["'][^)]*methods\s*=\s*\[([^\]]*)\]/gm)) {
    const router = bound.get(match[1] ?? '');
    const route = `${router?.prefix ?? ''}${match[2] ?? ''}` || '/';
    for (const method of (match[3] ?? '').match(/\w+/g) ?? []) {
      const upper = METHOD[method.toLowerCase()];
      if (upper) out.push({ ...endpoint(text, relPath, { method: upper, route, framework: router?.framework ?? defaultFramework, line }), scope: `${relPath}#${match[1] ?? ''}` });
    }
  }
  // Django views get their path from urls.py (`path(...)`, DRF `router.register(...)`): the route
  // here is the part below the view's mount, and the scope names the view.
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@api_view\(\s*\[([^\]]*)\]/gm)) {
    const def = nextLineMatching(text, line, /def (\w+)\(/);
    for (const method of (match[1] ?? '').match(/\w+/g) ?? []) {
      const upper = METHOD[method.toLowerCase()];
      if (upper && def) out.push({ ...endpoint(text, relPath, { method: upper, route: '', framework: 'django', line }), scope: `django:view:${def.match[1] ?? ''}` });
    }
  }
  for (const { match, line } of matchesWithLines(text, /^class (\w+)\([^)]*(?:APIView|View|ViewSet|GenericAPIView|Mixin)[^)]*\):/gm)) {
    const body = sliceLines(text, line, indentBlockEnd(text, line));
    const scope = `django:view:${match[1] ?? ''}`;
    // A router's detail routes carry the view's lookup (`lookup_field = "slug"` → `{slug}`), `pk` by default.
    const lookup = `/{${/^[ \t]+lookup_url_kwarg\s*=\s*["'](\w+)/m.exec(body)?.[1] ?? /^[ \t]+lookup_field\s*=\s*["'](\w+)/m.exec(body)?.[1] ?? 'pk'}}`;
    for (const method of matchesWithLines(body, /^[ \t]+def (post|put|patch|delete|create|update|partial_update|destroy)\(self/gm)) {
      const name = method.match[1] ?? '';
      const upper = METHOD[name] ?? VIEWSET[name];
      // A router adds the lookup to a ViewSet's detail actions; a generic view (`DestroyAPIView`) routed
      // by `as_view()` has its whole path, parameters included, in urls.py.
      const viewSet = /ViewSet/.test(match[0]);
      const detail = viewSet && (name === 'update' || name === 'partial_update' || name === 'destroy') ? lookup : '';
      if (upper) out.push({ ...endpoint(text, relPath, { method: upper, route: detail, framework: 'django', line: line + method.line - 1 }), scope });
    }
    // DRF extra actions: `@action(detail=True, methods=["post"])` above `def refund(self, …)`.
    for (const action of matchesWithLines(body, /^[ \t]+@action\(([^)]*)\)/gm)) {
      const def = nextLineMatching(body, action.line, /def (\w+)\(/, 4);
      const methods = /methods\s*=\s*\[([^\]]*)\]/.exec(action.match[1] ?? '')?.[1] ?? '';
      const path = /url_path\s*=\s*["']([^"']+)/.exec(action.match[1] ?? '')?.[1] ?? def?.match[1] ?? '';
      const detail = /detail\s*=\s*True/.test(action.match[1] ?? '') ? lookup : '';
      for (const m of methods.match(/\w+/g) ?? []) {
        const upper = METHOD[m.toLowerCase()];
        if (upper) out.push({ ...endpoint(text, relPath, { method: upper, route: `${detail}/${path}`, framework: 'django', line: line + action.line - 1 }), scope });
      }
    }
  }
}

/** `from app.api.routes import items` → module candidates for `items` (a module or a name in one). */
function importedNames(text: string): Map<string, ModuleRef> {
  const out = new Map<string, ModuleRef>();
  for (const { match } of matchesWithLines(text, /^from\s+([\w.]+)\s+import\s+\(?([^)\n]+(?:\n[^)\n]*)*?)\)?$/gm)) {
    const module = (match[1] ?? '').replace(/^\.+/, '').replace(/\./g, '/');
    for (const part of (match[2] ?? '').split(',')) {
      const m = /(\w+)(?:\s+as\s+(\w+))?/.exec(part.trim());
      if (!m?.[1]) continue;
      const local = m[2] ?? m[1];
      // `items` may be a submodule (items.py) or a name defined in the module itself.
      out.set(local, { modules: [`${module}/${m[1]}.py`, `${module}/${m[1]}/__init__.py`, `${module}.py`, `${module}/__init__.py`], name: m[1] });
    }
  }
  return out;
}

/** Mounts (`include_router`, `register_blueprint`), imports of routers and string constants. */
function pythonRouteFacts(relPath: string, text: string): RouteFacts {
  const facts = emptyRouteFacts();
  const imports = importedNames(text);
  for (const [local, ref] of imports) {
    facts.aliases.push([`${relPath}#${local}`, ref]);
  }
  for (const { match, line } of matchesWithLines(text, /^[ \t]*(\w+)\.(include_router|register_blueprint)\(\s*([\w.]+)([^)]*)\)/gm)) {
    const childExpr = match[3] ?? '';
    const args = match[4] ?? '';
    const literal = /(?:url_)?prefix\s*=\s*f?["']([^"']*)["']/.exec(args)?.[1];
    const constant = literal === undefined ? /(?:url_)?prefix\s*=\s*([\w.]+)/.exec(args)?.[1] : undefined;
    const [head, tail] = childExpr.includes('.') ? [childExpr.slice(0, childExpr.indexOf('.')), childExpr.slice(childExpr.indexOf('.') + 1)] : [childExpr, undefined];
    const imported = imports.get(head);
    let child: string | ModuleRef = `${relPath}#${childExpr}`;
    if (imported && tail) child = { modules: imported.modules.filter((m) => m.endsWith(`/${imported.name}.py`) || m.endsWith(`/${imported.name}/__init__.py`)), name: tail };
    else if (imported) child = imported;
    facts.mounts.push({ parent: `${relPath}#${match[1] ?? ''}`, child, prefix: literal ?? (constant ? { constant } : ''), location: formatLocation(relPath, line) });
  }
  djangoUrlFacts(relPath, text, facts);
  for (const { match } of matchesWithLines(text, /^[ \t]*([A-Z][A-Z0-9_]*)\s*(?::\s*[\w[\]]+)?\s*=\s*["']([^"']*)["']/gm)) {
    facts.constants.push([match[1] ?? '', match[2] ?? '']);
  }
  return facts;
}

/**
 * Scans one Python file.
 * @example scanPython('app/main.py', 'app = FastAPI()\n@app.post("/payments")\nasync def pay(p: PaymentIn): ...').findings.endpoints
 */
export function scanPython(relPath: string, text: string): ScanResult {
  return scanPythonFile(relPath, text, true);
}

/**
 * A file the pre-filter found no finding literal in (python-prefilter.ts): only what other files'
 * findings depend on — shapes, imports and mounts, GraphQL facts and endpoints, settings. The same
 * result as `scanPython` for such a file, without the route, provider, task and schedule scanners.
 * @example scanPythonFacts('shop/models.py', 'class Order(BaseModel):\n    total: int\n').shapes.get('Order') // ['total']
 */
export function scanPythonFacts(relPath: string, text: string): ScanResult {
  return scanPythonFile(relPath, text, false);
}

function scanPythonFile(relPath: string, text: string, findAll: boolean): ScanResult {
  const findings = emptyFindings();
  const shapes = pythonShapes(text);
  if (/(^|\/)(tests?|conftest)\b|(^|\/)test_[^/]*\.py$|_test\.py$/.test(relPath)) return { findings, shapes };
  if (findAll) scanRoutes(relPath, text, findings.endpoints);
  const graphql = scanPythonGraphql(relPath, text);
  for (const [name, fields] of graphql.shapes) if (!shapes.has(name)) shapes.set(name, fields);
  findings.endpoints = [...withoutTransports(findings.endpoints, text, graphql), ...graphql.endpoints];
  if (findAll) {
    applyEffectRules(relPath, text, RULES, findings);
    findings.consumers.push(...scanCeleryTasks(relPath, text));
    findings.schedulers.push(...scanPythonSchedules(relPath, text));
  }
  const settings = celerySettings(relPath, text);
  return { findings, shapes, routeFacts: pythonGraphqlFacts(pythonRouteFacts(relPath, text), graphql), ...(settings.length > 0 ? { settings } : {}) };
}
