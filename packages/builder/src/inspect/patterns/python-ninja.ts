/**
 * Django Ninja: `NinjaAPI()` and `Router()` receivers, their operations (`@api.post('/x')`,
 * `@router.put(...)`, `@router.api_operation(['POST', 'PATCH'], '/x')`), `add_router` mounts (a
 * router, or its dotted module path as a string) and `path('api/', api.urls)` in a urls module.
 * Ninja runs inside Django, so its routes are reported as Django's: the generated Django view
 * decorator is what such an app wraps its operations with. Body schemas are the typed
 * parameters python.ts reads (`payload: OrderIn`, `Form[OrderIn]`).
 */
import { formatLocation } from '../location.js';
import type { ModuleRef, RouteFacts } from '../route-graph.js';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { callText, matchesWithLines } from './line-patterns.js';
import { argsOf, keyword, positional, stringLiteral } from './python-args.js';
import { djangoRoute } from './python-django-urls.js';
import { mutatingMethods } from './python-django-views.js';
import { mountedNode } from './python-routers.js';
import { endpoint } from './python.js';

const NINJA_IMPORT = /^[ \t]*(?:from[ \t]+ninja(?:\.\w+)*[ \t]+import|import[ \t]+ninja)\b/m;
/** `api = NinjaAPI(...)`, `router: Router = Router(...)`, at any indentation (an app built in a factory). */
const CONSTRUCTION = /^[ \t]*(\w+)[ \t]*(?::[ \t]*[\w.]+[ \t]*)?=[ \t]*(?:ninja\.)?(NinjaAPI|Router)\(/gm;
const OPERATION = /^[ \t]*@(\w+)\.(post|put|patch|delete|api_operation)\(/gm;
const METHOD: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' };
/** Session auth: the principal is `request.user`, which the generated Django decorator reads. */
const SESSION_AUTH = /^(?:ninja\.security\.)?django_auth(?:_superuser|_is_staff)?$|^None$|^NOT_SET$/;

/** `Router` is Ninja's only when the file imports it from ninja (Litestar and others have a `Router` too). */
const NINJA_ROUTER = /^[ \t]*from[ \t]+ninja(?:\.router)?[ \t]+import[ \t]+(?:\([^)]*\bRouter\b[^)]*\)|[^\n]*\bRouter\b)/m;

/** The constructions of a Ninja API or router in a file: `NinjaAPI(`, `ninja.Router(`, or `Router(` imported from ninja. */
function ninjaConstructions(text: string): ReturnType<typeof matchesWithLines> {
  const router = NINJA_ROUTER.test(text);
  return matchesWithLines(text, CONSTRUCTION).filter(({ match }) => match[2] === 'NinjaAPI' || router || /=\s*ninja\.Router\($/.test(match[0]));
}

/** The receivers a file binds to a Ninja API or router. */
function ninjaReceivers(text: string): Set<string> {
  return new Set(ninjaConstructions(text).map(({ match }) => match[1] ?? ''));
}

/**
 * The node that stands for a receiver's routes written `'/'`: Ninja serves `@router.post('/')`
 * below `add_router('/orders', router)` at `orders/`, with its slash, which `joinRoute` drops for a
 * bare `/`. Such routes sit on a child of the receiver mounted at `//` (route-graph.ts: a segment
 * ending in `//` makes the joined path end with `/`).
 */
const slashNode = (relPath: string, receiver: string): string => `${relPath}#${receiver}/`;

/** A mutating operation's methods and path from its decorator's arguments; undefined when the path is no literal. */
function operation(kind: string, args: readonly string[]): { methods: MutatingMethod[]; path: string } | undefined {
  const list = positional(args);
  if (kind === 'api_operation') {
    const path = stringLiteral(keyword(args, 'path') ?? list[1]);
    return path === undefined ? undefined : { methods: mutatingMethods(keyword(args, 'methods') ?? list[0] ?? ''), path };
  }
  const path = stringLiteral(keyword(args, 'path') ?? list[0]);
  return path === undefined ? undefined : { methods: [METHOD[kind] as MutatingMethod], path };
}

/**
 * Where a Ninja `auth=` that does not put the principal on `request.user` is set, as a note: the
 * generated Django decorator scopes keys by `request.user.pk` and answers 401 for an anonymous
 * user, so with a token or API-key auth class it must be told where the principal is.
 */
function authNote(relPath: string, line: number, args: readonly string[]): string | undefined {
  const auth = keyword(args, 'auth');
  if (!auth || SESSION_AUTH.test(auth)) return undefined;
  return `${formatLocation(relPath, line)}: Django Ninja authenticates with \`auth=${auth.replace(/\s+/g, ' ')}\`, which puts the principal on \`request.auth\`, not \`request.user\`; the generated Django decorator scopes keys by \`request.user.pk\` and answers 401 without one — set \`request.user\` in the auth class, or scope by \`request.auth\`, before wrapping these operations.`;
}

/**
 * Mutating Ninja operations of one file, and notes on `auth=` the generated code must be told about.
 * @example scanNinjaRoutes('shop/api.py', 'from ninja import Router\nrouter = Router()\n@router.post("/orders")\ndef create(request, data: OrderIn): ...\n').endpoints[0].method // 'POST'
 */
export function scanNinjaRoutes(relPath: string, text: string): { endpoints: EndpointFinding[]; notes: string[] } {
  const endpoints: EndpointFinding[] = [];
  const notes: string[] = [];
  if (!NINJA_IMPORT.test(text)) return { endpoints, notes };
  const receivers = ninjaReceivers(text);
  for (const { match, line, index } of ninjaConstructions(text)) {
    const note = authNote(relPath, line, argsOf(callText(text, index + match[0].length - 1)));
    if (note) notes.push(note);
  }
  for (const { match, line, index } of matchesWithLines(text, OPERATION)) {
    const receiver = match[1] ?? '';
    if (!receivers.has(receiver)) continue;
    const args = argsOf(callText(text, index + match[0].length - 1));
    const found = operation(match[2] ?? '', args);
    if (!found) continue;
    const note = authNote(relPath, line, args);
    if (note) notes.push(note);
    const root = found.path === '/';
    // Ninja writes a converter before the name (`{int:order_id}`); the route shows the name alone.
    const route = root ? '' : found.path.replace(/\{\w+:(\w+)\}/g, '{$1}');
    for (const method of found.methods) {
      const spec = { method, route, framework: 'django' as const, line };
      endpoints.push({ ...endpoint(text, relPath, spec), scope: root ? slashNode(relPath, receiver) : `${relPath}#${receiver}` });
    }
  }
  return { endpoints, notes };
}

/** `'shop.api.router'`: the name `router` in the module shop/api.py, as Ninja imports it. */
function dottedRouter(path: string): ModuleRef | undefined {
  const parts = path.split('.');
  const name = parts.pop();
  if (!name || parts.length === 0) return undefined;
  const module = parts.join('/');
  return { modules: [`${module}.py`, `${module}/__init__.py`], name };
}

/**
 * The mounts of one file: `api.add_router('/orders', router)` (an imported router, `orders.router`,
 * or a dotted module path string) and `path('api/', api.urls)` in urls.py, added to `facts`.
 */
export function ninjaRouteFacts(relPath: string, text: string, imports: ReadonlyMap<string, ModuleRef>, facts: RouteFacts): void {
  if (NINJA_IMPORT.test(text)) {
    for (const { match, line } of ninjaConstructions(text)) {
      facts.mounts.push({ parent: `${relPath}#${match[1] ?? ''}`, child: slashNode(relPath, match[1] ?? ''), prefix: '//', location: formatLocation(relPath, line) });
    }
    for (const { match, line, index } of matchesWithLines(text, /^[ \t]*(\w+)\.add_router\(/gm)) {
      const args = argsOf(callText(text, index + match[0].length - 1));
      const prefix = stringLiteral(keyword(args, 'prefix') ?? positional(args)[0]);
      const router = keyword(args, 'router') ?? positional(args)[1];
      if (prefix === undefined || !router) continue;
      const dotted = stringLiteral(router);
      const child = dotted === undefined ? mountedNode(relPath, router, imports) : dottedRouter(dotted);
      if (child) facts.mounts.push({ parent: `${relPath}#${match[1] ?? ''}`, child, prefix, location: formatLocation(relPath, line) });
    }
  }
  // The urls module rarely imports ninja itself: `from .api import api` then `path("api/", api.urls)`.
  if (!/urlpatterns/.test(text)) return;
  for (const { match, line } of matchesWithLines(text, /\b(?:re_path|path)\(\s*r?["']([^"']*)["']\s*,\s*([\w.]+)\.urls\s*[,)]/g)) {
    facts.mounts.push({ parent: `${relPath}#@urls`, child: mountedNode(relPath, match[2] ?? '', imports), prefix: djangoRoute(match[1] ?? ''), location: formatLocation(relPath, line) });
  }
}
