/**
 * Laravel route files read as Laravel registers them: groups nested to any depth (`Route::prefix(
 * 'v1')->group(fn)`, `Route::group(['prefix' => 'v1', 'namespace' => 'Api'], fn)`, `Route::
 * controller(X::class)->group(fn)`), verbs and `match`/`any`, resources (`resource`, `apiResource`,
 * their plural forms, `only`/`except`/`parameters`, nested `photos.comments`, `shallow`) and route
 * files a group loads (`->group(base_path('routes/x.php'))`, `require __DIR__.'/x.php'`).
 * Paths come out relative to the file; the file's own prefix (`/api`) is added by the caller.
 */
import { lineAtOffset } from '../location.js';
import { joinRoute } from '../route-graph.js';
import { scanTopLevel } from '../text-scan.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { arrayEntries, callChain, className, phpImports, qualify, splitArguments, stringList, stringValue, type PhpCall } from './php-source.js';

/** A route as the file declares it, its path joined with every enclosing group's prefix. */
export interface LaravelRoute {
  readonly method: MutatingMethod;
  readonly path: string;
  readonly line: number;
  /** `Class@method`, the class qualified as far as the file says (imports, group namespaces). */
  readonly handler?: string;
  /** A closure action: 1-based lines in this file. */
  readonly span?: { readonly start: number; readonly end: number };
  /** `Route::any`: every method runs it; POST is shown, kept only if the action mutates. */
  readonly anyMethod?: boolean;
}

/** Where a Laravel endpoint came from, kept beside it until its controller and route file are resolved (php-controllers.ts). */
export interface LaravelRouteOrigin {
  /** The route file. */
  readonly file: string;
  /** The path within the file, its groups' prefixes included, before the route file's own prefix. */
  readonly path: string;
  /** The controller class, qualified as far as the route file says, and its action method. */
  readonly controller?: string;
  readonly method?: string;
}

/** Where a route file's routes are served when nothing loads it explicitly: `routes/api.php` under `/api` (Laravel's default), others at the root. */
export function defaultRouteFilePrefix(relPath: string): string {
  return /(?:^|\/)routes\/api\.php$/.test(relPath) ? '/api' : '';
}

/** Internal: each Laravel endpoint's origin, keyed by the finding itself so that nothing leaks into the report. */
export const laravelRouteOrigins = new WeakMap<EndpointFinding, LaravelRouteOrigin>();

/** A route file a group loads: its path as written (relative to the project), and what the group adds. */
export interface LaravelRouteInclude {
  readonly file: string;
  readonly prefix: string;
  readonly namespace: string;
  readonly line: number;
}

interface GroupScope {
  readonly start: number;
  readonly end: number;
  readonly prefix: string;
  readonly namespace: string;
  readonly controller?: string;
}

/** What a chain's calls before the verb (or the group) say: `prefix`, `namespace`, `controller`, or a group's attribute array. */
interface Attributes {
  prefix: string;
  namespace: string;
  controller?: string;
}

const VERBS: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
const REGISTERS = /^(?:post|put|patch|delete|match|any|resource|apiResource|resources|apiResources)$/;
/** A route chain starts at the facade or at the `$router` a group closure receives (Lumen and old Laravel). */
const CHAIN_START = /\bRoute::(?=\w)|\$router->(?=\w)/g;

function attributesOf(calls: readonly PhpCall[], scope: { namespace: string; imports: ReadonlyMap<string, string> }): Attributes {
  const out: Attributes = { prefix: '', namespace: '' };
  const apply = (key: string, value: string): void => {
    if (key === 'prefix') out.prefix = joinRoute(out.prefix, stringValue(value) ?? '');
    else if (key === 'namespace') out.namespace = stringValue(value) ?? out.namespace;
    else if (key === 'controller') {
      const name = className(value);
      if (name) out.controller = qualify(name, scope);
    }
  };
  for (const call of calls) {
    if (call.name === 'group') {
      // `Route::group(['prefix' => 'v1'], fn)`: the attribute array before the routes.
      const [first] = splitArguments(call.args);
      if (first && /^(?:\[|array\s*\()/.test(first.text)) for (const [key, value] of arrayEntries(first.text)) apply(key, value);
    } else {
      const [first] = splitArguments(call.args);
      if (first) apply(call.name, first.text);
    }
  }
  return out;
}

/**
 * A route file a group argument names: `base_path('routes/x.php')`, `__DIR__.'/x.php'` (beside
 * this file), `__DIR__.'/../routes/x.php'`.
 */
export function includedFile(relPath: string, expr: string): string | undefined {
  const base = /base_path\(\s*["']([^"']+\.php)["']\s*\)/.exec(expr)?.[1];
  if (base) return base.replace(/^\/+/, '');
  const beside = /__DIR__\s*\.\s*["']\/?([^"']+\.php)["']/.exec(expr)?.[1];
  if (!beside) return undefined;
  const parts = relPath.split('/').slice(0, -1);
  for (const part of beside.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

/** Where a closure's body lies in the file (the `{…}` of `function () {…}`, or an arrow function's expression). */
function closureRange(call: PhpCall): { start: number; end: number } | undefined {
  const parts = splitArguments(call.args);
  const closure = parts.find((p) => /^(?:static\s+)?(?:function|fn)\b/.test(p.text));
  return closure ? { start: call.argsStart + closure.start, end: call.argsStart + closure.start + closure.text.length } : undefined;
}

/** Words Laravel's Pluralizer never inflects (a subset of its list). */
const UNCOUNTABLE = /(?:^|[_-])(?:audio|data|metadata|equipment|feedback|information|knowledge|money|news|series|software|species|traffic)$/i;

/**
 * doctrine/inflector's English singular rules, in its order (the transformations only: its
 * irregular-word table is left out, so a resource named like `leaves` or `geese` gets a wrong
 * wildcard). The first rule that matches wins.
 */
const SINGULAR_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(s)tatuses$/i, '$1tatus'], [/(c)ampus$/i, '$1ampus'], [/^(.*)(menu)s$/i, '$1$2'], [/(quiz)zes$/i, '$1'], [/(matr)ices$/i, '$1ix'],
  [/(vert|ind)ices$/i, '$1ex'], [/^(ox)en/i, '$1'], [/(alias)(es)*$/i, '$1'], [/(buffal|her|potat|tomat|volcan)oes$/i, '$1o'],
  [/([ftw]ax)es/i, '$1'], [/(analys|ax|cris|test|thes)es$/i, '$1is'], [/(shoe|slave)s$/i, '$1'], [/(o)es$/i, '$1'], [/ouses$/i, 'ouse'],
  [/([^a])uses$/i, '$1us'], [/([ml])ice$/i, '$1ouse'], [/(x|ch|ss|sh)es$/i, '$1'], [/(m)ovies$/i, '$1ovie'], [/([^aeiouy]|qu)ies$/i, '$1y'],
  [/([lr])ves$/i, '$1f'], [/(tive|hive|drive|dive|olive)s$/i, '$1'], [/([^fo])ves$/i, '$1fe'],
  [/(analy|diagno|^ba|(p)arenthe|(p)rogno|(s)ynop|(t)he)ses$/i, '$1sis'], [/(c)riteria$/i, '$1riterion'], [/([ti])a$/i, '$1um'],
  [/(p)eople$/i, '$1erson'], [/(m)en$/i, '$1an'], [/(c)hildren$/i, '$1hild'], [/(f)eet$/i, '$1oot'], [/eaus$/i, 'eau'], [/s$/i, ''],
];

/**
 * A resource's route parameter as `ResourceRegistrar::getResourceWildcard` makes it: `Str::singular`
 * of the name, hyphens as underscores.
 * @example resourceWildcard('recurring-invoices') // 'recurring_invoice'
 */
export function resourceWildcard(segment: string): string {
  if (UNCOUNTABLE.test(segment)) return segment.replace(/-/g, '_');
  const rule = SINGULAR_RULES.find(([pattern]) => pattern.test(segment));
  return (rule ? segment.replace(rule[0], rule[1]) : segment).replace(/-/g, '_');
}

const RESOURCE_ACTIONS: ReadonlyArray<{ action: string; methods: readonly MutatingMethod[]; member: boolean }> = [
  { action: 'store', methods: ['POST'], member: false },
  // `Route::resource` registers update as one route for PUT and PATCH.
  { action: 'update', methods: ['PUT', 'PATCH'], member: true },
  { action: 'destroy', methods: ['DELETE'], member: true },
];

interface ResourceOptions {
  only?: string[];
  except?: string[];
  parameters: Map<string, string>;
  shallow: boolean;
}

function resourceOptions(calls: readonly PhpCall[], optionsArg: string | undefined): ResourceOptions {
  const out: ResourceOptions = { parameters: new Map(), shallow: false };
  const entries = optionsArg ? arrayEntries(optionsArg) : new Map<string, string>();
  const read = (key: string, value: string): void => {
    if (key === 'only') out.only = stringList(value);
    else if (key === 'except') out.except = stringList(value);
    else if (key === 'parameters') for (const [name, param] of arrayEntries(value)) out.parameters.set(name, stringValue(param) ?? name);
    else if (key === 'shallow') out.shallow = !/^false$/i.test(value.trim());
  };
  for (const [key, value] of entries) read(key, value);
  for (const call of calls) read(call.name, call.args.trim() || 'true');
  return out;
}

/** The mutating routes of one resource registration: `photos.comments` nests under `/photos/{photo}`. */
function resourceRoutes(name: string, controller: string | undefined, options: ResourceOptions): Array<Omit<LaravelRoute, 'line'>> {
  const segments = name.replace(/^\/+|\/+$/g, '').split('.');
  const wildcard = (segment: string): string => options.parameters.get(segment) ?? resourceWildcard(segment.slice(segment.lastIndexOf('/') + 1));
  const parents = segments.slice(0, -1).map((segment) => `${segment}/{${wildcard(segment)}}`);
  const last = segments[segments.length - 1] ?? '';
  const collection = joinRoute(...parents, last);
  const member = joinRoute(...(options.shallow ? [] : parents), last, `{${wildcard(last)}}`);
  return RESOURCE_ACTIONS.filter(({ action }) => (!options.only || options.only.includes(action)) && !options.except?.includes(action))
    .flatMap(({ action, methods, member: onMember }) => methods.map((method) => ({
      method, path: onMember ? member : collection, ...(controller ? { handler: `${controller}@${action}` } : {}),
    })));
}

/**
 * A path argument: a literal, or a literal joined with an expression (`'/telegram/webhook/'.config(
 * 'x')`), whose value is only known at run time and is shown as a parameter named after it.
 */
function pathOf(expr: string): string | undefined {
  const literal = stringValue(expr);
  if (literal !== undefined) return literal;
  const parts: string[] = [];
  for (let at = 0; at <= expr.length;) {
    // The concatenation operator at the top level: a `.` inside a string or a call's arguments is none.
    const dot = scanTopLevel(expr, at, (char) => char === '.');
    parts.push(expr.slice(at, dot).trim());
    at = dot + 1;
  }
  if (parts.length < 2 || !parts.some((p) => stringValue(p) !== undefined)) return undefined;
  return parts.map((part) => stringValue(part) ?? `{${/^\$?(\w+)/.exec(part.trim())?.[1] ?? 'param'}}`).join('');
}

/**
 * The action of a verb route: `[X::class, 'store']`, `'X@store'`, invokable `X::class`, a method
 * name under `Route::controller(X::class)`, or a closure (its lines).
 */
function actionOf(expr: string | undefined, offset: number, code: string, context: { controller?: string; namespace: string; scope: { namespace: string; imports: ReadonlyMap<string, string> } }): Pick<LaravelRoute, 'handler' | 'span'> {
  if (!expr) return {};
  const text = expr.trim();
  const qualified = (name: string): string => qualify(name, context.scope);
  // Strings name controllers relative to the group's namespace (Laravel ≤ 7 style: `'Api\\X@store'` under `namespace('App\\Http\\Controllers')`).
  const fromString = (name: string): string => (name.startsWith('\\') ? name.slice(1) : [context.namespace, name].filter(Boolean).join('\\'));
  const pair = /^\[\s*\\?([\w\\]+)::class\s*,\s*["'](\w+)["']\s*\]$/.exec(text);
  if (pair) return { handler: `${qualified(pair[1] ?? '')}@${pair[2] ?? ''}` };
  const at = /^["']([\w\\]+)@(\w+)["']$/.exec(text);
  if (at) return { handler: `${fromString((at[1] ?? '').replace(/\\\\/g, '\\'))}@${at[2] ?? ''}` };
  const invokable = /^\\?([\w\\]+)::class$/.exec(text);
  if (invokable) return { handler: `${qualified(invokable[1] ?? '')}@__invoke` };
  const method = stringValue(text);
  if (method !== undefined && context.controller) return { handler: `${context.controller}@${method}` };
  if (/^(?:static\s+)?(?:function|fn)\b/.test(text)) return { span: { start: lineAtOffset(code, offset), end: lineAtOffset(code, offset + text.length) } };
  // `['uses' => 'X@store']`, the array form of old Laravel.
  const uses = arrayEntries(text).get('uses');
  return uses ? actionOf(uses, offset, code, context) : {};
}

/**
 * The routes and route-file includes of one PHP file (comments already blanked).
 * @example laravelRoutes('routes/api.php', "Route::prefix('v1')->group(function () {\n  Route::post('orders', [OrderController::class, 'store']);\n});").routes[0].path // '/v1/orders'
 */
export function laravelRoutes(relPath: string, code: string): { routes: LaravelRoute[]; includes: LaravelRouteInclude[] } {
  const scope = phpImports(code);
  const chains = [...code.matchAll(CHAIN_START)].map((m) => ({ at: m.index ?? 0, calls: callChain(code, (m.index ?? 0) + m[0].length) }));
  const groups: GroupScope[] = [];
  const includes: LaravelRouteInclude[] = [];
  const enclosing = (at: number): GroupScope[] => groups.filter((g) => g.start <= at && at < g.end).sort((a, b) => a.start - b.start);
  const contextAt = (at: number, own?: Attributes): { prefix: string; namespace: string; controller?: string } => {
    const outer = [...enclosing(at), ...(own ? [own] : [])];
    const controller = [...outer].reverse().find((g) => g.controller)?.controller;
    return {
      prefix: joinRoute(...outer.map((g) => g.prefix)),
      // A group's namespace nests inside the enclosing one's unless written from the root (`\App\…`).
      namespace: outer.reduce((ns, g) => (g.namespace.startsWith('\\') ? g.namespace.slice(1) : [ns, g.namespace].filter(Boolean).join('\\')), ''),
      ...(controller ? { controller } : {}),
    };
  };
  // Groups first (outer before inner, as the file reads), so that every route sees all that enclose it.
  for (const { at, calls } of chains) {
    const groupIndex = calls.findIndex((c) => c.name === 'group');
    if (groupIndex < 0 || calls.slice(0, groupIndex).some((c) => REGISTERS.test(c.name))) continue;
    const group = calls[groupIndex] as PhpCall;
    const own = attributesOf(calls.slice(0, groupIndex + 1), scope);
    const range = closureRange(group);
    if (range) groups.push({ ...range, ...own });
    const args = splitArguments(group.args);
    const file = args.map((a) => includedFile(relPath, a.text)).find(Boolean);
    if (file) {
      const context = contextAt(at, own);
      includes.push({ file, prefix: context.prefix, namespace: context.namespace, line: lineAtOffset(code, at) });
    }
  }
  // `require base_path('routes/x.php');` inside a group: the file's routes get the group's prefix.
  for (const match of code.matchAll(/\b(?:require|include)(?:_once)?\s*\(?\s*((?:base_path|__DIR__)[^;]*);/g)) {
    const file = includedFile(relPath, match[1] ?? '');
    const context = contextAt(match.index ?? 0);
    if (file) includes.push({ file, prefix: context.prefix, namespace: context.namespace, line: lineAtOffset(code, match.index ?? 0) });
  }
  const routes: LaravelRoute[] = [];
  for (const { at, calls } of chains) {
    const verbIndex = calls.findIndex((c) => REGISTERS.test(c.name));
    const verb = calls[verbIndex];
    if (!verb || calls.slice(0, verbIndex).some((c) => c.name === 'group')) continue;
    const own = attributesOf(calls.slice(0, verbIndex), scope);
    const context = contextAt(at, own);
    const line = lineAtOffset(code, at);
    const args = splitArguments(verb.args);
    const after = calls.slice(verbIndex + 1);
    const actionContext = { ...(context.controller ? { controller: context.controller } : {}), namespace: context.namespace, scope };
    if (/^(?:resource|apiResource)$/.test(verb.name)) {
      const name = stringValue(args[0]?.text ?? '');
      if (name === undefined) continue;
      const controller = args[1] ? className(args[1].text) : undefined;
      const qualified = controller && (/::class\s*$/.test(args[1]?.text ?? '') ? qualify(controller, scope) : [context.namespace, controller].filter(Boolean).join('\\'));
      for (const route of resourceRoutes(name, qualified, resourceOptions(after, args[2]?.text))) routes.push({ ...route, path: joinRoute(context.prefix, route.path), line });
      continue;
    }
    if (/^(?:resources|apiResources)$/.test(verb.name)) {
      // `Route::apiResources(['photos' => PhotoController::class, …])`.
      for (const [name, value] of arrayEntries(args[0]?.text ?? '')) {
        const controller = className(value);
        const qualified = controller && (/::class\s*$/.test(value) ? qualify(controller, scope) : [context.namespace, controller].filter(Boolean).join('\\'));
        for (const route of resourceRoutes(name, qualified, resourceOptions(after, args[1]?.text))) routes.push({ ...route, path: joinRoute(context.prefix, route.path), line });
      }
      continue;
    }
    const [methods, pathArg, actionArg] = verb.name === 'match'
      ? [stringList(args[0]?.text ?? '').flatMap((m) => VERBS[m.toLowerCase()] ?? []), args[1], args[2]]
      : [verb.name === 'any' ? ['POST' as const] : [VERBS[verb.name] as MutatingMethod], args[0], args[1]];
    const path = pathArg ? pathOf(pathArg.text) : undefined;
    if (path === undefined || methods.length === 0) continue;
    const action = actionOf(actionArg?.text, verb.argsStart + (actionArg?.start ?? 0), code, actionContext);
    for (const method of methods) {
      routes.push({ method, path: joinRoute(context.prefix, path), line, ...action, ...(verb.name === 'any' ? { anyMethod: true } : {}) });
    }
  }
  return { routes, includes };
}
