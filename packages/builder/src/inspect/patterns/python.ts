/**
 * Python by reliable patterns: FastAPI/Flask route decorators (routers, blueprints and their mounts in python-routers.ts),
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
import { callText, indentBlockEnd, matchesWithLines, nextLineMatching, sliceLines } from './line-patterns.js';
import { argsOf, keyword, positional, splitArgs, stringLiteral } from './python-args.js';
import { djangoFunctionViews, drfClassViews, methodsArgument, mutatingMethods } from './python-django-views.js';
import { pythonMounts, pythonRouters, type PyRouter } from './python-routers.js';
import { ninjaRouteFacts, scanNinjaRoutes } from './python-ninja.js';
import { litestarRouteFacts, scanLitestarRoutes } from './python-litestar.js';
import { moduleFiles } from './python-shape-imports.js';

const METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };

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

/** Base classes whose subclasses are request shapes. */
const SHAPE_BASES = /^(?:[\w.]*BaseModel|SQLModel|Schema|TypedDict|[\w.]*Serializer|[\w.]*ModelSerializer|(?:msgspec\.)?Struct)$/;

/**
 * Pydantic/SQLModel models, dataclasses, TypedDicts and serializers: class name → annotated
 * field names. A class that extends another (`class ItemCreate(ItemBase)`) lists `...ItemBase`,
 * which the inspector expands once every file's classes are known. Only statements at the class
 * body's own indentation are fields (a validator's parameters are not); a `ClassVar[...]`
 * annotation is no field, and hides an inherited field of that name (resolved here when the base
 * is in the same file). A serializer field built with `read_only=True` is not sent by a client.
 */
function pythonShapes(text: string): Map<string, string[]> {
  const shapes = new Map<string, string[]>();
  const hidden = new Map<string, Set<string>>();
  // `class NoteIn:` has no base list: a `@dataclass` written so is a shape too.
  for (const { match, line } of matchesWithLines(text, /^class (\w+)(?:\(([^)]*)\))?:/gm)) {
    const bases = (match[2] ?? '').split(',').map((b) => b.trim()).filter((b) => b && !b.includes('='));
    const direct = bases.some((b) => SHAPE_BASES.test(b));
    const dataclass = /@dataclass[^\n]*\n\s*$/.test(text.slice(0, text.indexOf(match[0])));
    const header = line + (match[0].match(/\n/g)?.length ?? 0);
    // The body follows the header's last line, at the `class` line's level: a closing `):` may sit at that level.
    const body = sliceLines(text, header + 1, indentBlockEnd(text, line, header));
    const indent = /^([ \t]+)[^\s#]/m.exec(body)?.[1] ?? '    ';
    const fields: string[] = [];
    const classVars = new Set<string>();
    for (const m of body.matchAll(new RegExp(String.raw`^${indent}(\w+)[ \t]*(?::[ \t]*([^=\s][^=\n]*)|=\s*serializers\.\w+\(([^\n]*))`, 'gm'))) {
      const name = m[1] ?? '';
      if (!name || name === 'model_config' || /^(Meta|objects)$/.test(name)) continue;
      if (/^(?:typing\.)?ClassVar\b/.test((m[2] ?? '').trim())) classVars.add(name);
      else if (!/\bread_only\s*=\s*True/.test(m[3] ?? '')) fields.push(name);
    }
    // Mixins beside a model base are bases too (`class CustomerUpdateBase(MetadataInputMixin, Schema)`).
    const inherited = bases.filter((b) => /^[A-Z]\w*$/.test(b) && !SHAPE_BASES.test(b)).map((b) => `...${b}`);
    if (direct || dataclass || inherited.length > 0) {
      shapes.set(match[1] ?? '', [...inherited, ...fields]);
      if (classVars.size > 0) hidden.set(match[1] ?? '', classVars);
    }
  }
  // A ClassVar hides the base's field: expand the bases this file declares, then drop the hidden names.
  const expand = (name: string, seen: Set<string>): string[] => (shapes.get(name) ?? []).flatMap((f) => {
    const base = f.startsWith('...') ? f.slice(3) : undefined;
    if (!base || !shapes.has(base) || seen.has(base)) return [f];
    return expand(base, new Set([...seen, base]));
  });
  for (const [name, names] of hidden) shapes.set(name, [...new Set(expand(name, new Set([name])))].filter((f) => !names.has(f)));
  return shapes;
}

/** Fields read from the request inside a handler: `request.json["x"]`, `data.get("x")`, `payload.x`. */
function handlerFields(body: string): string[] {
  const fields: string[] = [];
  const bound = new Set<string>(['request.json', 'request.data', 'request.form', 'request.POST']);
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
    // A comment indented less than the body (column 0 inside a handler) does not end it.
    if (current.trim() === '' || current.trimStart().startsWith('#')) continue;
    if (current.length - current.trimStart().length <= base) break;
    last = i + 1;
  }
  return last;
}

/** Where a handler's `def` is: its line and name. */
export interface PyDef {
  readonly line: number;
  readonly name: string;
}

export interface EndpointSpec {
  readonly method: MutatingMethod;
  readonly route: string;
  readonly framework: Framework;
  readonly line: number;
  /** The handler's def when the caller knows it; `null`: none in this file (inherited, imported); omitted: the next def below `line`. */
  readonly def?: PyDef | null;
}

/** Annotation names that are never a request body model. */
const NOT_BODY_TYPE = /^(Request|Response|WebSocket|HTTPConnection|Session|AsyncSession|BackgroundTasks|SecurityScopes|HTTPAuthorizationCredentials|UploadFile|Depends|Header|Optional|Union|List|Dict|Set|Tuple|Sequence|Annotated|Any|Query|Path|Cookie|Body|Form|File)$/;
/** FastAPI parameter sources other than the JSON body: a parameter defaulting to (or annotated with) one of these is not the body. */
const NOT_BODY_SOURCE = /^(?:fastapi\.|params\.)?(Depends|Security|Path|Query|Header|Cookie|Form|File)\s*\(/;

/** `name: T = default` split at its top-level `=` (a default or annotation may hold `=` inside brackets). */
function splitParam(param: string): { name: string; annotation: string; source: string } {
  let depth = 0;
  let eq = -1;
  for (let i = 0; i < param.length && eq < 0; i += 1) {
    const char = param[i] as string;
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === '=' && depth === 0 && param[i + 1] !== '=') eq = i;
  }
  const head = eq < 0 ? param : param.slice(0, eq);
  const colon = head.indexOf(':');
  const name = (colon < 0 ? head : head.slice(0, colon)).replace(/^\*+/, '').trim();
  const annotation = colon < 0 ? '' : head.slice(colon + 1).trim();
  // `Annotated[T, Depends(x)]` names its source in the annotation; `= Depends(x)` in the default.
  const annotated = /^(?:typing\.)?Annotated\[([\s\S]*)\]$/.exec(annotation);
  const metadata = annotated ? splitArgs(annotated[1] ?? '') : [];
  const source = eq < 0 ? metadata.slice(1).find((m) => /^[\w.]+\s*\(/.test(m)) ?? '' : param.slice(eq + 1).trim();
  return { name, annotation: annotated ? metadata[0] ?? '' : annotation, source };
}

/** The parameters of the `def` on `defLine`, read to the parenthesis that closes its signature. */
function signatureParams(text: string, defLine: number): string[] {
  const chunk = sliceLines(text, defLine, defLine + 40);
  const open = chunk.indexOf('(');
  return open < 0 ? [] : argsOf(callText(chunk, open, 4000));
}

/**
 * Body model candidates, query and form fields from a handler's parameters: a parameter whose
 * value comes from `Depends`/`Security`/`Path`/`Query`/`Header`/`Cookie` (as its default or in
 * `Annotated[...]`) is not the body, whatever its type.
 */
function parameterSources(params: readonly string[]): { bodyTypes: string[]; queryFields: string[]; formFields: string[] } {
  const bodyTypes: string[] = [];
  const queryFields: string[] = [];
  const formFields: string[] = [];
  for (const param of params) {
    const { name, annotation, source } = splitParam(param);
    if (!name || name === 'self' || name === 'cls') continue;
    // Django Ninja marks the source in the annotation (`filters: Query[Filters]`, `name: Form[str]`);
    // `Form[OrderIn]` is the model's fields sent as a form, so the model stays a body candidate.
    const marked = /^(Query|Path|Header|Cookie|Form|File)\[([\s\S]*)\]$/.exec(annotation);
    const formModel = marked?.[1] === 'Form' && /\b[A-Z]\w*/.test(marked[2] ?? '');
    const from = NOT_BODY_SOURCE.exec(source)?.[1] ?? (formModel ? undefined : marked?.[1]);
    if (from === 'Query') queryFields.push(name);
    if (from === 'Form' || from === 'File') formFields.push(name);
    if (from) continue;
    // A module-qualified model (`schemas.UserCreate`) keeps its module: the import says which file declares it.
    const type = [...annotation.matchAll(/\b((?:[a-z_]\w*\.)*)([A-Z]\w*)/g)].filter((m) => !NOT_BODY_TYPE.test(m[2] ?? '')).map((m) => `${m[1] ?? ''}${m[2] ?? ''}`)[0];
    if (type) bodyTypes.push(type);
  }
  return { bodyTypes, queryFields, formFields };
}

export function endpoint(text: string, relPath: string, spec: EndpointSpec): EndpointFinding {
  const found = spec.def === undefined ? nextLineMatching(text, spec.line, /^[ \t]*(?:async\s+)?def (\w+)\(/, 12) : undefined;
  const def: PyDef | undefined = spec.def ?? (found ? { line: found.line, name: found.match[1] ?? '' } : undefined);
  const end = def ? defBlockEnd(text, def.line) : spec.line;
  const body = def ? sliceLines(text, def.line, end) : '';
  const params = def ? parameterSources(signatureParams(text, def.line)) : { bodyTypes: [], queryFields: [], formFields: [] };
  const fields = [...new Set([...handlerFields(body), ...params.formFields])];
  // Every typed parameter is a candidate; the inspector keeps the one that is a known model.
  const typed = params.bodyTypes.length > 0 ? params.bodyTypes.join('|') : undefined;
  return {
    method: spec.method,
    route: spec.route,
    framework: spec.framework,
    location: formatLocation(relPath, spec.line),
    ...(def ? { handler: def.name } : {}),
    bodyFields: fields,
    ...(typed ? { bodyType: typed } : {}),
    ...(params.queryFields.length > 0 ? { queryFields: params.queryFields } : {}),
    webhook: /webhook|\bipn\b/i.test(spec.route) || /construct_event|verify_webhook_signature|is_valid_hmac/.test(body),
    span: { start: def?.line ?? spec.line, end },
  };
}

function scanRoutes(relPath: string, text: string, out: EndpointFinding[]): void {
  const bound = pythonRouters(text);
  const defaultFramework: Framework = /from fastapi|import fastapi/.test(text) ? 'fastapi' : /from flask|import flask/.test(text) ? 'flask' : 'django';
  for (const { match, line } of matchesWithLines(text, /^[ \t]*@(\w+)\.(post|put|patch|delete)\(\s*["']([^"']*)["']/gm)) {
    const router = bound.get(match[1] ?? '');
    if (!router && defaultFramework === 'django') continue;
    const route = `${router?.prefix ?? ''}${match[3] ?? ''}` || '/';
    out.push({ ...endpoint(text, relPath, { method: METHOD[match[2] ?? ''] as MutatingMethod, route, framework: router?.framework ?? defaultFramework, line }), scope: `${relPath}#${match[1] ?? ''}` });
  }
  // `methods=` is a list, a tuple (`('POST',)`) or a set (`{"DELETE"}`).
  for (const { match, line, index } of matchesWithLines(text, /^[ \t]*@(\w+)\.(?:route|api_route)\(\s*["']([^"']*)["']/gm)) {
    const router = bound.get(match[1] ?? '');
    const route = `${router?.prefix ?? ''}${match[2] ?? ''}` || '/';
    for (const method of mutatingMethods(methodsArgument(callText(text, index)) ?? '')) {
      out.push({ ...endpoint(text, relPath, { method, route, framework: router?.framework ?? defaultFramework, line }), scope: `${relPath}#${match[1] ?? ''}` });
    }
  }
  scanRegisteredRoutes(relPath, text, bound, defaultFramework, out);
  // Django views get their path from urls.py (`path(...)`, DRF `router.register(...)`): the route
  // here is the part below the view's mount, and the scope names the view.
  for (const { line, index } of matchesWithLines(text, /^[ \t]*@api_view\(/gm)) {
    const def = nextLineMatching(text, line, /def (\w+)\(/);
    const list = /^@?\s*api_view\(\s*(?:http_method_names\s*=\s*)?[[({]([^\])}]*)/.exec(callText(text, index).trim())?.[1] ?? '';
    for (const method of mutatingMethods(list)) {
      if (def) out.push({ ...endpoint(text, relPath, { method, route: '', framework: 'django', line }), scope: `django:view:${def.match[1] ?? ''}` });
    }
  }
  if (defaultFramework !== 'django') return;
  const views = [...djangoFunctionViews(relPath, text), ...drfClassViews(text)];
  for (const view of views) {
    const found = endpoint(text, relPath, { method: view.method, route: view.route, framework: 'django', line: view.line, def: view.def });
    out.push({ ...found, ...(view.def ? {} : { handler: view.view }), ...(view.bodyType ? { bodyType: view.bodyType } : {}), ...(view.anyMethod ? { anyMethod: view.anyMethod } : {}), scope: `django:view:${view.view}` });
  }
}

/**
 * Routes registered by a call rather than a decorator: FastAPI `router.add_api_route("/x", fn,
 * methods=["DELETE"])`, Flask `bp.add_url_rule("/x", view_func=fn, methods=["POST"])` and a
 * MethodView's `view_func=RefundAPI.as_view("refund")` (its `post`/`put`/`patch`/`delete`). The
 * handler's body is read when it is defined in the same file.
 */
function scanRegisteredRoutes(relPath: string, text: string, bound: ReadonlyMap<string, PyRouter>, defaultFramework: Framework, out: EndpointFinding[]): void {
  const defs = new Map<string, PyDef>();
  for (const { match, line } of matchesWithLines(text, /^(?:async\s+)?def (\w+)\(/gm)) defs.set(match[1] ?? '', { line, name: match[1] ?? '' });
  for (const { match, line, index } of matchesWithLines(text, /^[ \t]*(\w+)\.(add_api_route|add_url_rule)\(/gm)) {
    const args = argsOf(callText(text, index + match[0].length - 1));
    const path = stringLiteral(positional(args)[0]);
    if (path === undefined) continue;
    const router = bound.get(match[1] ?? '');
    const framework: Framework = router?.framework ?? (match[2] === 'add_url_rule' ? 'flask' : 'fastapi');
    const route = `${router?.prefix ?? ''}${path}` || '/';
    const scope = `${relPath}#${match[1] ?? ''}`;
    // FastAPI: the endpoint is the second positional argument or `endpoint=`; Flask: `view_func=` (or the third positional).
    const target = match[2] === 'add_api_route' ? keyword(args, 'endpoint') ?? positional(args)[1] : keyword(args, 'view_func') ?? positional(args)[2];
    if (!target) continue;
    const methodView = /^(\w+)\.as_view\(/.exec(target)?.[1];
    if (methodView) {
      const cls = new RegExp(String.raw`^class ${methodView}\(([^)]*)\):`, 'm').exec(text);
      if (!cls) continue;
      const classLine = text.slice(0, cls.index).split('\n').length;
      const body = sliceLines(text, classLine, indentBlockEnd(text, classLine));
      for (const handler of matchesWithLines(body, /^[ \t]+(?:async\s+)?def (post|put|patch|delete)\(self/gm)) {
        const defLine = classLine + handler.line - 1;
        out.push({ ...endpoint(text, relPath, { method: METHOD[handler.match[1] ?? ''] as MutatingMethod, route, framework, line: defLine, def: { line: defLine, name: handler.match[1] ?? '' } }), handler: `${methodView}.${handler.match[1] ?? ''}`, scope });
      }
      continue;
    }
    // Flask's default is GET (with HEAD, OPTIONS); FastAPI's add_api_route defaults to GET too.
    const methods = mutatingMethods(keyword(args, 'methods') ?? '');
    const name = target.split('.').pop() ?? target;
    for (const method of methods) {
      out.push({ ...endpoint(text, relPath, { method, route, framework, line, def: defs.get(name) ?? null }), handler: name, scope });
    }
  }
}

/** `from app.api.routes import items` → module candidates for `items` (a module or a name in one). */
function importedNames(relPath: string, text: string): Map<string, ModuleRef> {
  const out = new Map<string, ModuleRef>();
  for (const { match } of matchesWithLines(text, /^from\s+([\w.]+)\s+import\s+\(?([^)\n]+(?:\n[^)\n]*)*?)\)?$/gm)) {
    const written = match[1] ?? '';
    const module = written.replace(/^\.+/, '').replace(/\./g, '/');
    for (const part of (match[2] ?? '').split(',')) {
      const m = /(\w+)(?:\s+as\s+(\w+))?/.exec(part.trim());
      if (!m?.[1]) continue;
      const local = m[2] ?? m[1];
      // `items` may be a submodule (items.py) or a name defined in the module itself; `from . import items` is the importing file's package.
      const relative = written.startsWith('.') ? [...moduleFiles(relPath, written.endsWith('.') ? `${written}${m[1]}` : `${written}.${m[1]}`), ...moduleFiles(relPath, written)] : undefined;
      out.set(local, { modules: relative ?? [`${module}/${m[1]}.py`, `${module}/${m[1]}/__init__.py`, `${module}.py`, `${module}/__init__.py`], name: m[1] });
    }
  }
  return out;
}

/**
 * String defaults of pydantic settings fields (`api_prefix: str = "/api"` in a `*Settings` class),
 * for a prefix written as `settings.api_prefix`. The default is what the app serves unless the
 * environment sets the field (pydantic BaseSettings reads `API_PREFIX`).
 * @example settingsDefaults('class AppSettings(BaseAppSettings):\n    api_prefix: str = "/api"\n') // [['api_prefix', '/api']]
 */
function settingsDefaults(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const { match, line } of matchesWithLines(text, /^class (\w*Settings\w*)\(([^)]*)\):/gm)) {
    if (!/Settings/.test(match[2] ?? '')) continue;
    const body = sliceLines(text, line + 1, indentBlockEnd(text, line));
    for (const field of body.matchAll(/^[ \t]+(\w+)\s*:\s*str\s*=\s*["']([^"']*)["']\s*$/gm)) out.push([field[1] ?? '', field[2] ?? '']);
  }
  return out;
}

/** Mounts (`include_router`, `register_blueprint`), imports of routers and string constants. */
function pythonRouteFacts(relPath: string, text: string): RouteFacts {
  const facts = emptyRouteFacts();
  const imports = importedNames(relPath, text);
  for (const [local, ref] of imports) {
    facts.aliases.push([`${relPath}#${local}`, ref]);
  }
  pythonMounts(relPath, text, imports, facts);
  ninjaRouteFacts(relPath, text, imports, facts);
  litestarRouteFacts(relPath, text, imports, facts);
  djangoUrlFacts(relPath, text, facts);
  for (const { match } of matchesWithLines(text, /^[ \t]*([A-Z][A-Z0-9_]*)\s*(?::\s*[\w[\]]+)?\s*=\s*["']([^"']*)["']/gm)) {
    facts.constants.push([match[1] ?? '', match[2] ?? '']);
  }
  facts.constants.push(...settingsDefaults(text));
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
  // Django Ninja and Litestar keep their own files: their routes, and notes the design must carry.
  const frameworks = findAll ? [scanNinjaRoutes(relPath, text), scanLitestarRoutes(relPath, text)] : [];
  findings.endpoints.push(...frameworks.flatMap((found) => found.endpoints));
  const notes = frameworks.flatMap((found) => found.notes);
  const graphql = scanPythonGraphql(relPath, text);
  for (const [name, fields] of graphql.shapes) if (!shapes.has(name)) shapes.set(name, fields);
  findings.endpoints = [...withoutTransports(findings.endpoints, text, graphql), ...graphql.endpoints];
  if (findAll) {
    applyEffectRules(relPath, text, RULES, findings);
    findings.consumers.push(...scanCeleryTasks(relPath, text));
    findings.schedulers.push(...scanPythonSchedules(relPath, text));
  }
  const settings = celerySettings(relPath, text);
  return { findings, shapes, routeFacts: pythonGraphqlFacts(pythonRouteFacts(relPath, text), graphql), ...(settings.length > 0 ? { settings } : {}), ...(notes.length > 0 ? { notes } : {}) };
}
