/**
 * What Koa routing (@koa/router, koa-router) does differently from Express, for the route graph:
 * a route may be named before its path (`router.post('create-user', '/users', h)`); a router's own
 * prefix (`new Router({ prefix: '/users' })`, `router.prefix('/v1')`) applies to everything
 * declared on it, after every prefix it is mounted under (`api.use('/v1', users.routes())` serves
 * `/v1/users/…`); a router is mounted and exported as its middleware (`users.routes()`,
 * `module.exports = router.routes()`), also once per router of a looped list; koa-mount mounts at a
 * path (`app.use(mount('/v1', api))`). koa-joi-router and koa-tree-router routers count as well.
 */
import ts from 'typescript';
import type { PrefixSpec, RouteFacts } from '../route-graph.js';
import { spellPath } from './ts-spelled-paths.js';
import { staticString } from './ts-values.js';
import { literalText, nodeLocation, propertyValue, unwrap, type ParsedSource } from './ts-source.js';

/** Modules whose import makes a file's routes Koa's. */
export const KOA_MODULES = /^(?:koa|@koa\/router|koa-router|koa-tree-router|koa-joi-router|koa-swagger-decorator|koa-mount)$/;
/** Routers that take `{ prefix }` and `.prefix()` the way @koa/router does (koa-swagger-decorator's SwaggerRouter extends it). */
const ROUTER_MODULES = /^(?:@koa\/router|koa-router|koa-swagger-decorator|koa-joi-router)$/;
/** Every Koa router module, koa-tree-router too (it takes no prefix option). */
const KOA_ROUTERS = /^(?:@koa\/router|koa-router|koa-swagger-decorator|koa-joi-router|koa-tree-router)$/;
/** The middleware a router is mounted and exported as. */
const ROUTER_MIDDLEWARE = /^(?:routes|middleware)$/;
/** The suffix of the node inside a router with an own prefix: its routes and the routers nested in it. */
const INSIDE = '@prefix';

const importsKoaRouter = (src: ParsedSource): boolean => [...src.modules].some((m) => ROUTER_MODULES.test(m));

/**
 * A router made by a name bound to a Koa router module, whatever both are called
 * (`const router = require('koa-joi-router'); const orders = router()`, `require('koa-router')()`).
 * @example createsKoaRouter(src, parse('router()')) // true when `router` is koa-joi-router
 */
export function createsKoaRouter(src: ParsedSource, init: ts.Expression): boolean {
  const inner = unwrap(init);
  if (!ts.isCallExpression(inner) && !ts.isNewExpression(inner)) return false;
  const callee = unwrap(inner.expression);
  if (ts.isIdentifier(callee)) return KOA_ROUTERS.test(src.bindings.get(callee.text) ?? '');
  const required = ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'require' ? literalText(callee.arguments[0]) : undefined;
  return KOA_ROUTERS.test(required ?? '');
}

/**
 * Where a route call's path is: after the route's name when it has one (`router.post('create-user', '/users', h)`).
 * @example koaPathIndex(src, parse("router.post('create-user', '/users', h)").arguments) // 1
 */
export function koaPathIndex(src: ParsedSource, args: readonly ts.Expression[]): 0 | 1 {
  if (args.length < 3) return 0;
  const first = literalText(unwrap(args[0] as ts.Expression));
  const second = staticString(src, args[1]);
  return first !== undefined && !first.startsWith('/') && second?.startsWith('/') === true ? 1 : 0;
}

/**
 * The router a `users.routes()` (or `users.middleware()`) call serves, else undefined.
 * @example servedRouter(parse('users.routes()')) // the `users` node
 */
export function servedRouter(node: ts.Expression): ts.Expression | undefined {
  const inner = unwrap(node);
  if (!ts.isCallExpression(inner) || inner.arguments.length > 0 || !ts.isPropertyAccessExpression(inner.expression)) return undefined;
  return ROUTER_MIDDLEWARE.test(inner.expression.name.text) ? inner.expression.expression : undefined;
}

/** `{ prefix }` of a router construction (`new Router({ prefix })`, `Router({ prefix })`), when the chain's root is one. */
function constructedPrefix(init: ts.Expression): ts.Expression | undefined {
  let current = unwrap(init);
  // `new Router({ prefix }).get(…).post(…)`: the construction at the root of the chain.
  while (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) current = unwrap(current.expression.expression);
  if (!ts.isNewExpression(current) && !ts.isCallExpression(current)) return undefined;
  const options = current.arguments?.[0];
  return options && ts.isObjectLiteralExpression(unwrap(options)) ? propertyValue(unwrap(options), 'prefix') : undefined;
}

/** A prefix as the route graph takes it: text, constants another module defines, or, when unreadable, the expression (noted there). */
function prefixSpec(src: ParsedSource, node: ts.Expression): PrefixSpec {
  const spelled = spellPath(src, node);
  if (spelled?.every((part) => typeof part === 'string')) return spelled.join('');
  return spelled ? { spelled } : { constant: unwrap(node).getText(src.sf) };
}

interface OwnPrefix {
  readonly prefix: PrefixSpec;
  readonly at: ts.Node;
}

const memo = new WeakMap<ParsedSource, ReadonlyMap<string, OwnPrefix>>();

/**
 * Routers of the file with a prefix of their own, by variable: `new Router({ prefix })` and
 * `router.prefix('/v1')` (the later call wins, as it does at run time).
 */
export function ownPrefixes(src: ParsedSource): ReadonlyMap<string, OwnPrefix> {
  const cached = memo.get(src);
  if (cached) return cached;
  const out = new Map<string, OwnPrefix>();
  if (importsKoaRouter(src)) {
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const prefix = constructedPrefix(node.initializer);
        if (prefix) out.set(node.name.text, { prefix: prefixSpec(src, prefix), at: node });
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'prefix'
        && ts.isIdentifier(node.expression.expression) && node.arguments.length === 1) {
        out.set(node.expression.expression.text, { prefix: prefixSpec(src, node.arguments[0] as ts.Expression), at: node });
      }
      ts.forEachChild(node, visit);
    };
    visit(src.sf);
  }
  memo.set(src, out);
  return out;
}

/**
 * The node a receiver's routes and nested routers hang on: inside its own prefix when it has one.
 * @example insideOwnPrefix(src, 'users') // 'users@prefix' for `const users = new Router({ prefix: '/users' })`
 */
export function insideOwnPrefix(src: ParsedSource, name: string): string {
  return ownPrefixes(src).has(name) ? `${name}${INSIDE}` : name;
}

/** The name a router's middleware is bound to: `module.exports = r.routes()`, `export default r.routes()`, `const x = r.routes()`. */
function boundTo(call: ts.Expression): string | undefined {
  const parent = call.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isExportAssignment(parent)) return 'default';
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.right === call) {
    const left = parent.left.getText();
    if (left === 'module.exports') return 'default';
    const member = /^(?:module\.)?exports\.(\w+)$/.exec(left);
    if (member) return member[1];
  }
  return undefined;
}

/**
 * Koa's facts of one file: each own prefix as the mount of the router's inside under the router,
 * and each router's middleware bound to a name (exported) as another name for the router.
 * @example collectKoaFacts(src, facts) // facts.mounts: { parent: 'src/users.ts#users', child: 'src/users.ts#users@prefix', prefix: '/users' }
 */
export function collectKoaFacts(src: ParsedSource, facts: RouteFacts): void {
  // Only a file that makes routers exports one as its middleware: others are not walked again.
  if (![...src.modules].some((m) => KOA_ROUTERS.test(m))) return;
  const file = src.relPath;
  for (const [name, own] of ownPrefixes(src)) {
    facts.mounts.push({ parent: `${file}#${name}`, child: `${file}#${name}${INSIDE}`, prefix: own.prefix, location: nodeLocation(src, own.at) });
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const router = servedRouter(node);
      const bound = router && ts.isIdentifier(unwrap(router)) ? boundTo(node) : undefined;
      if (bound && router) facts.aliases.push([`${file}#${bound}`, `${file}#${(unwrap(router) as ts.Identifier).text}`]);
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
}

/**
 * koa-mount: `mount('/v1', api)` mounts `api` (a Koa app or a router's middleware) at `/v1`.
 * @example koaMount(src, parse("mount('/v1', api.routes())")) // { prefix: '/v1', child: <api.routes()> }
 */
export function koaMount(src: ParsedSource, node: ts.Expression): { prefix: string; child: ts.Expression } | undefined {
  const inner = unwrap(node);
  if (!ts.isCallExpression(inner) || !ts.isIdentifier(inner.expression) || src.bindings.get(inner.expression.text) !== 'koa-mount') return undefined;
  const [path, child] = inner.arguments;
  const prefix = path && child ? staticString(src, path) : undefined;
  return prefix !== undefined && child ? { prefix, child } : undefined;
}

/** The literal list of routers a loop variable runs over: `for (const r of [a, b])`, `[a, b].forEach((r) => …)`, through a `const`. */
function loopedList(src: ParsedSource, id: ts.Identifier): readonly ts.Expression[] | undefined {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    let iterated: ts.Expression | undefined;
    if (ts.isForOfStatement(node) && ts.isVariableDeclarationList(node.initializer)) {
      const declared = node.initializer.declarations[0]?.name;
      if (declared && ts.isIdentifier(declared) && declared.text === id.text) iterated = node.expression;
    } else if ((ts.isArrowFunction(node) || ts.isFunctionExpression(node)) && ts.isCallExpression(node.parent)
      && ts.isPropertyAccessExpression(node.parent.expression) && node.parent.expression.name.text === 'forEach') {
      const param = node.parameters[0]?.name;
      if (param && ts.isIdentifier(param) && param.text === id.text) iterated = node.parent.expression.expression;
    }
    if (!iterated) continue;
    let list = unwrap(iterated);
    if (ts.isIdentifier(list)) list = unwrap(declaredConst(src, list.text) ?? list);
    return ts.isArrayLiteralExpression(list) ? list.elements.filter((e) => !ts.isSpreadElement(e)) : undefined;
  }
  return undefined;
}

/** A top-level `const name = …`'s initializer. */
function declaredConst(src: ParsedSource, name: string): ts.Expression | undefined {
  for (const statement of src.sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const found = statement.declarationList.declarations.find((d) => ts.isIdentifier(d.name) && d.name.text === name);
    if (found?.initializer) return found.initializer;
  }
  return undefined;
}

/**
 * The routers one mount argument stands for: the argument itself, or, for a loop variable over a
 * literal list (`for (const r of [users, orders]) api.use(r.routes())`), each router listed.
 * @example mountedRouters(src, parse('r.routes()')) // [<users>, <orders>]
 */
export function mountedRouters(src: ParsedSource, arg: ts.Expression): readonly ts.Expression[] {
  const router = servedRouter(arg) ?? unwrap(arg);
  if (!ts.isIdentifier(router)) return [arg];
  return loopedList(src, router) ?? [arg];
}
