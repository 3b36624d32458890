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
import { hashOf, names, opensBlock, parseCall, statementsOf, type RouteCall, type Statement } from './ruby-route-syntax.js';

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
