/**
 * Mutating HTTP routes in Express, Fastify, Hono and Koa (`app.post('/x', handler)`,
 * `router.route('/x').put(...)`, `fastify.route({ method, url })`, `app.on('POST', '/x')`) and in
 * Next.js app-router route handlers (`app/**\/route.ts` exporting POST/PUT/PATCH/DELETE).
 */
import ts from 'typescript';
import type { EndpointFinding, Framework, MutatingMethod } from '../types.js';
import { WEBHOOK_PATH } from '../route-graph.js';
import { thisMethod, thisProperty } from './ts-class-members.js';
import { functionOf } from './ts-declarations.js';
import { requestBodyKeys } from './ts-body-fields.js';
import { qualifiedBodyType } from './ts-shape-imports.js';
import { callsWebhookVerifier, handlerFacts } from './ts-handler-facts.js';
import { importedHandler } from './ts-imported-handlers.js';
import { createsServer } from './ts-route-facts.js';
import { KOA_MODULES, koaPathIndex } from './ts-koa.js';
import { middlewareProtection, routeRegistration } from './ts-route-registration.js';
import { staticString } from './ts-values.js';
import {
  hasModifier, isFunctionLike, literalText, nodeLocation, propertyValue, rootName, unbound, unwrap,
  type FunctionLike, type ParsedSource,
} from './ts-source.js';

const METHODS: Record<string, MutatingMethod> = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', del: 'DELETE' };
/** Receivers that are HTTP clients, not servers: `axios.post('/x')` must not become an endpoint. */
const CLIENT_NAMES = /^(axios|got|ky|superagent|request|supertest|agent|fetch|http|https|client|httpClient|api|\$http|undici|needle)$/i;
const SERVER_NAME = /(^(app|server|router|routes|fastify|api|instance|r|v\d+)$)|(router|app|server|routes)$/i;
const HTTP_MODULES: Array<[RegExp, Framework]> = [[/^fastify/, 'fastify'], [/^(hono|@hono\/)/, 'hono'], [KOA_MODULES, 'koa'], [/^express/, 'express']];

/**
 * The framework a file's routes belong to: its own imports first, then the project's.
 * @example fileFramework(parseSource('a.ts', "import Fastify from 'fastify'"), 'express') // 'fastify'
 */
export function fileFramework(src: ParsedSource, projectFramework: Framework | undefined): Framework | undefined {
  for (const [pattern, framework] of HTTP_MODULES) {
    if ([...src.modules].some((m) => pattern.test(m))) return framework;
  }
  return projectFramework === 'express' || projectFramework === 'fastify' || projectFramework === 'hono' || projectFramework === 'koa' ? projectFramework : undefined;
}

/** Parameter types that are an app or router (`(app: FastifyInstance) => …`). */
const SERVER_TYPE = /\b(FastifyInstance|Router|Express|Application|Hono|RouterGroup|Elysia)\b/;

function typedAsServer(id: ts.Identifier): boolean {
  for (let node: ts.Node | undefined = id.parent; node; node = node.parent) {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
      const param = node.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === id.text);
      if (param) return param.type !== undefined && SERVER_TYPE.test(param.type.getText());
    }
  }
  return false;
}

function rootIdentifier(node: ts.Expression): ts.Identifier | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return inner;
  if (ts.isPropertyAccessExpression(inner)) return rootIdentifier(inner.expression);
  return undefined;
}

function isServerReceiver(receiver: ts.Expression, serverVars: ReadonlySet<string> = new Set()): boolean {
  const inner = unwrap(receiver);
  if (ts.isCallExpression(inner)) return chainsOnServer(inner, serverVars);
  // The first route of `new Hono().post(…).post(…)` is made on the construction itself.
  if (ts.isNewExpression(inner)) return createsServer(inner);
  // A route class's member (`router = Router()`, `router: Router` set in the constructor).
  const member = thisProperty(inner);
  if (member) return (member.init !== undefined && createsServer(member.init)) || (member.type !== undefined && SERVER_TYPE.test(member.type.getText()));
  const root = rootName(inner) ?? (inner.kind === ts.SyntaxKind.ThisKeyword ? 'this' : undefined);
  // Where the receiver comes from (`const payments = Router()`) decides before its name does.
  if (root && ts.isIdentifier(inner) && serverVars.has(root)) return true;
  const id = rootIdentifier(inner);
  if (id && ts.isIdentifier(inner) && typedAsServer(id)) return true;
  if (!root || CLIENT_NAMES.test(root)) return false;
  const last = ts.isPropertyAccessExpression(inner) ? inner.name.text : root;
  return !CLIENT_NAMES.test(last) && (SERVER_NAME.test(last) || SERVER_NAME.test(root));
}

/** Calls that return the app or router they are made on, so further routes chain on it (Hono, Express). */
// Koa's router also chains `del`, `param` and `prefix`.
const CHAINABLE = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all', 'on', 'use', 'route', 'basePath', 'options', 'head', 'param', 'prefix']);
const MAX_CHAIN = 64;

/** `new Hono().get('/', h).post(…)` or `app.post('/a', h).post('/b', h)`: a chain of route calls on a server. */
function chainsOnServer(call: ts.CallExpression, serverVars: ReadonlySet<string>): boolean {
  if (createsServer(call)) return true;
  let current: ts.Expression = call;
  for (let i = 0; i < MAX_CHAIN && ts.isCallExpression(current); i += 1) {
    if (!ts.isPropertyAccessExpression(current.expression) || !CHAINABLE.has(current.expression.name.text)) return false;
    current = unwrap(current.expression.expression);
  }
  return !ts.isCallExpression(current) && isServerReceiver(current, serverVars);
}

function isHandlerArg(node: ts.Expression): boolean {
  const inner = unwrap(node);
  return isFunctionLike(inner) || ts.isIdentifier(inner) || ts.isPropertyAccessExpression(inner) || ts.isCallExpression(inner)
    || (ts.isObjectLiteralExpression(inner) && propertyValue(inner, 'handler') !== undefined);
}

/** Resolves a handler argument to a function node in the same file, when it is one. */
function resolveHandler(src: ParsedSource, node: ts.Expression | undefined): FunctionLike | undefined {
  if (!node) return undefined;
  const inner = unbound(node);
  if (isFunctionLike(inner)) return inner;
  if (ts.isObjectLiteralExpression(inner)) return resolveHandler(src, propertyValue(inner, 'handler'));
  if (ts.isCallExpression(inner)) return resolveHandler(src, inner.arguments[inner.arguments.length - 1]);
  // A name declared in this file, also through a wrapper (`const pay = asyncHandler(async (req, res) => …)`).
  if (ts.isIdentifier(inner)) return functionOf(src, inner);
  // A method of the route class itself: `this.createPost`.
  return thisMethod(src, inner);
}

function handlerName(node: ts.Expression | undefined, fn: FunctionLike | undefined): string | undefined {
  if (node && ts.isIdentifier(unwrap(node))) return (unwrap(node) as ts.Identifier).text;
  if (node && ts.isPropertyAccessExpression(unwrap(node))) return (unwrap(node) as ts.PropertyAccessExpression).name.text;
  if (fn && (ts.isFunctionExpression(fn) || ts.isFunctionDeclaration(fn)) && fn.name) return fn.name.text;
  return undefined;
}

/**
 * Builds the finding for one route. Exported for the NestJS scanner, which finds routes by
 * decorators but reports them the same way.
 * @example endpointFinding(src, { method: 'POST', route: '/payments', framework: 'express', at: call, handler: fn })
 */
export function endpointFinding(src: ParsedSource, spec: {
  method: MutatingMethod; route: string; framework: Framework; at: ts.Node; handler?: FunctionLike; name?: string;
  boundNames?: readonly string[]; bodyType?: string; verifiedBy?: readonly (FunctionLike | undefined)[];
  /** The handler argument as written: followed into the module that exports it when it is not in this file. */
  handlerNode?: ts.Expression;
}): EndpointFinding {
  const { handler } = spec;
  const facts = handler ? handlerFacts(src, handler, spec.boundNames) : undefined;
  // The type as this file names it, qualified by the module its import leads to.
  const bodyType = spec.bodyType !== undefined ? qualifiedBodyType(src, spec.bodyType) : facts?.bodyType;
  const handlerImport = !handler && spec.handlerNode ? importedHandler(src, spec.handlerNode) : undefined;
  return {
    method: spec.method,
    route: spec.route,
    framework: spec.framework,
    location: nodeLocation(src, spec.at),
    ...(spec.name ? { handler: spec.name } : {}),
    bodyFields: facts?.bodyFields ?? [],
    ...(bodyType ? { bodyType } : {}),
    // Signature verification anywhere on the route's path (its middleware too) marks a webhook.
    webhook: WEBHOOK_PATH.test(spec.route) || (facts?.verifiesSignature ?? false) || (spec.verifiedBy ?? []).some((fn) => callsWebhookVerifier(fn)),
    ...(facts ? { span: facts.span } : {}),
    ...(handlerImport ? { handlerImport } : {}),
  };
}

/** The `.route('/x')` call at the root of a chain of verb calls, if the chain has one. */
function routeChainRoot(receiver: ts.Expression): (ts.CallExpression & { expression: ts.PropertyAccessExpression }) | undefined {
  let current = unwrap(receiver);
  while (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression)) {
    const verb = current.expression.name.text;
    if (verb === 'route' && current.arguments.length === 1) return current as ts.CallExpression & { expression: ts.PropertyAccessExpression };
    if (!METHODS[verb] && !['get', 'all', 'head', 'options'].includes(verb)) return undefined;
    current = unwrap(current.expression.expression);
  }
  return undefined;
}

function methodsOf(node: ts.Expression | undefined): MutatingMethod[] {
  if (!node) return [];
  const inner = unwrap(node);
  const one = literalText(inner)?.toLowerCase();
  if (one) return METHODS[one] ? [METHODS[one]] : [];
  if (ts.isArrayLiteralExpression(inner)) return inner.elements.flatMap((e) => methodsOf(e));
  return [];
}

/**
 * Middleware that validates the body: against a named class or schema (`validate(CreateUserDto)`,
 * `validate(authValidation.register)` — the schema is looked up by its name), or one written in
 * place (`celebrate({ [Segments.BODY]: Joi.object().keys({ … }) })`).
 */
const VALIDATING_MIDDLEWARE = /valid|schema|body|dto|celebrate/i;

function middlewareSchema(middleware: readonly ts.Expression[]): { type?: string; fields?: string[] } {
  for (const arg of middleware) {
    const inner = unwrap(arg);
    if (!ts.isCallExpression(inner) || !VALIDATING_MIDDLEWARE.test(calleeName(inner.expression)) || !inner.arguments[0]) continue;
    const first = unwrap(inner.arguments[0]);
    if (ts.isIdentifier(first)) return { type: first.text };
    // `userValidation.createUser`: the namespace says which module's `createUser` (ts-shape-imports.ts).
    if (ts.isPropertyAccessExpression(first)) return { type: ts.isIdentifier(first.expression) ? `${first.expression.text}.${first.name.text}` : first.name.text };
    const fields = requestBodyKeys(first);
    if (fields.length > 0) return { fields };
  }
  return {};
}

const calleeName = (callee: ts.Expression): string =>
  ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';

/**
 * Routes declared by one call expression, or none.
 * @example routeCallEndpoints(src, parse("app.post('/payments', pay)"), 'express') // [{ method: 'POST', route: '/payments', ... }]
 */
export function routeCallEndpoints(src: ParsedSource, call: ts.CallExpression, framework: Framework | undefined, serverVars: ReadonlySet<string> = new Set()): EndpointFinding[] {
  if (!framework || !ts.isPropertyAccessExpression(call.expression)) return [];
  const name = call.expression.name.text;
  // The verb's own position: in a chain (`router.route('/x').get(..).post(..)`) that is the `.post` line.
  const at = call.expression.name;
  const receiver = call.expression.expression;
  const args = call.arguments;
  const last = args[args.length - 1];
  // router.route('/x').get(h).post(handler) — Express's chained form.
  const chained = routeChainRoot(receiver);
  if (METHODS[name] && chained && isServerReceiver(chained.expression.expression, serverVars)) {
    const route = staticString(src, chained.arguments[0]);
    const handler = resolveHandler(src, last);
    const validated = middlewareSchema(args.slice(0, -1));
    const found = route === undefined ? undefined : endpointFinding(src, {
      method: METHODS[name], route, framework, at, handler, name: handlerName(last, handler), ...(last ? { handlerNode: last } : {}), ...(validated.type ? { bodyType: validated.type } : {}),
    });
    return found ? [validated.fields ? { ...found, bodyFields: [...new Set([...found.bodyFields, ...validated.fields])] } : found] : [];
  }
  if (!isServerReceiver(receiver, serverVars)) return [];
  if (METHODS[name] && args.length >= 2) {
    // Koa names a route before its path: `router.post('create-user', '/users', handler)`.
    const pathAt = framework === 'koa' ? koaPathIndex(src, args) : 0;
    const route = staticString(src, args[pathAt]);
    if (route === undefined || !(route.startsWith('/') || route === '*') || !last || !isHandlerArg(last)) return [];
    const handler = resolveHandler(src, last);
    const middleware = args.slice(pathAt + 1, -1);
    // Fastify route options: `{ schema: { body: OrderSchema } }` names the body's shape.
    const options = middleware.map((arg) => unwrap(arg)).find((arg) => ts.isObjectLiteralExpression(arg));
    const schemaBody = options ? unwrap(propertyValue(propertyValue(options, 'schema') ? unwrap(propertyValue(options, 'schema') as ts.Expression) : undefined, 'body') ?? options) : undefined;
    const validated = middlewareSchema(middleware);
    const schemaType = schemaBody && schemaBody !== options && ts.isIdentifier(schemaBody) ? schemaBody.text : validated.type;
    const schemaProps = schemaBody && schemaBody !== options && ts.isObjectLiteralExpression(schemaBody) ? propertyValue(schemaBody, 'properties') : undefined;
    const inlineFields = schemaProps && ts.isObjectLiteralExpression(schemaProps)
      ? schemaProps.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : [])) : validated.fields ?? [];
    const verifiedBy = middleware.flatMap((arg) => {
      const inner = unwrap(arg);
      // Fastify route options: `{ preHandler: verifySignature }` runs before the handler.
      if (ts.isObjectLiteralExpression(inner)) return ['preHandler', 'onRequest', 'preValidation'].map((hook) => resolveHandler(src, propertyValue(inner, hook)));
      return [resolveHandler(src, arg)];
    });
    const found = endpointFinding(src, { method: METHODS[name], route, framework, at, handler, name: handlerName(last, handler), handlerNode: last, verifiedBy, ...(schemaType ? { bodyType: schemaType } : {}) });
    const protection = middlewareProtection(src, middleware);
    const registration = framework === 'koa' ? routeRegistration(src, call) : undefined;
    return [{
      ...found,
      ...(inlineFields.length > 0 ? { bodyFields: [...new Set([...found.bodyFields, ...inlineFields])] } : {}),
      ...(protection ? { protection } : {}),
      ...(registration ? { registration } : {}),
    }];
  }
  if (name === 'route' && args.length === 1 && ts.isObjectLiteralExpression(unwrap(args[0] as ts.Expression))) {
    const options = args[0];
    const route = staticString(src, propertyValue(options, 'url') ?? propertyValue(options, 'path'));
    const handlerNode = propertyValue(options, 'handler');
    const handler = resolveHandler(src, handlerNode);
    return route === undefined ? [] : methodsOf(propertyValue(options, 'method')).map((method) =>
      endpointFinding(src, { method, route, framework, at, handler, name: handlerName(handlerNode, handler), ...(handlerNode ? { handlerNode } : {}) }));
  }
  if (name === 'on' && args.length >= 3) {
    const route = staticString(src, args[1]);
    const handler = resolveHandler(src, last);
    return route === undefined ? [] : methodsOf(args[0]).map((method) =>
      endpointFinding(src, { method, route, framework, at, handler, name: handlerName(last, handler), ...(last ? { handlerNode: last } : {}) }));
  }
  return [];
}

const NEXT_ROUTE_FILE = /(?:^|\/)app\/((?:[^/]+\/)*)route\.(?:ts|tsx|js|mjs|jsx)$/;
const MEDUSA_ROUTE_FILE = /(?:^|\/)src\/api\/((?:[^/]+\/)*)route\.(?:ts|js|mjs)$/;
const MEDUSA_IMPORT = /from\s+['"]@medusajs\//;

/**
 * `app/api/orders/[id]/(group)/route.ts` → `/api/orders/:id` (also used for `pages/api` files).
 * @example nextRoute('api/orders/[id]') // '/api/orders/:id'
 */
export function nextRoute(segments: string): string {
  const parts = segments.split('/').filter((part) => part && !/^\(.*\)$/.test(part) && !part.startsWith('@'));
  const mapped = parts.map((part) => part.replace(/^\[\[?\.\.\.(\w+)\]\]?$/, '*$1').replace(/^\[(\w+)\]$/, ':$1'));
  return `/${mapped.join('/')}`;
}

const isExported = (node: ts.Node) => hasModifier(node, ts.SyntaxKind.ExportKeyword);

/**
 * Next.js app-router handlers: exported `POST`/`PUT`/`PATCH`/`DELETE` in a `route.ts` file.
 * @example nextRouteEndpoints(parseSource('app/api/orders/route.ts', 'export async function POST(req) {}')) // POST /api/orders
 */
export function nextRouteEndpoints(src: ParsedSource): EndpointFinding[] {
  const next = NEXT_ROUTE_FILE.exec(src.relPath);
  // Medusa v2 API routes (`src/api/store/carts/[id]/route.ts`): the same file convention, served by
  // Medusa's Express application, so the Express middleware protects them.
  const medusa = next ? null : MEDUSA_ROUTE_FILE.exec(src.relPath);
  const match = next ?? (medusa && MEDUSA_IMPORT.test(src.sf.text) ? medusa : null);
  if (!match) return [];
  // A folder named `_x` is private: Next.js routes nothing below it.
  if (next && (match[1] ?? '').split('/').some((part) => part.startsWith('_'))) return [];
  const framework = next ? 'nextjs' : 'express';
  const route = nextRoute(match[1] ?? '');
  const out: EndpointFinding[] = [];
  const verb = (name: string): MutatingMethod | undefined => (name === name.toUpperCase() ? METHODS[name.toLowerCase()] : undefined);
  const add = (method: MutatingMethod, name: string, at: ts.Node, value: ts.Expression | undefined, handler = value && resolveHandler(src, value)) => {
    // `export const POST = handle(app)`: Hono's Next.js adapter serves the Hono app's routes, reported from the app itself.
    if (value && servesHonoApp(src, value)) return;
    out.push(endpointFinding(src, { method, route, framework, at, handler, name, ...(value && !handler ? { handlerNode: value } : {}) }));
  };
  for (const statement of src.sf.statements) {
    // `export { handler as POST, handler as PUT }`: one function serving several methods.
    if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const method = verb(element.name.text);
        if (method) add(method, element.name.text, element, element.propertyName ?? element.name);
      }
    }
    if (!isExported(statement)) continue;
    const declared = ts.isFunctionDeclaration(statement) && statement.name ? verb(statement.name.text) : undefined;
    if (declared && ts.isFunctionDeclaration(statement)) add(declared, statement.name?.text ?? '', statement, undefined, statement);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const name = ts.isIdentifier(declaration.name) ? declaration.name.text : '';
        const method = verb(name);
        // `export const POST = withAuth(async (req) => …)`: the wrapped function is the handler.
        if (method) add(method, name, declaration, declaration.initializer);
      }
    }
  }
  return out;
}

/** `handle(app)` imported from `hono/vercel` or `hono/nextjs`. */
function servesHonoApp(src: ParsedSource, value: ts.Expression): boolean {
  const inner = unwrap(value);
  if (!ts.isCallExpression(inner) || !ts.isIdentifier(inner.expression)) return false;
  return /^hono\/(vercel|nextjs)$/.test(src.bindings.get(inner.expression.text) ?? '');
}
