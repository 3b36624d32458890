/**
 * The TS/JS side of the route graph: which router node each route call is declared on, mounts
 * (`app.use('/api', router)`, `fastify.register(plugin, { prefix })`, Hono `app.route('/x', sub)`
 * and `basePath`), imports/exports that rename routers across files, NestJS `setGlobalPrefix`, and
 * the variables that hold a server or router by where they come from (`express()`, `Router()`, …).
 */
import { posix } from 'node:path';
import ts from 'typescript';
import { declarationOf } from './ts-declarations.js';
import { factoryAliases } from './ts-router-factories.js';
import { declaredConstants, spellPath } from './ts-spelled-paths.js';
import { staticString } from './ts-values.js';
import { emptyRouteFacts, type ModuleRef, type PrefixSpec, type RouteFacts } from '../route-graph.js';
import { emptyNestFacts } from './ts-nest-graph.js';
import { collectKoaFacts, createsKoaRouter, insideOwnPrefix, koaMount, mountedRouters, servedRouter } from './ts-koa.js';
import { configuredPrefix, registeredConfig } from './ts-nest-config.js';
import { collectNestFacts, nestGlobalPrefix, nestVersioning, routerModuleMounts } from './ts-nest-paths.js';
import { hasModifier, literalText, nodeLocation, propertyValue, unwrap, type ParsedSource } from './ts-source.js';

/** Calls and constructors that create an app or a router, whatever the variable is called. */
const SERVER_FACTORY = /^(express|Router|express\.Router|Fastify|fastify|Hono|Elysia|Koa|KoaRouter|SwaggerRouter|polka|restify\.createServer|createRouter|OpenAPIHono)$/;

function calleeText(node: ts.Expression): string {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return inner.text;
  if (ts.isPropertyAccessExpression(inner)) return `${calleeText(inner.expression)}.${inner.name.text}`;
  return '';
}

/** The chain root of `Router().use(a).use(b)`: the innermost receiver. */
function chainRoot(node: ts.Expression): ts.Expression {
  let current = unwrap(node);
  for (;;) {
    if (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) current = unwrap(current.expression.expression);
    else if (ts.isPropertyAccessExpression(current)) current = unwrap(current.expression);
    else return current;
  }
}

/** `express()`, `express.Router()`, `new Hono().basePath('/x')`, `Router().use(a)`: a factory somewhere down the chain. */
export function createsServer(node: ts.Expression): boolean {
  let current = unwrap(node);
  for (let i = 0; i < 32; i += 1) {
    if (ts.isNewExpression(current)) return SERVER_FACTORY.test(calleeText(current.expression));
    if (!ts.isCallExpression(current)) return false;
    if (SERVER_FACTORY.test(calleeText(current.expression))) return true;
    if (!ts.isPropertyAccessExpression(current.expression)) return false;
    current = unwrap(current.expression.expression);
  }
  return false;
}

/** The outermost expression of the chain `node` belongs to. */
function chainTop(node: ts.Node): ts.Node {
  let current: ts.Node = node;
  while (current.parent && ((ts.isPropertyAccessExpression(current.parent) && current.parent.expression === current)
    || (ts.isCallExpression(current.parent) && current.parent.expression === current) || ts.isParenthesizedExpression(current.parent) || ts.isAwaitExpression(current.parent))) {
    current = current.parent;
  }
  return current;
}

/** The name a whole expression is bound to: a variable, `export default`, `module.exports`. */
function boundName(top: ts.Node): string | undefined {
  const parent = top.parent;
  if (!parent) return undefined;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isExportAssignment(parent)) return 'default';
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === top) {
    const left = calleeText(parent.left);
    if (left === 'module.exports') return 'default';
    if (left.startsWith('exports.') || left.startsWith('module.exports.')) return left.slice(left.lastIndexOf('.') + 1);
  }
  return undefined;
}

/** The name of the function a parameter belongs to (`export default async function routes(fastify)`). */
function functionName(fn: ts.SignatureDeclaration): string | undefined {
  if (ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) {
    // `export default async function (fastify) {…}` has no name: it is the module's default.
    if (hasModifier(fn, ts.SyntaxKind.DefaultKeyword)) return 'default';
    if (fn.name) return fn.name.text;
  }
  const named = boundName(chainTop(fn));
  if (named) return named;
  return undefined;
}

function enclosingParamOwner(id: ts.Identifier): ts.SignatureDeclaration | undefined {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if ((ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node))
      && node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === id.text)) return node;
  }
  return undefined;
}

/**
 * The router node a route or mount call's receiver stands for, as `file#name`.
 * @example nodeOf(src, call.expression.expression) // 'src/routes/orders.ts#router'
 */
export function nodeOf(src: ParsedSource, receiver: ts.Expression): string {
  const root = chainRoot(receiver);
  const file = src.relPath;
  if (ts.isIdentifier(root)) {
    const owner = enclosingParamOwner(root);
    if (owner) return `${file}#${functionName(owner) ?? `@fn${owner.pos}`}`;
    // A Koa router with a prefix of its own holds its routes inside that prefix (ts-koa.ts).
    return `${file}#${insideOwnPrefix(src, root.text)}`;
  }
  if (root.kind === ts.SyntaxKind.ThisKeyword) return `${file}#this`;
  const top = chainTop(root);
  const bound = boundName(top);
  return `${file}#${bound ? insideOwnPrefix(src, bound) : `@${root.pos}`}`;
}

function childRef(src: ParsedSource, node: ts.Expression, namespaces: Map<string, string>): string | ModuleRef | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return `${src.relPath}#${inner.text}`;
  // Koa: `api.use(users.routes())` mounts the router `users`.
  const served = servedRouter(inner);
  if (served) return childRef(src, served, namespaces);
  if (ts.isPropertyAccessExpression(inner) && ts.isIdentifier(inner.expression)) {
    const ns = namespaces.get(inner.expression.text);
    const modules = ns === undefined ? undefined : src.paths.candidates(src.relPath, ns);
    if (modules) return { modules, name: inner.name.text };
    return undefined;
  }
  if (ts.isCallExpression(inner) && calleeText(inner.expression) === 'require' && inner.arguments[0]) {
    return moduleDefault(src, literalText(inner.arguments[0]));
  }
  // `app.use('/api', routes())`: the router the factory returns (factoryAliases in ts-router-factories.ts).
  if (ts.isCallExpression(inner) && ts.isIdentifier(inner.expression)) return `${src.relPath}#${inner.expression.text}`;
  if (ts.isArrowFunction(inner) || ts.isFunctionExpression(inner)) return `${src.relPath}#${functionName(inner) ?? `@fn${inner.pos}`}`;
  return undefined;
}

/** Names that hold a path: `API_PREFIX`, `config.api.prefix`, `basePath`, `routesV1.root`. */
const PATH_NAME = /prefix|path|base|root|route|url|version/i;

/**
 * A mount prefix spelled with a constant another module defines (`app.use(API_PREFIX, r)`,
 * `app.use(config.api.prefix, routes())`), looked up once every file is known. Only a name that
 * says it holds a path: `app.use(authMiddleware, router)` names middleware, not a prefix.
 */
function namedPrefix(src: ParsedSource, node: ts.Expression): PrefixSpec | undefined {
  const spelled = spellPath(src, node);
  const refs = spelled?.filter((part) => typeof part !== 'string') ?? [];
  const named = refs.length > 0 && refs.every((ref) => typeof ref !== 'string' && PATH_NAME.test(ref.text.slice(ref.text.lastIndexOf('.') + 1)));
  return spelled && named ? { spelled } : undefined;
}

/** A parameter typed as an app or router (`(app: Router) => …`). */
const ROUTER_TYPE = /\b(Router|Express|Application|FastifyInstance|Hono)\b/;

function routerParameter(id: ts.Identifier): boolean {
  const owner = enclosingParamOwner(id);
  const param = owner?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === id.text);
  return param?.type !== undefined && ROUTER_TYPE.test(param.type.getText());
}

const NEXT_CONFIG = /(^|\/)next\.config\.[cm]?[jt]s$/;

export interface TsRouteFacts {
  readonly facts: RouteFacts;
  /** Variables holding an app or router, recognised by their initialiser or import. */
  readonly serverVars: ReadonlySet<string>;
}

/**
 * Collects the route-graph facts of one file.
 * @example collectRouteFacts(parseSource('a.ts', "const r = Router(); app.use('/api', r)")).facts.mounts[0].prefix // '/api'
 */
export function collectRouteFacts(src: ParsedSource): TsRouteFacts {
  const facts: RouteFacts = { ...emptyRouteFacts(), nest: emptyNestFacts() };
  const serverVars = new Set<string>();
  const namespaces = new Map<string, string>();
  const file = src.relPath;
  for (const statement of src.sf.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const spec = statement.moduleSpecifier.text;
      const modules = src.paths.candidates(file, spec);
      if (!modules) continue;
      const clause = statement.importClause;
      if (clause?.name) facts.aliases.push([`${file}#${clause.name.text}`, { modules, name: 'default' }]);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, spec);
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) facts.aliases.push([`${file}#${element.name.text}`, { modules, name: (element.propertyName ?? element.name).text }]);
      }
    }
    if (ts.isExportAssignment(statement) && ts.isIdentifier(unwrap(statement.expression))) {
      facts.aliases.push([`${file}#default`, `${file}#${(unwrap(statement.expression) as ts.Identifier).text}`]);
    }
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      const spec = statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : undefined;
      for (const element of statement.exportClause.elements) {
        const local = (element.propertyName ?? element.name).text;
        const modules = spec === undefined ? undefined : src.paths.candidates(file, spec);
        const target = spec === undefined ? `${file}#${local}` : modules && { modules, name: local };
        if (target) facts.aliases.push([`${file}#${element.name.text}`, target]);
      }
    }
  }
  const visit = (node: ts.Node): void => {
    // next.config.js `{ basePath: '/shop' }`: every page and route handler is served below it.
    if (NEXT_CONFIG.test(file) && ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'basePath') {
      const prefix = staticString(src, node.initializer);
      if (prefix) facts.globalPrefixes.push({ framework: 'nextjs', prefix, location: nodeLocation(src, node) });
    }
    if (ts.isVariableDeclaration(node) && node.initializer) {
      const init = unwrap(node.initializer);
      if (ts.isIdentifier(node.name) && (createsServer(init) || createsKoaRouter(src, init))) serverVars.add(node.name.text);
      // const routes = require('./routes') / const { router } = require('./routes')
      if (ts.isCallExpression(init) && calleeText(init.expression) === 'require' && init.arguments[0]) {
        const spec = literalText(init.arguments[0]);
        const modules = spec === undefined ? undefined : src.paths.candidates(file, spec);
        if (modules) {
          if (ts.isIdentifier(node.name)) facts.aliases.push([`${file}#${node.name.text}`, { modules, name: 'default' }]);
          else if (ts.isObjectBindingPattern(node.name)) {
            for (const element of node.name.elements) {
              const key = element.propertyName ?? element.name;
              if (ts.isIdentifier(key) && ts.isIdentifier(element.name)) facts.aliases.push([`${file}#${element.name.text}`, { modules, name: key.text }]);
            }
          }
        }
      }
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(unwrap(node.right))) {
      const left = calleeText(node.left);
      if (left === 'module.exports') facts.aliases.push([`${file}#default`, `${file}#${(unwrap(node.right) as ts.Identifier).text}`]);
    }
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) collectCall(src, node, node.expression, facts, namespaces);
    // `auth(app)`: a function given the router declares its routes on it (its parameter's node).
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text !== 'require') {
      for (const arg of node.arguments) {
        if (!ts.isIdentifier(arg) || !(serverVars.has(arg.text) || routerParameter(arg))) continue;
        facts.mounts.push({ parent: nodeOf(src, arg), child: `${file}#${node.expression.text}`, prefix: '', location: nodeLocation(src, node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  collectNestFacts(src, facts);
  collectKoaFacts(src, facts);
  facts.constants.push(...declaredConstants(src), ...registeredConfig(src));
  facts.aliases.push(...factoryAliases(src, serverVars));
  return { facts, serverVars };
}

function collectCall(src: ParsedSource, node: ts.CallExpression, callee: ts.PropertyAccessExpression, facts: RouteFacts, namespaces: Map<string, string>): void {
  const name = callee.name.text;
  const args = node.arguments;
  const location = nodeLocation(src, callee.name);
  if (name === 'setGlobalPrefix' && args[0]) {
    const prefix = staticString(src, args[0]);
    if (prefix !== undefined) facts.globalPrefixes.push({ framework: 'nestjs', prefix, location });
    // Its `exclude` list, and which app it is (a monorepo has one per app), for the Nest routes.
    if (prefix !== undefined) facts.nest?.prefixes.push(nestGlobalPrefix(src, prefix, args[1], location));
    // Read from the environment or the app's config: looked up once every file is known.
    else facts.nest?.prefixes.push({ ...nestGlobalPrefix(src, '', args[1], location), ...configuredPrefix(src, args[0]) });
    return;
  }
  if (name === 'enableVersioning') {
    facts.nest?.versionings.push(nestVersioning(src, args[0], location));
    return;
  }
  if (name === 'register' && calleeText(callee.expression) === 'RouterModule') {
    facts.mounts.push(...routerModuleMounts(src, args[0], location));
    return;
  }
  const parent = (): string => nodeOf(src, callee.expression);
  if (name === 'use' || name === 'register' || name === 'route' || name === 'mount') {
    const first = staticString(src, args[0]);
    if (name === 'register' && args[0]) {
      const options = args[1] ? unwrap(args[1]) : undefined;
      const load = autoload(src, args[0], options);
      if (load) {
        facts.autoloads?.push({ parent: parent(), ...load, location });
        return;
      }
      const prefix = options && ts.isObjectLiteralExpression(options) ? staticString(src, propertyValue(options, 'prefix')) ?? '' : '';
      const child = childRef(src, args[0], namespaces) ?? registerImport(src, args[0]);
      if (child) facts.mounts.push({ parent: parent(), child, prefix, location });
      return;
    }
    if (name === 'route' && args.length < 2) return;
    // `routes.forEach((route) => router.use(route.path, route.route))` over a literal table.
    const table = first === undefined && args.length === 2 ? tableMounts(src, args[0]!, args[1]!) : [];
    for (const row of table) {
      const child = childRef(src, row.child, namespaces);
      if (child) facts.mounts.push({ parent: parent(), child, prefix: row.prefix, location: nodeLocation(src, row.at) });
    }
    if (table.length > 0) return;
    // `app.use(config.api.prefix, routes())`: a prefix another module spells, looked up later.
    const named = first === undefined && args.length >= 2 && args[0] ? namedPrefix(src, args[0]) : undefined;
    const children = first !== undefined || named ? args.slice(1) : args;
    for (const arg of children) {
      // koa-mount (`app.use(mount('/v1', api))`) mounts at its own path; a loop mounts each router of its list.
      const mounted = koaMount(src, arg);
      for (const each of mountedRouters(src, mounted?.child ?? arg)) {
        const child = childRef(src, each, namespaces);
        if (child) facts.mounts.push({ parent: parent(), child, prefix: mounted?.prefix ?? first ?? named ?? '', location });
      }
    }
    return;
  }
  if (name === 'basePath' && args[0]) {
    const prefix = staticString(src, args[0]);
    const holder = nodeOf(src, node);
    if (prefix !== undefined) facts.mounts.push({ parent: `${holder}@base`, child: holder, prefix, location });
  }
}

/** Which field of a table row an argument reads: `route.path` (the row's parameter) or `path` (destructured from it). */
function rowField(arg: ts.Expression): { param: ts.Identifier | undefined; field: string } | undefined {
  const inner = unwrap(arg);
  if (ts.isPropertyAccessExpression(inner) && ts.isIdentifier(inner.expression)) return { param: inner.expression, field: inner.name.text };
  if (ts.isIdentifier(inner)) return { param: undefined, field: inner.text };
  return undefined;
}

/**
 * Mounts made by iterating a literal table: `const routes = [{ path: '/auth', route: authRoute }, …];
 * routes.forEach((route) => router.use(route.path, route.route))` (also `({ path, route }) =>` and
 * `for (const route of routes)`), one `{ prefix, child }` per row whose path is a literal.
 */
function tableMounts(src: ParsedSource, prefixArg: ts.Expression, childArg: ts.Expression): Array<{ prefix: string; child: ts.Expression; at: ts.Node }> {
  const prefixField = rowField(prefixArg);
  const childField = rowField(childArg);
  if (!prefixField || !childField) return [];
  // The row variable: the forEach callback's parameter, or the for-of loop's variable.
  let rows: ts.Expression | undefined;
  for (let node: ts.Node | undefined = prefixArg.parent; node && !rows; node = node.parent) {
    if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isCallExpression(node.parent)
      && ts.isPropertyAccessExpression(node.parent.expression) && node.parent.expression.name.text === 'forEach') {
      rows = rowsIf(node.parameters[0]?.name, prefixField.param, node.parent.expression.expression);
      if (!rows) return [];
    } else if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer)) {
      rows = rowsIf(node.initializer.declarations[0]?.name, prefixField.param, node.expression);
      if (!rows) return [];
    }
  }
  const table = rows && ts.isIdentifier(unwrap(rows)) ? declarationOf(src, (unwrap(rows) as ts.Identifier).text)?.init : rows;
  if (!table || !ts.isArrayLiteralExpression(unwrap(table))) return [];
  return (unwrap(table) as ts.ArrayLiteralExpression).elements.flatMap((element) => {
    const prefix = literalText(propertyValue(element, prefixField.field));
    const child = propertyValue(element, childField.field);
    return prefix !== undefined && child ? [{ prefix, child, at: element }] : [];
  });
}

/** The iterated expression, when the row binding is the parameter the arguments read (`route`, or `{ path, route }`). */
function rowsIf(binding: ts.BindingName | undefined, param: ts.Identifier | undefined, iterated: ts.Expression): ts.Expression | undefined {
  if (!binding) return undefined;
  if (param) return ts.isIdentifier(binding) && binding.text === param.text ? iterated : undefined;
  return ts.isObjectBindingPattern(binding) ? iterated : undefined;
}

const AUTOLOAD_MODULES = new Set(['@fastify/autoload', 'fastify-autoload']);

/**
 * `register(autoload, { dir: path.join(__dirname, 'routes'), options: { prefix } })`: the
 * directory (relative to the repository, from the registering file's own folder), the prefix and
 * whether `_folders` are parameters. Undefined unless the plugin is the autoloader and `dir` is
 * `join`/`resolve` of `__dirname` or `import.meta.dirname` with literal segments.
 */
function autoload(src: ParsedSource, plugin: ts.Expression, options: ts.Expression | undefined): { dir: string; prefix: string; routeParams: boolean } | undefined {
  const name = unwrap(plugin);
  if (!ts.isIdentifier(name) || !AUTOLOAD_MODULES.has(src.bindings.get(name.text) ?? '') || !options || !ts.isObjectLiteralExpression(options)) return undefined;
  const dirArg = propertyValue(options, 'dir');
  const call = dirArg ? unwrap(dirArg) : undefined;
  if (!call || !ts.isCallExpression(call) || !/(^|\.)(join|resolve)$/.test(calleeText(call.expression))) return undefined;
  const [base, ...rest] = call.arguments;
  const meta = base ? unwrap(base) : undefined;
  const here = meta && (calleeText(meta) === '__dirname' || (ts.isPropertyAccessExpression(meta) && ts.isMetaProperty(meta.expression) && meta.name.text === 'dirname'));
  const segments = rest.map((arg) => literalText(arg));
  if (!here || segments.some((segment) => segment === undefined)) return undefined;
  const inner = propertyValue(options, 'options');
  const prefix = inner && ts.isObjectLiteralExpression(unwrap(inner)) ? literalText(propertyValue(unwrap(inner), 'prefix')) ?? '' : '';
  const routeParams = propertyValue(options, 'routeParams')?.kind === ts.SyntaxKind.TrueKeyword;
  return { dir: posix.normalize(posix.join(posix.dirname(src.relPath), ...(segments as string[]))), prefix, routeParams };
}

/** `fastify.register(import('./routes/orders'))`. */
function registerImport(src: ParsedSource, node: ts.Expression): ModuleRef | undefined {
  const inner = unwrap(node);
  if (ts.isCallExpression(inner) && inner.expression.kind === ts.SyntaxKind.ImportKeyword && inner.arguments[0]) {
    return moduleDefault(src, literalText(inner.arguments[0]));
  }
  return undefined;
}

/** The default export of the module a literal specifier names, when it is in the project. */
function moduleDefault(src: ParsedSource, spec: string | undefined): ModuleRef | undefined {
  const modules = spec === undefined ? undefined : src.paths.candidates(src.relPath, spec);
  return modules && { modules, name: 'default' };
}
