/**
 * Full route paths across modules: scanners report where each route is declared (its router
 * node), which nodes are mounted under which at what prefix (`app.use('/api', router)`,
 * `register(plugin, { prefix })`, `include_router(r, prefix=…)`, `v1.Group("/users")` passed into a
 * function), and which local names are imports or exports of others; this resolves them together.
 */
import { posix } from 'node:path';
import { emptyGraphqlFacts, graphqlOperationRoutes, registeredElsewhere, type GraphqlFacts } from './graphql-route.js';
import { nestRouter, type NestFacts } from './ts/ts-nest-graph.js';
import type { EndpointFinding } from './types.js';

/** A reference to a name in another module, resolved once every file is known. */
export interface ModuleRef {
  /** Candidate repository-relative paths (exact) or path suffixes (`app/api/main.py`). */
  readonly modules: readonly string[];
  readonly name: string;
}

/** A constant read through a name a file imports (`routesV1.user.root`): `node` is `file#routesV1`, `path` `['user', 'root']`. */
export interface ConstantRef {
  readonly node: string;
  readonly path: readonly string[];
  /** The expression as written, for notes. */
  readonly text: string;
}

/** A path as a file spells it: text, and constants of other modules to look up once every file is known. */
export type SpelledPath = ReadonlyArray<string | ConstantRef>;

/**
 * A prefix written as a literal; as a constant to look up by name (`settings.API_V1_STR`, Python);
 * or spelled with constants another module defines (`config.api.prefix`, TypeScript).
 */
export type PrefixSpec = string | { readonly constant: string } | { readonly spelled: SpelledPath };

/**
 * A spelled path as text, its constants looked up in the module each name leads to (`canonical`
 * follows imports), or the first constant that could not be read.
 * @example spelledText(['/', { node: 'src/app.ts#config', path: ['api', 'prefix'], text: 'config.api.prefix' }], constants, canonical) // { text: '//api' }
 */
export function spelledText(path: SpelledPath, constants: ReadonlyMap<string, string>, canonical: (node: string) => string): { text: string } | { missing: string } {
  let text = '';
  for (const part of path) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const value = constants.get([canonical(part.node), ...part.path].join('.'));
    if (value === undefined) return { missing: part.text };
    text += value;
  }
  return { text };
}

export interface MountFact {
  /** Node the child is mounted on (`file#app`). */
  readonly parent: string;
  /** Node mounted (`file#router`), or a module reference. */
  readonly child: string | ModuleRef;
  readonly prefix: PrefixSpec;
  readonly location: string;
  /** The prefix takes the place of the child's own (`ownPrefixes`) rather than going in front of it: Flask's `url_prefix`. */
  readonly replacesOwn?: boolean;
  /** Said once the prefix is applied: where a prefix taken at an environment variable's default came from. */
  readonly note?: string;
}

/** What one file contributes to the route graph. */
export interface RouteFacts {
  /** Local node → the node it is another name for (an import, `export default router`). */
  readonly aliases: Array<[string, string | ModuleRef]>;
  readonly mounts: MountFact[];
  /** `NAME = "literal"` string constants, for prefixes written as constants. */
  readonly constants: Array<[string, string]>;
  /** Prefixes applied to every route of a framework (`app.setGlobalPrefix('api')`). */
  readonly globalPrefixes: Array<{ framework: string; prefix: string; location: string }>;
  /** GraphQL servers and graphene `Mutation` fields (graphql-route.ts). */
  readonly graphql?: GraphqlFacts;
  /** Directories whose plugin files a loader mounts by folder name (`@fastify/autoload`). */
  readonly autoloads?: AutoloadFact[];
  /** NestJS routing per app: global prefix excludes, versioning, route paths and versions (ts-nest-graph.ts). */
  readonly nest?: NestFacts;
  /** A node's own prefix, from its construction (`Blueprint('x', __name__, url_prefix='/api')`): applied below every mount that does not replace it. */
  readonly ownPrefixes?: Array<[string, string]>;
}

/**
 * `fastify.register(autoload, { dir: path.join(__dirname, 'routes') })`: every plugin file below
 * `dir` is mounted on `parent`, prefixed with `prefix` and its folders' names (`routes/api/tasks/
 * index.ts` → `/api/tasks`); with `routeParams`, a folder `_id` is the parameter `:id`.
 */
export interface AutoloadFact {
  readonly parent: string;
  /** Repository-relative directory. */
  readonly dir: string;
  readonly prefix: string;
  readonly routeParams: boolean;
  readonly location: string;
}

const PLUGIN_FILE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** The mounts an autoloaded directory makes: one per plugin file below it (not hooks, dotfiles or declarations). */
function autoloadMounts(load: AutoloadFact, files: ReadonlySet<string>): MountFact[] {
  const out: MountFact[] = [];
  for (const file of files) {
    if (!file.startsWith(`${load.dir}/`) || !PLUGIN_FILE.test(file) || /\.d\.[mc]?ts$/.test(file)) continue;
    const parts = file.slice(load.dir.length + 1).split('/');
    const base = parts.pop() ?? '';
    if (/^autohooks\./.test(base) || [...parts, base].some((part) => part.startsWith('.'))) continue;
    const folders = parts.map((part) => (load.routeParams && part.startsWith('_') ? `:${part.slice(1)}` : part));
    out.push({ parent: load.parent, child: { modules: [file], name: 'default' }, prefix: joinRoute(load.prefix, ...folders), location: load.location });
  }
  return out;
}

/**
 * A fresh accumulator.
 * @example const facts = emptyRouteFacts(); facts.mounts.push({ parent: 'a.ts#app', child: 'a.ts#r', prefix: '/api', location: 'a.ts:3' });
 */
export function emptyRouteFacts(): RouteFacts {
  return { aliases: [], mounts: [], constants: [], globalPrefixes: [], autoloads: [], ownPrefixes: [] };
}

/**
 * Joins route segments with single slashes; the result always starts with `/`. It ends with `/`
 * when the last segment that is more than slashes does (Django's `path("refund/", view)` below a
 * view whose own route is ''). A segment ending in `//` is a DRF router's prefix whose routes all
 * end with `/` (python-django-urls.ts): as the last argument the mark is passed on to the routes
 * joined below it later; otherwise the result ends with `/`.
 * @example joinRoute('/api/', '/orders') // '/api/orders'
 * @example joinRoute('/api', 'orders//', '/{pk}') // '/api/orders/{pk}/'
 */
export function joinRoute(...parts: readonly string[]): string {
  const joined = parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/');
  const final = parts[parts.length - 1] ?? '';
  if (final.endsWith('//')) return joined ? `/${joined}//` : '//';
  const last = [...parts].reverse().find((p) => p.replace(/^\/+|\/+$/g, '') !== '') ?? '';
  const trailing = parts.some((p) => p.endsWith('//')) || last.endsWith('/');
  return `/${joined}${trailing && joined ? '/' : ''}`;
}

/**
 * Candidate files for a relative JS/TS import (`./routes` → `routes.ts`, `routes/index.ts`, …).
 * @example tsModuleCandidates('src/app.ts', './routes') // ['src/routes', 'src/routes.ts', …]
 */
export function tsModuleCandidates(fromFile: string, specifier: string): string[] {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(m|c)?js$/, '');
  const exts = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.jsx', '.mts', '.cts'];
  return [base, ...exts.map((e) => stem + e), ...exts.map((e) => `${base}/index${e}`)];
}

function resolveModule(ref: ModuleRef, files: ReadonlySet<string>, bySuffix: (s: string) => string | undefined): string | undefined {
  for (const candidate of ref.modules) if (files.has(candidate)) return `${candidate}#${ref.name}`;
  for (const candidate of ref.modules) {
    const found = bySuffix(candidate);
    if (found) return `${found}#${ref.name}`;
  }
  return undefined;
}

/** A mount's prefix as text; one the inspector cannot read is noted and taken as none. */
function mountPrefix(mount: MountFact, constants: ReadonlyMap<string, string>, canonical: (node: string) => string, notes: string[]): string {
  const spec = mount.prefix;
  if (mount.note) notes.push(mount.note);
  if (typeof spec === 'string') return spec;
  let value: string | undefined;
  let written: string;
  if ('spelled' in spec) {
    const spelled = spelledText(spec.spelled, constants, canonical);
    value = 'text' in spelled ? spelled.text : undefined;
    written = 'missing' in spelled ? spelled.missing : '';
  } else {
    // Python settings: `settings.API_V1_STR` by its full name, else its last one.
    value = constants.get(spec.constant) ?? constants.get(spec.constant.slice(spec.constant.lastIndexOf('.') + 1));
    written = spec.constant;
  }
  if (value === undefined) notes.push(`${mount.location}: mount prefix \`${written}\` is not a literal the inspector could resolve; routes below it are shown without it.`);
  return value ?? '';
}

export interface ResolvedRoutes {
  readonly endpoints: EndpointFinding[];
  /** Constructs seen but not understood (`path:line: what`). */
  readonly notes: string[];
}

/** At most this many mount paths are followed per router (a router mounted at many paths). */
const MAX_PREFIXES = 8;

/**
 * Gives every endpoint its full path: the prefixes of every mount above its router node, then a
 * framework's global prefix. Endpoints without a router node keep their route.
 * @example resolveRoutes(endpoints, [facts], new Set(['src/app.ts', 'src/routes.ts'])).endpoints[0].route // '/api/orders'
 */
export function resolveRoutes(endpoints: readonly EndpointFinding[], allFacts: readonly RouteFacts[], files: ReadonlySet<string>): ResolvedRoutes {
  const notes: string[] = [];
  // Every `/`-bounded tail of every path → the first file (in walk order) that ends with it: one pass
  // instead of a scan of all files per module reference (quadratic on a large Python repository).
  const suffixIndex = new Map<string, string>();
  for (const file of files) {
    for (let at = 0; ;) {
      const tail = file.slice(at);
      if (!suffixIndex.has(tail)) suffixIndex.set(tail, file);
      const slash = file.indexOf('/', at);
      if (slash < 0) break;
      at = slash + 1;
    }
  }
  const bySuffix = (suffix: string): string | undefined => suffixIndex.get(suffix);
  const constants = new Map<string, string>();
  const aliases = new Map<string, string>();
  const mounts: MountFact[] = [];
  const globals: RouteFacts['globalPrefixes'] = [];
  const ownPrefixes = new Map<string, string>();
  const graphql: GraphqlFacts = emptyGraphqlFacts();
  for (const facts of allFacts) {
    for (const [name, value] of facts.constants) if (!constants.has(name)) constants.set(name, value);
    for (const [from, to] of facts.aliases) {
      const target = typeof to === 'string' ? to : resolveModule(to, files, bySuffix);
      if (target && target !== from) aliases.set(from, target);
    }
    mounts.push(...facts.mounts);
    for (const load of facts.autoloads ?? []) mounts.push(...autoloadMounts(load, files));
    globals.push(...facts.globalPrefixes);
    for (const [node, prefix] of facts.ownPrefixes ?? []) ownPrefixes.set(node, prefix);
    graphql.endpoints.push(...(facts.graphql?.endpoints ?? []));
    graphql.registrations.push(...(facts.graphql?.registrations ?? []));
    graphql.djangoClasses.push(...(facts.graphql?.djangoClasses ?? []));
    graphql.formInputs.push(...(facts.graphql?.formInputs ?? []));
  }
  const canonical = (node: string): string => {
    let current = node;
    for (let i = 0; i < 16; i += 1) {
      const next = aliases.get(current);
      if (!next) break;
      current = next;
    }
    return current;
  };
  const parents = new Map<string, Array<{ parent: string; prefix: string; replacesOwn: boolean }>>();
  for (const mount of mounts) {
    const childNode = typeof mount.child === 'string' ? mount.child : resolveModule(mount.child, files, bySuffix);
    if (!childNode) continue;
    const prefix = mountPrefix(mount, constants, canonical, notes);
    const child = canonical(childNode);
    const list = parents.get(child) ?? [];
    const parent = canonical(mount.parent);
    const replacesOwn = mount.replacesOwn === true;
    if (parent !== child && !list.some((p) => p.parent === parent && p.prefix === prefix && p.replacesOwn === replacesOwn)) list.push({ parent, prefix, replacesOwn });
    parents.set(child, list);
  }
  const memo = new Map<string, string[]>();
  const prefixesOf = (node: string, seen: Set<string>): string[] => {
    const cached = memo.get(node);
    if (cached) return cached;
    const list = parents.get(node);
    const own = ownPrefixes.get(node);
    if (!list || list.length === 0 || seen.has(node)) return [own ?? ''];
    seen.add(node);
    const below = (prefix: string, replacesOwn: boolean): string => (own === undefined || replacesOwn ? prefix : joinRoute(own, prefix));
    const out = [...new Set(list.flatMap(({ parent, prefix, replacesOwn }) => prefixesOf(parent, seen).map((p) => joinRoute(p, below(prefix, replacesOwn)))))].slice(0, MAX_PREFIXES);
    seen.delete(node);
    memo.set(node, out);
    return out;
  };
  const out: EndpointFinding[] = [];
  const graphqlRouting = { facts: graphql, prefixesOf: (node: string) => prefixesOf(canonical(node), new Set()), join: joinRoute, nestGlobalPrefix: globals.find((g) => g.framework === 'nestjs')?.prefix };
  const routeNest = nestRouter(allFacts.map((facts) => facts.nest), {
    canonical, prefixesOf: (node) => prefixesOf(canonical(node), new Set()), join: joinRoute, spell: (path) => spelledText(path, constants, canonical),
  });
  for (const endpoint of endpoints) {
    if (endpoint.operation) {
      out.push(...graphqlOperationRoutes(endpoint, graphqlRouting, notes));
      continue;
    }
    // A server action has no path to prefix: Next posts it to the page that renders it.
    if (endpoint.serverAction) {
      out.push(endpoint);
      continue;
    }
    const { scope, ...rest } = endpoint;
    // NestJS: its own app's global prefix and URI version, `RouterModule` paths, constants across files.
    if (endpoint.framework === 'nestjs') {
      for (const route of routeNest(endpoint, notes)) out.push({ ...rest, route, webhook: rest.webhook || WEBHOOK_PATH.test(route) });
      continue;
    }
    const global = globals.find((g) => g.framework === endpoint.framework);
    const node = scope ? canonical(scope) : undefined;
    // A view whose URL lives elsewhere (Django urls.py) and was not found: no path can be shown honestly.
    if (node?.startsWith('django:') && !parents.has(node)) {
      notes.push(`${endpoint.location}: ${endpoint.method} handler ${node.slice(node.lastIndexOf(':') + 1)} is not routed by any urls.py the inspector understood; it is left out.`);
      continue;
    }
    const prefixes = node ? prefixesOf(node, new Set()) : [''];
    for (const prefix of prefixes) {
      const joined = joinRoute(global?.prefix ?? '', prefix, endpoint.route);
      // Flask keeps a blueprint rule's slash after its prefix: `/` below `/refunds` is served at `/refunds/`.
      const flaskRoot = endpoint.framework === 'flask' && endpoint.route === '/' && prefix !== '' && !joined.endsWith('/');
      const route = flaskRoot ? `${joined}/` : prefix || global ? joined : normaliseRoute(endpoint.route);
      // A receiver mounted at `/webhooks` declares only `/stripe`: its name is in the full path.
      out.push({ ...rest, route, webhook: rest.webhook || WEBHOOK_PATH.test(route) });
    }
  }
  out.push(...registeredElsewhere(endpoints, graphqlRouting, notes));
  return { endpoints: out, notes };
}

/** A path that names a webhook or a provider's notification callback (`/webhooks/stripe`, `/paypal/ipn`, `/adyen/notifications/event`). */
export const WEBHOOK_PATH = /webhook|\bipn\b|(stripe|adyen|paypal)[^/]*\/.*(notification|callback|event)/i;

/** A route the design can print and the plan accepts: a leading slash; no spaces, quotes or angle brackets. */
export const PRINTABLE_ROUTE = /^\/[^\s"'`\\<>]*$/;

/**
 * A route as the design shows it: leading slash added (`MapPost("create-checkout-session")`).
 * @example normaliseRoute('create-checkout-session') // '/create-checkout-session'
 */
export function normaliseRoute(route: string): string {
  if (route === '' || route === '*') return route === '*' ? '/*' : '/';
  // Flask/Werkzeug `<int:order_id>` is shown as `{order_id}`, as Django's converters already are:
  // one neutral parameter notation, and no angle brackets in a path the document prints.
  // Express 4's pattern after a parameter (`/users/:id(\\d+)`) constrains it; the path is `/users/:id`.
  const neutral = route.replace(/<(?:\w+(?:\([^)>]*\))?:)?(\w+)>/g, '{$1}').replace(/(:\w+)\((?:[^()]|\([^()]*\))*\)/g, '$1');
  return neutral.startsWith('/') ? neutral : `/${neutral}`;
}
