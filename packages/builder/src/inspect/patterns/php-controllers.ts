/**
 * Laravel routes finished once every file is known: each route file's own prefix as the app loads
 * it (`bootstrap/app.php` `withRouting(api: …, apiPrefix: 'v2')` in Laravel 11+, the
 * RouteServiceProvider's `Route::prefix('api')->group(base_path('routes/api.php'))` before, a
 * group that `require`s another route file), and each controller action linked to its method
 * (PSR-4 from composer.json), in the controller or in a trait or base class of the app it inherits
 * from (php-classes.ts): the endpoint's span points there so that its duplicate cost is read from
 * the action, and its body fields come from `$request->validate([…])`, a FormRequest's `rules()`,
 * `$request->input('x')`, `$request->x` and `$request->only([…])`.
 */
import { joinRoute } from '../route-graph.js';
import { scanTopLevel } from '../text-scan.js';
import type { EndpointFinding } from '../types.js';
import { maskCode } from './code-mask.js';
import { sliceLines } from './line-patterns.js';
import { classFile, findMethod, psr4Roots, type Read } from './php-classes.js';
import { defaultRouteFilePrefix, includedFile, laravelRouteOrigins, laravelRoutes, type LaravelRouteOrigin } from './php-routes.js';
import { arrayEntries, callChain, phpImports, phpMethod, qualify, splitArguments, stringList, stringValue } from './php-source.js';

/** Files that load route files: Laravel 11's bootstrap, service providers, and route files themselves. */
const LOADER = /(?:^|\/)(?:bootstrap\/app\.php|app\/Providers\/[\w/]+\.php|routes\/[\w/.-]+\.php)$/;

interface Load {
  readonly from: string;
  readonly prefix: string;
}

/** `withRouting(web: …, api: …, apiPrefix: 'v2')`: the route files it loads and their prefixes (`api` by default). */
function withRoutingLoads(relPath: string, code: string): Array<{ file: string; prefix: string }> {
  const at = /->\s*withRouting\s*\(/.exec(code);
  if (!at) return [];
  const [call] = callChain(code, at.index + at[0].indexOf('withRouting'));
  const named = new Map(splitArguments(call?.args ?? '').flatMap((arg) => {
    const m = /^(\w+)\s*:\s*([\s\S]*)$/.exec(arg.text);
    return m ? [[m[1] ?? '', m[2] ?? ''] as const] : [];
  }));
  const out: Array<{ file: string; prefix: string }> = [];
  const api = includedFile(relPath, named.get('api') ?? '');
  if (api) out.push({ file: api, prefix: stringValue(named.get('apiPrefix') ?? '') ?? 'api' });
  const web = includedFile(relPath, named.get('web') ?? '');
  if (web) out.push({ file: web, prefix: '' });
  return out;
}

/** Every route file some loader loads, with where from and under which prefix. */
function routeFileLoads(files: ReadonlySet<string>, read: Read): Map<string, Load[]> {
  const loads = new Map<string, Load[]>();
  const add = (file: string, load: Load): void => {
    const list = loads.get(file) ?? [];
    if (!list.some((l) => l.from === load.from && l.prefix === load.prefix)) list.push(load);
    loads.set(file, list);
  };
  for (const relPath of files) {
    if (!LOADER.test(relPath)) continue;
    const text = read(relPath);
    if (!text || !/group\s*\(|require|include|withRouting/.test(text)) continue;
    const code = maskCode(text, 'php');
    for (const load of withRoutingLoads(relPath, code)) add(load.file, { from: relPath, prefix: load.prefix });
    for (const include of laravelRoutes(relPath, code).includes) add(include.file, { from: relPath, prefix: include.prefix });
  }
  return loads;
}

/**
 * The full prefixes of a route file: those of every loader above it, else the Laravel default
 * (`/api` for routes/api.php). Both bootstrap/app.php and an old RouteServiceProvider may load one
 * file under one prefix: a prefix is listed once.
 */
function prefixesOf(file: string, loads: ReadonlyMap<string, Load[]>, seen: Set<string> = new Set()): string[] {
  const list = loads.get(file);
  if (!list || seen.has(file)) return [defaultRouteFilePrefix(file)];
  seen.add(file);
  // A route file loaded by another route file inherits that file's prefixes; a provider or the bootstrap is the root.
  const out = list.flatMap((load) => (/(?:^|\/)routes\//.test(load.from) ? prefixesOf(load.from, loads, seen) : ['']).map((p) => joinRoute(p, load.prefix)));
  seen.delete(file);
  return [...new Set(out.map((p) => (p === '/' ? '' : p)))];
}

/** Request accessors that read no body field (`$request->user()`, `$request->headers->…`). */
const NOT_FIELDS = new Set(['user', 'route', 'ip', 'ips', 'headers', 'query', 'server', 'cookies', 'files', 'attributes', 'request', 'json', 'session', 'method', 'path', 'url', 'fullUrl', 'all', 'validated', 'safe', 'validate', 'input', 'get', 'post', 'only', 'except', 'has', 'filled', 'missing', 'boolean', 'string', 'integer', 'float', 'date', 'enum', 'file', 'hasFile', 'header', 'bearerToken', 'isMethod', 'expectsJson', 'wantsJson', 'ajax', 'merge', 'replace', 'collect', 'keys', 'userAgent', 'fingerprint', 'secure', 'getContent', 'content', 'toArray']);

/** The top-level field of a validation key: `items.*.sku` → `items`. */
const topField = (key: string): string => key.split('.')[0] ?? key;

/** Field names of a rules array as written (`['amount' => 'required', 'items.*.sku' => …]`). */
function ruleKeys(array: string): string[] {
  return [...arrayEntries(array).keys()].map(topField).filter((k) => k && k !== '*');
}

const ARRAY_LITERAL = /^(?:\[|array\s*\()/;

/**
 * Body fields an action reads: validated keys (`$request->validate([…])`, `$this->validate($r, […])`,
 * `Validator::make($r->all(), […])`), accessor reads and `$request->only([…])`, in first-seen order.
 * `Validator::make(['id' => $id], […])` checks values the code put together (a route parameter), not
 * the body: its keys are no fields, and a request value inside it is read as an accessor below.
 */
function bodyFieldsOf(body: string): string[] {
  const fields: string[] = [];
  for (const m of body.matchAll(/(?:->validate(?:WithBag)?|Validator::make)\s*\(/g)) {
    const [call] = callChain(body, (m.index ?? 0) + m[0].search(/validate|make/));
    const args = splitArguments(call?.args ?? '');
    const made = m[0].startsWith('Validator');
    const array = made ? (ARRAY_LITERAL.test(args[0]?.text ?? '') ? undefined : args[1]) : args.find((a) => ARRAY_LITERAL.test(a.text));
    if (array && ARRAY_LITERAL.test(array.text)) fields.push(...ruleKeys(array.text));
  }
  const request = String.raw`(?:\$request|\$req|request\(\s*\))`;
  for (const m of body.matchAll(new RegExp(String.raw`${request}->(?:input|get|post|string|str|integer|float|boolean|date|enum|json)\(\s*["']([\w.]+)["']`, 'g'))) fields.push(topField(m[1] ?? ''));
  for (const m of body.matchAll(new RegExp(String.raw`${request}->only\(([^)]*)\)`, 'g'))) fields.push(...stringList(m[1] ?? '').map(topField));
  for (const m of body.matchAll(/\brequest\(\s*["']([\w.]+)["']/g)) fields.push(topField(m[1] ?? ''));
  for (const m of body.matchAll(/\$request\[\s*["']([\w.]+)["']\s*\]/g)) fields.push(topField(m[1] ?? ''));
  // `$request->amount`: a dynamic property is an input; a method call or a nested accessor is not.
  for (const m of body.matchAll(/\$request->(\w+)\b(?!\s*(?:\(|->))/g)) if (!NOT_FIELDS.has(m[1] ?? '')) fields.push(m[1] ?? '');
  return [...new Set(fields.filter(Boolean))];
}

interface ActionSite {
  readonly span: { readonly start: number; readonly end: number; readonly file: string };
  readonly fields: string[];
  /** The action verifies a provider's webhook signature. */
  readonly verifiesWebhook: boolean;
}

const WEBHOOK_VERIFICATION = /\bWebhook::constructEvent\(|\bWebhookSignature::verifyHeader\(|->webhooks->constructEvent\(/;

/** Fields of the FormRequest a method type-hints (`StoreOrderRequest $request`): the keys of its `rules()`. */
function formRequestFields(params: string, scope: ReturnType<typeof phpImports>, files: ReadonlySet<string>, roots: ReadonlyArray<[string, string]>, read: Read): string[] {
  return [...params.matchAll(/\\?([\w\\]*Request)\s+\$\w+/g)].flatMap((m) => {
    const name = m[1] ?? '';
    const fqcn = qualify(name, scope);
    if (/^(?:Request|Illuminate\\Http\\Request|Illuminate\\Foundation\\Http\\FormRequest)$/.test(fqcn) || fqcn === 'Request') return [];
    const file = classFile(fqcn, files, roots);
    const text = file ? read(file) : undefined;
    if (!file || !text) return [];
    const code = maskCode(text, 'php');
    const rules = phpMethod(code, 'rules');
    if (!rules) return [];
    const body = sliceLines(code, rules.start, rules.end);
    // The array returned, and every `'key' =>` opening a line: the array may be built in steps (`$rules = […]; $rules['x'] = …`).
    const returned = /\breturn\s*(\[|array\s*\()/.exec(body);
    const close = returned ? scanTopLevel(body, returned.index + returned[0].length, (char) => char === ']' || char === ')') : -1;
    const keys = [
      ...(returned ? ruleKeys(body.slice(returned.index + returned[0].length - (returned[1] ?? '').length, close + 1)) : []),
      ...[...body.matchAll(/^\s*["']([\w.*-]+)["']\s*=>|\$rules\[\s*["']([\w.*-]+)["']\s*\]\s*=/gm)].map((k) => topField(k[1] ?? k[2] ?? '')),
    ];
    return keys.filter((k) => k && k !== '*');
  });
}

/**
 * Links each Laravel endpoint to its route file's prefixes and its controller action.
 * @example linkLaravelRoutes(endpoints, new Set(['routes/api.php', 'app/Http/Controllers/OrderController.php']), read)[0].span?.file // 'app/Http/Controllers/OrderController.php'
 */
export function linkLaravelRoutes(endpoints: readonly EndpointFinding[], files: ReadonlySet<string>, read: Read): EndpointFinding[] {
  if (!endpoints.some((e) => laravelRouteOrigins.has(e))) return [...endpoints];
  const loads = routeFileLoads(files, read);
  const roots = psr4Roots(read);
  const sites = new Map<string, ActionSite | undefined>();
  const actionSite = (origin: LaravelRouteOrigin): ActionSite | undefined => {
    if (!origin.controller || !origin.method) return undefined;
    const key = `${origin.controller}@${origin.method}`;
    if (sites.has(key)) return sites.get(key);
    // The action where PHP finds it: the controller, a trait it uses or a base class of the app (php-classes.ts);
    // one only vendor/ declares (a framework trait) stays "defined elsewhere".
    const found = findMethod(origin.controller, origin.method, { files, roots, read });
    const body = found ? sliceLines(found.code, found.method.start, found.method.end) : '';
    const site = found ? {
      span: { start: found.method.start, end: found.method.end, file: found.file },
      fields: [...new Set([...formRequestFields(found.method.params, phpImports(found.code), files, roots, read), ...bodyFieldsOf(body)])],
      verifiesWebhook: WEBHOOK_VERIFICATION.test(body),
    } : undefined;
    sites.set(key, site);
    return site;
  };
  return endpoints.flatMap((endpoint) => {
    const origin = laravelRouteOrigins.get(endpoint);
    if (!origin) return [endpoint];
    const site = actionSite(origin);
    // A closure action: its fields from its own lines in the route file.
    const closure = !site && endpoint.span ? read(origin.file) : undefined;
    const fields = site?.fields ?? (closure ? bodyFieldsOf(sliceLines(maskCode(closure, 'php'), endpoint.span?.start ?? 0, endpoint.span?.end ?? 0)) : []);
    const linked: EndpointFinding = {
      ...endpoint,
      bodyFields: fields,
      ...(site ? { span: site.span } : {}),
      ...(endpoint.anyMethod ? { anyMethod: { readsBody: fields.length > 0 } } : {}),
    };
    return prefixesOf(origin.file, loads).map((prefix) => {
      const route = joinRoute(prefix, origin.path);
      // A webhook by its path, by a controller named for one (`StripeWebhookController`), or by the signature check in its action.
      const webhook = linked.webhook || site?.verifiesWebhook === true || /webhook/i.test(route) || /webhook/i.test(origin.controller ?? '');
      const out = { ...linked, route, webhook };
      laravelRouteOrigins.set(out, origin);
      return out;
    });
  });
}
