/**
 * Rails `config/routes.rb` read the way the router builds it: a stack of blocks (`scope`,
 * `namespace`, `resources`/`resource` with their nested, member and collection scopes, `shallow`,
 * `controller`, `constraints`, `defaults`, `concern`/`concerns`), so that every mutating route gets
 * its full path as served and the controller action that answers it (`admin/orders#cancel`).
 * Semantics follow ActionDispatch::Routing::Mapper (Rails 7): a verb inside `resources` without
 * `on:` is nested (`/orders/:order_id/x`), inside a singular `resource` it is a member route;
 * `resources` update answers PATCH and PUT alike, so both are reported.
 */
import { formatLocation } from '../location.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { maskCode } from './code-mask.js';

/** The resource a block belongs to: where its member, collection and nested routes go. */
interface ResourceScope {
  readonly singular: boolean;
  readonly controller: string;
  readonly collectionPath: string;
  readonly memberPath: string;
  readonly nestedPath: string;
}

/** What the router's `@scope` holds at one point of the file, as far as paths and controllers go. */
interface RouteScope {
  readonly path: string;
  /** Where shallow member routes go: only `namespace` and `scope shallow_path:` add to it (Mapper#shallow_scope). */
  readonly shallowPath: string;
  /** Controller module (`admin/billing`): `namespace`, `scope module:`, `resources …, module:`. */
  readonly module: string;
  /** The controller a verb without `to:` reaches: the resource's, or a `controller :x do` block's. */
  readonly controller?: string;
  /** Set directly inside a `resources`/`resource` block (not in its member or collection block). */
  readonly resource?: ResourceScope;
  /** Inside another resource: `shallow` then moves member routes out of the parent's path. */
  readonly nested: boolean;
  readonly shallow: boolean;
}

/** One statement of routes.rb, its continuation lines joined, with the line it starts on. */
interface Statement {
  readonly text: string;
  readonly line: number;
}

/** A statement read as a method call: `resources :orders, only: %i[create], path: 'x' do`. */
interface RouteCall {
  readonly name: string;
  /** Leading symbols and strings, unquoted (`:orders` → `orders`). */
  readonly positional: readonly string[];
  /** Keyword options as written (`only` → `%i[create]`); a string `=>` target is `to`. */
  readonly options: ReadonlyMap<string, string>;
  readonly opensBlock: boolean;
}

const MUTATING: readonly MutatingMethod[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
const VERBS: Readonly<Record<string, readonly MutatingMethod[]>> = { post: ['POST'], put: ['PUT'], patch: ['PATCH'], delete: ['DELETE'] };
/** The mutating default actions of `resources` and `resource`: update answers PATCH and PUT (ActionDispatch `resources` maps both). */
const RESOURCE_ACTIONS: ReadonlyArray<{ readonly action: string; readonly methods: readonly MutatingMethod[]; readonly member: boolean }> = [
  { action: 'create', methods: ['POST'], member: false },
  { action: 'update', methods: ['PATCH', 'PUT'], member: true },
  { action: 'destroy', methods: ['DELETE'], member: true },
];
/**
 * Devise's routes for a controller the app overrides (`devise_for :users, controllers: { sessions: 'users/sessions' }`):
 * action, methods and the path after the mapping's own (`path_names` may rename the last segment).
 */
const DEVISE_ROUTES: Readonly<Record<string, ReadonlyArray<{ readonly action: string; readonly methods: readonly MutatingMethod[]; readonly path: string; readonly pathName?: string }>>> = {
  sessions: [{ action: 'create', methods: ['POST'], path: 'sign_in', pathName: 'sign_in' }, { action: 'destroy', methods: ['DELETE'], path: 'sign_out', pathName: 'sign_out' }],
  registrations: [{ action: 'create', methods: ['POST'], path: '', pathName: 'registration' }, { action: 'update', methods: ['PATCH', 'PUT'], path: '', pathName: 'registration' }, { action: 'destroy', methods: ['DELETE'], path: '', pathName: 'registration' }],
  passwords: [{ action: 'create', methods: ['POST'], path: 'password', pathName: 'password' }, { action: 'update', methods: ['PATCH', 'PUT'], path: 'password', pathName: 'password' }],
  confirmations: [{ action: 'create', methods: ['POST'], path: 'confirmation', pathName: 'confirmation' }],
  unlocks: [{ action: 'create', methods: ['POST'], path: 'unlock', pathName: 'unlock' }],
};

/**
 * Devise routes are reported only when the app's own controller defines the action (they would
 * otherwise be invented from a gem's defaults): linkRailsControllers drops the others. A symbol
 * key, because endpoints are copied on the way (`{ ...rest }` keeps it) and JSON output never shows it.
 */
const DEFINED_IN_APP_ONLY = Symbol('rails: kept only if the app defines the action');

/** True for a Devise route kept only if the app's controller defines its action. */
export function needsAppAction(endpoint: EndpointFinding): boolean {
  return (endpoint as EndpointFinding & { [DEFINED_IN_APP_ONLY]?: true })[DEFINED_IN_APP_ONLY] === true;
}

/** The endpoint without the Devise mark, once its action is found in the app. */
export function withoutAppActionMark(endpoint: EndpointFinding): EndpointFinding {
  const { [DEFINED_IN_APP_ONLY]: _mark, ...rest } = endpoint as EndpointFinding & { [DEFINED_IN_APP_ONLY]?: true };
  return rest;
}

/**
 * Every mutating route of a routes file with its full path and `controller#action` handler.
 * @example railsRoutes('config/routes.rb', "scope :api do\n  resources :orders, only: :create do\n    post :cancel, on: :member\n  end\nend")
 * // POST /api/orders (orders#create), POST /api/orders/:id/cancel (orders#cancel)
 */
export function railsRoutes(relPath: string, text: string): EndpointFinding[] {
  const out: EndpointFinding[] = [];
  const root: RouteScope = { path: '', shallowPath: '', module: '', nested: false, shallow: false };
  readBlock(statementsOf(maskCode(text, 'ruby')), [root], { relPath, out, concerns: new Map() });
  return out;
}

interface ReadContext {
  readonly relPath: string;
  readonly out: EndpointFinding[];
  /** `concern :name do … end` bodies, replayed where `concerns: :name` or `concerns :name` uses them. */
  readonly concerns: Map<string, readonly Statement[]>;
}

/** Reads statements in the given scopes, pushing a block's scopes at `do` and popping them at `end`. */
function readBlock(statements: readonly Statement[], scopes: readonly RouteScope[], ctx: ReadContext): void {
  const stack: Array<readonly RouteScope[]> = [scopes];
  for (let i = 0; i < statements.length; i += 1) {
    const statement = statements[i] as Statement;
    const current = stack[stack.length - 1] ?? scopes;
    if (/^end\b/.test(statement.text)) {
      if (stack.length > 1) stack.pop();
      continue;
    }
    const call = parseCall(statement.text);
    if (call?.name === 'concern' && call.opensBlock) {
      // A concern is a template: its routes exist only where it is used.
      const end = blockEnd(statements, i);
      ctx.concerns.set(call.positional[0] ?? '', statements.slice(i + 1, end));
      i = end;
      continue;
    }
    const inner = call ? current.flatMap((scope) => readStatement(call, statement.line, scope, ctx)) : current;
    if (opensBlock(statement.text)) stack.push(inner);
  }
}

/** Index of the `end` closing the block opened by statement `open`. */
function blockEnd(statements: readonly Statement[], open: number): number {
  let depth = 0;
  for (let i = open; i < statements.length; i += 1) {
    const text = statements[i]?.text ?? '';
    if (opensBlock(text)) depth += 1;
    else if (/^end\b/.test(text) && --depth === 0) return i;
  }
  return statements.length;
}

/** A `do` block (`do`, `do |entry, options|`) or a keyword that `end` closes (`if Rails.env.test?`). */
function opensBlock(text: string): boolean {
  return /\bdo\s*(?:\|[^|]*\|)?\s*$/.test(text) || (/^(?:if|unless|case|while|until|begin|for|def|class|module)\b/.test(text) && !/\bend\s*$/.test(text));
}

/**
 * Applies one statement in one scope: emits its routes and returns the scopes its block (if any) runs in.
 */
function readStatement(call: RouteCall, line: number, scope: RouteScope, ctx: ReadContext): RouteScope[] {
  const option = (key: string): string | undefined => call.options.get(key);
  switch (call.name) {
    case 'scope': {
      const path = [...call.positional, ...names(option('path'))].join('/');
      const module = names(option('module'))[0];
      const controller = names(option('controller'))[0];
      const shallowPath = names(option('shallow_path'))[0];
      return [{
        ...scope, path: joinPath(scope.path, path), shallowPath: joinPath(scope.shallowPath, shallowPath ?? ''),
        module: module ? joinModule(scope.module, module) : scope.module, ...(controller ? { controller } : {}),
        ...(option('shallow') === 'true' ? { shallow: true } : {}),
      }];
    }
    case 'namespace': {
      const name = call.positional[0] ?? '';
      const path = names(option('path'))[0] ?? name;
      const module = names(option('module'))[0] ?? name;
      const { controller: _outer, resource: _resource, ...rest } = scope;
      return [{ ...rest, path: joinPath(scope.path, path), shallowPath: joinPath(scope.shallowPath, names(option('shallow_path'))[0] ?? path), module: joinModule(scope.module, module) }];
    }
    case 'controller':
      return [{ ...scope, controller: call.positional[0] ?? scope.controller ?? '' }];
    case 'shallow':
      return [{ ...scope, shallow: true }];
    case 'member':
      return scope.resource ? [{ ...withoutResource(scope), path: scope.resource.memberPath, controller: scope.resource.controller }] : [scope];
    case 'collection':
      return scope.resource ? [{ ...withoutResource(scope), path: scope.resource.collectionPath, controller: scope.resource.controller }] : [scope];
    case 'resources':
    case 'resource':
      return call.positional.map((name) => readResource(call, name, line, scope, ctx));
    case 'concerns':
      for (const name of call.positional) readBlock(ctx.concerns.get(name) ?? [], [scope], ctx);
      return [scope];
    case 'devise_for':
      for (const name of call.positional) readDevise(call, name, line, scope, ctx);
      return [scope];
    case 'match':
    case 'post':
    case 'put':
    case 'patch':
    case 'delete':
      readVerb(call, line, scope, ctx);
      return [scope];
    default:
      // `constraints`, `defaults`, `direct`, `if`, `Rails.application.routes.draw`: no path of their own.
      return [scope];
  }
}

function withoutResource(scope: RouteScope): RouteScope {
  const { resource: _resource, ...rest } = scope;
  return rest;
}

/** `resources :orders` / `resource :account`: default actions, then the scope their block runs in. */
function readResource(call: RouteCall, name: string, line: number, scope: RouteScope, ctx: ReadContext): RouteScope {
  const option = (key: string): string | undefined => call.options.get(key);
  const singular = call.name === 'resource';
  const segment = names(option('path'))[0] ?? name;
  const param = names(option('param'))[0] ?? 'id';
  const ownModule = names(option('module'))[0];
  const module = ownModule ? joinModule(scope.module, ownModule) : scope.module;
  // A singular resource is served by the plural controller (`resource :account` → AccountsController).
  const controller = names(option('controller'))[0] ?? (singular ? pluralize(name) : name);
  const shallow = scope.shallow || option('shallow') === 'true';
  // Shallow nesting (Mapper#shallow_scope): member routes of a nested resource leave the parent's path.
  const memberBase = scope.nested && shallow ? scope.shallowPath : scope.path;
  const collectionPath = joinPath(scope.path, segment);
  const memberPath = singular ? collectionPath : joinPath(memberBase, `${segment}/:${param}`);
  const nestedPath = singular ? collectionPath : joinPath(memberBase, `${segment}/:${singularize(name)}_${param}`);
  const resource: ResourceScope = { singular, controller, collectionPath, memberPath, nestedPath };
  const only = option('only') === undefined ? undefined : names(option('only'));
  const except = names(option('except'));
  for (const { action, methods, member } of RESOURCE_ACTIONS) {
    if ((only && !only.includes(action)) || except.includes(action)) continue;
    emit(ctx, { methods, route: member ? memberPath : collectionPath, controller: joinController(module, controller), action, line });
  }
  const inner: RouteScope = { ...scope, module, controller, resource, nested: true, shallow, path: nestedPath };
  for (const concern of names(option('concerns'))) readBlock(ctx.concerns.get(concern) ?? [], [inner], ctx);
  return inner;
}

/**
 * `post :cancel`, `post 'stripe'`, `patch 'x', to: 'a#b'`, `post 'auth/login' => 'sessions#create'`,
 * `match 'x', to: 'a#b', via: [:post, :put]`, `delete :reset, on: :member`.
 */
function readVerb(call: RouteCall, line: number, scope: RouteScope, ctx: ReadContext): void {
  const option = (key: string): string | undefined => call.options.get(key);
  const via = call.name === 'match' ? names(option('via')) : [call.name];
  const methods = via.includes('all') ? MUTATING : via.flatMap((v) => VERBS[v] ?? []);
  if (methods.length === 0) return;
  const to = names(option('to'))[0];
  const [toController, toAction] = to?.includes('#') ? to.split('#') : [undefined, to];
  for (const written of call.positional) {
    const path = names(option('path'))[0] ?? written;
    // Mapper#get_to_from_path: `post 'auth/login'` without `to:` goes to auth#login.
    const shorthand = !to && !option('action') && /^\/?[-\w]+\/[-\w/]+$/.test(written) ? /^\/?(.*)\/([^/]*)$/.exec(written) : null;
    const action = names(option('action'))[0] ?? toAction ?? shorthand?.[2] ?? (written.includes('/') ? undefined : written.replace(/-/g, '_'));
    const controller = toController ?? names(option('controller'))[0] ?? shorthand?.[1] ?? scope.controller;
    const on = names(option('on'))[0];
    const resource = scope.resource;
    // Inside `resources` a verb without `on:` is nested (`/orders/:order_id/x`); inside `resource`, a member route.
    const base = !resource ? scope.path
      : on === 'member' ? resource.memberPath
        : on === 'collection' ? resource.collectionPath
          : on === 'new' ? joinPath(resource.collectionPath, 'new')
            : resource.singular ? resource.memberPath : resource.nestedPath;
    emit(ctx, { methods, route: joinPath(base, path), controller: joinController(scope.module, controller), action, line });
  }
}

/** `devise_for :users, controllers: { sessions: 'users/sessions' }, path: 'auth', path_names: { sign_in: 'login' }`. */
function readDevise(call: RouteCall, name: string, line: number, scope: RouteScope, ctx: ReadContext): void {
  const base = joinPath(scope.path, names(call.options.get('path'))[0] ?? name);
  const controllers = hashOf(call.options.get('controllers') ?? '');
  const pathNames = hashOf(call.options.get('path_names') ?? '');
  for (const [kind, controller] of controllers) {
    for (const route of DEVISE_ROUTES[kind] ?? []) {
      const renamed = route.pathName ? pathNames.get(route.pathName) : undefined;
      const path = renamed ?? route.path;
      const found = emit(ctx, { methods: route.methods, route: joinPath(base, path), controller: joinController(scope.module, controller), action: route.action, line });
      for (const endpoint of found) Object.assign(endpoint, { [DEFINED_IN_APP_ONLY]: true });
    }
  }
}

function emit(ctx: ReadContext, spec: { methods: readonly MutatingMethod[]; route: string; controller: string | undefined; action: string | undefined; line: number }): EndpointFinding[] {
  const route = (spec.route || '/').replace(/\([^)]*\)/g, '') || '/';
  const handler = spec.controller && spec.action ? `${spec.controller}#${spec.action}` : undefined;
  const found = spec.methods.map((method): EndpointFinding => ({
    method, route, framework: 'rails', location: formatLocation(ctx.relPath, spec.line), bodyFields: [],
    ...(handler ? { handler } : {}), webhook: /webhook|\bipn\b/i.test(route),
  }));
  ctx.out.push(...found);
  return found;
}

function joinController(module: string, controller: string | undefined): string | undefined {
  // `to: '/billing#x'` and `controller: '/billing'` are absolute: no module in front.
  if (controller?.startsWith('/')) return controller.slice(1);
  const joined = [module, controller].filter(Boolean).join('/');
  return joined || undefined;
}

function joinModule(outer: string, inner: string): string {
  return [outer, inner.replace(/^\/+|\/+$/g, '')].filter(Boolean).join('/');
}

function joinPath(prefix: string, segment: string): string {
  const trimmed = segment.replace(/^\/+|\/+$/g, '');
  return trimmed ? `${prefix}/${trimmed}` : prefix;
}

/** The names a value lists: `:a`, `'a'`, `[:a, :b]`, `%i[a b]`, `%w[a b]`, `"a#b"`. */
function names(value: string | undefined): string[] {
  if (value === undefined) return [];
  const words = /^%[iIwW]\s*[[({<]([^\])}>]*)/.exec(value.trim());
  if (words) return (words[1] ?? '').split(/\s+/).filter(Boolean);
  return [...value.matchAll(/:(\w+)|"([^"]*)"|'([^']*)'|\b(true|false)\b/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
}

/** A literal hash `{ sessions: 'users/sessions', "sign_in" => :login }` as key → name. */
function hashOf(value: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of value.matchAll(/(?:["':]?(\w+)["']?\s*(?::|=>))\s*(:\w+|"[^"]*"|'[^']*')/g)) out.set(m[1] ?? '', names(m[2])[0] ?? '');
  return out;
}

/** Statements with continuation lines joined: a trailing `,` or `\`, or a bracket still open. */
function statementsOf(code: string): Statement[] {
  const out: Statement[] = [];
  let pending: { text: string; line: number } | undefined;
  code.split('\n').forEach((raw, index) => {
    const text = raw.trim();
    if (!text && !pending) return;
    const joined = pending ? { text: `${pending.text} ${text}`, line: pending.line } : { text, line: index + 1 };
    if (/[,\\]$/.test(joined.text) || bracketDepth(joined.text) > 0) pending = { text: joined.text.replace(/\\$/, ''), line: joined.line };
    else {
      pending = undefined;
      // `;` separates statements on one line (`member do post :cancel end` is rare; `resources :a; resources :b` is not).
      for (const part of splitTopLevel(joined.text, ';')) if (part.trim()) out.push({ text: part.trim(), line: joined.line });
    }
  });
  if (pending) out.push(pending);
  return out;
}

function bracketDepth(text: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
  }
  return depth;
}

/** Splits at `separator` outside brackets and quotes. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] ?? '';
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * A statement as a call: its name, leading positional symbols/strings and keyword options.
 * @example parseCall("post 'auth/login' => 'sessions#create'") // { name: 'post', positional: ['auth/login'], options: to → 'sessions#create' }
 */
function parseCall(text: string): RouteCall | undefined {
  const head = /^([a-z_]\w*)\b\s*\(?\s*/.exec(text);
  if (!head) return undefined;
  const opensBlock = /\bdo\s*(?:\|[^|]*\|)?\s*$/.test(text);
  let rest = text.slice(head[0].length).replace(/\s*\bdo\s*(?:\|[^|]*\|)?\s*$/, '').trim();
  if (head[0].includes('(') && rest.endsWith(')')) rest = rest.slice(0, -1);
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (const raw of splitTopLevel(rest, ',')) {
    const arg = raw.trim();
    if (!arg) continue;
    const keyword = /^(?::(\w+)\s*=>|(\w+):(?!:))\s*([\s\S]*)$/.exec(arg);
    const rocket = /^(["'])([^"']*)\1\s*=>\s*([\s\S]*)$/.exec(arg);
    if (keyword) options.set(keyword[1] ?? keyword[2] ?? '', (keyword[3] ?? '').trim());
    else if (rocket) {
      positional.push(rocket[2] ?? '');
      options.set('to', (rocket[3] ?? '').trim());
    } else {
      const value = /^(?::(\w+)|"([^"]*)"|'([^']*)')$/.exec(arg);
      if (value) positional.push(value[1] ?? value[2] ?? value[3] ?? '');
    }
  }
  return { name: head[1] ?? '', positional, options, opensBlock };
}

/**
 * English plural the way ActiveSupport's common rules make it (`account` → `accounts`, `category` → `categories`).
 * @example pluralize('address') // 'addresses'
 */
export function pluralize(word: string): string {
  if (/(?:ss|us|is|x|z|ch|sh)$/.test(word)) return `${word}es`;
  if (/s$/.test(word)) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/**
 * English singular the way ActiveSupport's common rules make it (`orders` → `order`, `categories` → `category`).
 * @example singularize('addresses') // 'address'
 */
export function singularize(word: string): string {
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh|us)es$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word)) return word;
  return word.replace(/s$/, '');
}
