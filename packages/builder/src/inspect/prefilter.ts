/**
 * The cheap textual pre-filter in front of the TS/JS scanner: a full TypeScript parse is the
 * expensive part of an inspection, and most files of a large repository declare nothing the
 * scanners look for. A file is parsed only when its text holds a token some scanner needs.
 *
 * A scanner that learns a new convention adds its token here. The corpus and fixture tests run
 * through `inspectCodebase`, so a token forgotten shows up there as a finding missed.
 */
import { lookupDependency } from './catalog.js';
import type { Framework, Language } from './types.js';

/** Files that are entry points by where they sit (Next.js app-router `route.ts`, pages-router `pages/api/**`), and Next.js's config (its `basePath`). */
const ROUTE_FILE = /(?:^|\/)app\/(?:[^/]+\/)*route\.[cm]?[jt]sx?$|(?:^|\/)pages\/api[/.]|(?:^|\/)next\.config\.[cm]?[jt]s$/;

/** Provider calls (SDK, REST over fetch/axios) and Next.js handlers exported by name: worth a parse in any file. */
const PAYMENT_WORDS = /stripe|adyen|paypal|braintree|gateway\.transaction\.|ordersController|paymentsController|\/v[12]\/(?:checkout\/orders|payments\/)/i;
const USE_SERVER = /['"]use server['"]/;
const EXPORTED_VERB = /export\s+(?:async\s+)?(?:function|const|let)\s+(?:POST|PUT|PATCH|DELETE)\b/;

/** Tokens that make a non-component file worth parsing whatever it imports (case-sensitive). */
const TOKENS = new RegExp([
  // Route-graph facts: mounts and prefixes (`app.use('/api', r)`, `register(p, { prefix })`, Hono `route`/`basePath`).
  String.raw`\.\s*(?:use|register|mount|route|basePath|group)\s*\(`,
  'setGlobalPrefix',
  // NestJS config namespaces: a global prefix read through ConfigService is declared there (ts-nest-config.ts).
  String.raw`\bregisterAs\s*\(`,
  // Prefixes kept in constants or config objects (`API_PREFIX = '/api'`, `api: { prefix: '/api' }`).
  String.raw`\w*(?:prefix|Prefix|PREFIX)\w*\s*[:=]`,
  // NestJS routing declared outside controllers: `@Module({ controllers: [...] })` (a `RouterModule`
  // path reaches its controllers through it) and exported route tables (`export const routesV1 = {…}`).
  String.raw`\bcontrollers\s*:\s*\[`, String.raw`export\s+const\s+\w*(?:[Rr]outes?|ROUTES?)\w*\s*=\s*\{`,
  // Relative re-exports carry a router's name across files (`export { default as orders } from './orders'`).
  String.raw`export\s*\{[^}]*\}\s*from\s*['"]\.`,
  // NestJS decorators: routes, schedules, message handlers, GraphQL resolvers.
  String.raw`@(?:Post|Put|Patch|Delete|Cron|Interval|Timeout|EventPattern|MessagePattern|RabbitSubscribe|RabbitRPC|Processor|Process|SqsMessageHandler|Resolver|Mutation)\b`,
  // GraphQL mutations: resolver maps (`Mutation: {…}`, `const orderMutations = {…}`), Pothos/Nexus
  // `mutationField(s)`/`mutationType`/`relayMutationField`.
  String.raw`\bMutation\b`, String.raw`\b(?:const|let|var)\s+\w*[mM]utations?(?:Resolvers?)?\b`, String.raw`[mM]utation(?:Field|Type)`,
  // Pages-router handlers branch on the method and read the body.
  String.raw`\b(?:req|request)\.(?:method|body)\b`, String.raw`\{\s*method\b[^}]*\}\s*=\s*req`,
  'setInterval',
].join('|'));
/** GraphQL servers and next-connect routers (case-insensitive). */
const SERVER_WORDS = /graphql|apollo|mercurius|next-connect/i;

/**
 * Route verbs (and, in a component file, mounts) declare routes only where a routing framework is
 * known: imported by the file or declared by the project (`fileFramework` in ts-routes.ts).
 */
const ROUTE_VERBS = /\.\s*(?:post|put|patch|delete|del|on|all)\s*\(/;
const COMPONENT_MOUNTS = /\.\s*(?:route|basePath|use|mount)\s*\(/;
const SERVER_MODULE = /['"`](?:express|fastify|hono|@hono\/|koa|elysia|polka|restify)/;
const ROUTED_FRAMEWORKS: ReadonlySet<Framework> = new Set(['express', 'fastify', 'hono', 'koa']);

/** Module specifiers in import declarations, `require(...)` and `import(...)`. */
const IMPORTED = /(?:\bfrom\s*|\brequire\s*\(\s*|\bimport\s*\(\s*|\bimport\s+)['"`]([^'"`\n]+)['"`]/g;
/** Module families the scanners match by pattern (consumers, schedulers, GraphQL servers, providers), beyond the catalog's names. */
const SIGNAL_MODULE = /kafka|amqp|rabbit|nats|sqs|sns|pubsub|bull|queue|cron|schedul|agenda|graphql|apollo|yoga|pothos|nexus|mercurius|stripe|adyen|paypal|braintree|webhook/i;
/** ORMs count only where an options object names the dialect (`{ type: 'postgres' }`, `{ client: 'pg' }`): their entities and migrations say nothing. */
const ORM_MODULE = /^(?:typeorm|@nestjs\/typeorm|knex|@mikro-orm\/)/;
const ORM_DIALECT = /\b(?:type|client)\s*:\s*['"`](?:postgres|postgresql|pg|mysql2?|mariadb|sqlite3?|better-sqlite3|mongodb)['"`]/;

/** Browser code trees: their `setInterval` polls and `fetch('/pay', { method: 'POST' })` calls are not the service's. */
const CLIENT_TREE = /(^|\/)(client|frontend|web-client|public|static|www|assets)\//;
const SERVER_IMPORT = /from ['"](express|fastify|hono|koa|@koa\/router|koa-router|@nestjs\/[\w-]+|next\/server|stripe|@adyen\/api-library|@paypal\/[\w-]+)['"]|require\(['"](express|fastify|stripe)['"]\)/;

/** What a file's imports reveal: a database, broker, provider or framework module (the catalog), or a family the scanners know. */
function importsSignalModule(text: string): boolean {
  for (const match of text.matchAll(IMPORTED)) {
    const spec = match[1] ?? '';
    if (spec.startsWith('.')) continue;
    if (ORM_MODULE.test(spec)) {
      if (ORM_DIALECT.test(text)) return true;
      continue;
    }
    if (SIGNAL_MODULE.test(spec)) return true;
    // `mysql2/promise` → `mysql2`, `@aws-sdk/client-sqs/dist` → `@aws-sdk/client-sqs`.
    const entry = lookupDependency('npm', spec) ?? lookupDependency('npm', spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
    if (entry && entry.kind !== 'test') return true;
  }
  return false;
}

export type Triage = 'scan' | 'defer' | 'skip';

/** Project-level facts the filter may use (the manifests' framework). */
export interface FilterHints {
  readonly framework?: Framework;
}

/**
 * What to do with a file: `scan` it now; `defer` it — it declares nothing the scanners report, but
 * may declare a body shape, parsed later only if an endpoint names it; or `skip` it (browser code).
 * Non-TS/JS files are always scanned here; a Python file without any finding literal is then read
 * for its facts only (patterns/python-prefilter.ts).
 * @example triage('typescript', 'src/util/strings.ts', 'export const pad = (s: string) => s;') // 'defer'
 */
export function triage(language: Language, relPath: string, text: string, hints: FilterHints = {}): Triage {
  if (language !== 'typescript' && language !== 'javascript') return 'scan';
  if (CLIENT_TREE.test(relPath) && !SERVER_IMPORT.test(text)) return 'skip';
  // Next.js server actions (`'use server'`, also inline in a .tsx component) are entry points wherever they sit.
  if (ROUTE_FILE.test(relPath) || PAYMENT_WORDS.test(text) || EXPORTED_VERB.test(text) || USE_SERVER.test(text)) return 'scan';
  const component = /\.[jt]sx$/.test(relPath);
  const routed = (hints.framework !== undefined && ROUTED_FRAMEWORKS.has(hints.framework)) || SERVER_MODULE.test(text);
  if (routed && (ROUTE_VERBS.test(text) || (component && COMPONENT_MOUNTS.test(text)))) return 'scan';
  // React components matter only as route files, provider callers or JSX-rendering servers (Hono): all decided above.
  if (component) return 'skip';
  if (TOKENS.test(text) || SERVER_WORDS.test(text)) return 'scan';
  return importsSignalModule(text) ? 'scan' : 'defer';
}

/** Names a file may declare (class, interface, type, variable; `, B =` of a multi-declaration), a superset of what a parse finds. */
const DECLARED = /\b(?:class|interface|type|enum|const|let|var)\s+([A-Za-z_$][\w$]*)|,\s*([A-Za-z_$][\w$]*)\s*=(?![=>])/g;

/**
 * The names a skipped file could declare a body shape under, so that it is parsed later only when
 * an endpoint's body type has one of them.
 * @example declaredNames('export class PayDto { amount!: number }') // ['PayDto']
 */
export function declaredNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(DECLARED)) names.add(match[1] ?? match[2] ?? '');
  names.delete('');
  return [...names];
}
