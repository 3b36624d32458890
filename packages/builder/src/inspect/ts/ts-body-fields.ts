/**
 * Which request-body fields a handler reads — the candidates for the fingerprint. Follows the
 * common shapes: `req.body.x`, `const { x } = req.body`, `await c.req.json()`, `await request.json()`,
 * `schema.parse(req.body)` and `safeParse(...).data`, and NestJS `@Body() dto` parameters; Koa's
 * `ctx.request.body` and `const { body } = ctx.request` (where `ctx.body` is the response).
 */
import ts from 'typescript';
import { type FunctionLike, unwrap } from './ts-source.js';

const BODY_READERS = new Set(['json', 'valid', 'parseBody', 'formData']);
const VALIDATORS = new Set(['parse', 'parseAsync', 'validate', 'validateSync', 'assert', 'cast']);
const SAFE_VALIDATORS = new Set(['safeParse', 'safeParseAsync']);
const REQUEST_NAMES = new Set(['req', 'request', 'ctx', 'c', 'context']);

interface Scope {
  readonly params: ReadonlySet<string>;
  /** Variables that hold the body (or its validated copy). */
  readonly bound: Set<string>;
  /** Variables that hold a `safeParse` result, whose `.data` is the body. */
  readonly safeResults: Set<string>;
  /** Koa contexts: their `body` is the response, the request's is `ctx.request.body`. */
  readonly koaContexts: ReadonlySet<string>;
}

/**
 * The handler's Koa contexts: a parameter it reads `.request` of, or a `ctx` it assigns `.body`
 * to (`ctx.body = user` answers the request; it is no request field).
 */
function koaContexts(handler: FunctionLike): Set<string> {
  const out = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const assigned = ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken;
      if (node.name.text === 'request' || (node.name.text === 'body' && assigned && node.expression.text === 'ctx')) out.add(node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return out;
}

function scopeOf(handler: FunctionLike, boundNames: readonly string[] = []): Scope {
  const params = new Set<string>();
  for (const parameter of handler.parameters) if (ts.isIdentifier(parameter.name)) params.add(parameter.name.text);
  return { params, bound: new Set(boundNames), safeResults: new Set(), koaContexts: koaContexts(handler) };
}

function rootIdentifier(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return inner.text;
  if (ts.isPropertyAccessExpression(inner) || ts.isCallExpression(inner)) return rootIdentifier(inner.expression);
  return undefined;
}

function isRequestRoot(scope: Scope, node: ts.Expression): boolean {
  const root = rootIdentifier(node);
  return root !== undefined && (scope.params.has(root) || REQUEST_NAMES.has(root));
}

function isBodyExpression(scope: Scope, node: ts.Expression): boolean {
  const inner = unwrap(node);
  // `req.body ?? {}` / `req.body || {}`: still the body.
  if (ts.isBinaryExpression(inner) && (inner.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || inner.operatorToken.kind === ts.SyntaxKind.BarBarToken)) {
    return isBodyExpression(scope, inner.left);
  }
  if (ts.isIdentifier(inner)) return scope.bound.has(inner.text);
  if (ts.isPropertyAccessExpression(inner)) {
    const object = unwrap(inner.expression);
    const response = ts.isIdentifier(object) && scope.koaContexts.has(object.text);
    if (inner.name.text === 'body' && !response && isRequestRoot(scope, inner.expression)) return true;
    return inner.name.text === 'data' && ts.isIdentifier(object) && scope.safeResults.has(object.text);
  }
  if (ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression)) {
    const name = inner.expression.name.text;
    if (BODY_READERS.has(name) && isRequestRoot(scope, inner.expression.expression)) return true;
    if (VALIDATORS.has(name)) return inner.arguments.some((arg) => isBodyExpression(scope, arg));
  }
  return false;
}

function isSafeParse(scope: Scope, node: ts.Expression): boolean {
  const inner = unwrap(node);
  return ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression)
    && SAFE_VALIDATORS.has(inner.expression.name.text) && inner.arguments.some((arg) => isBodyExpression(scope, arg));
}

function bindingNames(pattern: ts.ObjectBindingPattern): string[] {
  return pattern.elements.flatMap((element) => {
    if (element.dotDotDotToken) return [];
    const key = element.propertyName ?? element.name;
    return ts.isIdentifier(key) || ts.isStringLiteral(key) ? [key.text] : [];
  });
}

/** The request object a pattern may take the body from: `ctx.request`, `req`, `ctx`. */
function isRequestObject(scope: Scope, node: ts.Expression): boolean {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return scope.params.has(inner.text) || REQUEST_NAMES.has(inner.text);
  return ts.isPropertyAccessExpression(inner) && inner.name.text === 'request' && isRequestObject(scope, inner.expression);
}

/**
 * The body in a pattern destructured from the request: `const { body } = ctx.request` (a name for
 * the whole body), `const { body: { amount } } = req` (fields), `const { request: { body } } = ctx`.
 * A Koa context's own `body` (a sibling of `request`) is the response and is skipped.
 */
function bodyInPattern(pattern: ts.ObjectBindingPattern, bodyIsRequest: boolean, bind: (name: string) => void, add: (field: string) => void): void {
  const keyOf = (element: ts.BindingElement): string | undefined => {
    const key = element.propertyName ?? element.name;
    return ts.isIdentifier(key) || ts.isStringLiteral(key) ? key.text : undefined;
  };
  const koa = pattern.elements.some((element) => keyOf(element) === 'request');
  for (const element of pattern.elements) {
    const key = keyOf(element);
    if (key === 'request' && ts.isObjectBindingPattern(element.name)) bodyInPattern(element.name, true, bind, add);
    if (key !== 'body' || !bodyIsRequest || koa) continue;
    if (ts.isIdentifier(element.name)) bind(element.name.text);
    else if (ts.isObjectBindingPattern(element.name)) bindingNames(element.name).forEach(add);
  }
}

/** What one declaration binds of the body: a name holding it, fields destructured from it, a `safeParse` result. */
function bindDeclaration(scope: Scope, node: ts.VariableDeclaration, add: (field: string) => void): void {
  if (!node.initializer) return;
  if (isBodyExpression(scope, node.initializer)) {
    if (ts.isIdentifier(node.name)) scope.bound.add(node.name.text);
    else if (ts.isObjectBindingPattern(node.name)) bindingNames(node.name).forEach(add);
  } else if (ts.isIdentifier(node.name) && isSafeParse(scope, node.initializer)) {
    scope.safeResults.add(node.name.text);
  } else if (ts.isObjectBindingPattern(node.name) && isRequestObject(scope, node.initializer)) {
    const from = unwrap(node.initializer);
    bodyInPattern(node.name, !(ts.isIdentifier(from) && scope.koaContexts.has(from.text)), (name) => scope.bound.add(name), add);
  }
}

/**
 * Body fields read by one handler, in first-seen order.
 * `boundNames` are parameters that already are the body (NestJS `@Body() dto`); `skip` are
 * subtrees not read (another method's branch of a Next.js API route).
 * @example
 * bodyFieldsOf(parse('(req, res) => { const { amount, currency } = req.body }')) // ['amount', 'currency']
 */
export function bodyFieldsOf(handler: FunctionLike, boundNames: readonly string[] = [], skip: ReadonlySet<ts.Node> = new Set()): string[] {
  const scope = scopeOf(handler, boundNames);
  const fields: string[] = [];
  const add = (name: string): void => {
    if (!fields.includes(name)) fields.push(name);
  };
  // Destructured handler parameters (`({ body: { amount } }) => ...`) are rare; the body is walked.
  const visit = (node: ts.Node): void => {
    if (skip.has(node)) return;
    if (ts.isVariableDeclaration(node)) bindDeclaration(scope, node, add);
    if (ts.isPropertyAccessExpression(node) && !isBodyExpression(scope, node) && isBodyExpression(scope, node.expression)) {
      add(node.name.text);
    }
    if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && isBodyExpression(scope, node.expression)) {
      add(node.argumentExpression.text);
    }
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return fields;
}

/** class-transformer's converters: `plainToInstance(CreateUserDto, ctx.request.body)` makes the body a DTO. */
const CONVERTERS = new Set(['plainToInstance', 'plainToClass']);

/** TypeScript's own generic types say nothing about which fields a body has. */
const LIBRARY_TYPES = /^(Record|Partial|Required|Readonly|Pick|Omit|Array|ReadonlyArray|Promise|Map|Set|Object|Function|Awaited|NonNullable)$/;

const typeName = (type: ts.TypeNode | undefined): string | undefined =>
  type && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && !LIBRARY_TYPES.test(type.typeName.text) ? type.typeName.text : undefined;

/** The class or type the body is taken as: `body as CreateUserDto`, `const dto: CreateUserDto = body`, `plainToInstance(CreateUserDto, body)`. */
function typedAs(scope: Scope, node: ts.Node): string | undefined {
  if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && isBodyExpression(scope, node.expression)) return typeName(node.type);
  if (ts.isVariableDeclaration(node) && node.initializer && isBodyExpression(scope, node.initializer)) return typeName(node.type);
  if (!ts.isCallExpression(node)) return undefined;
  const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
  const [type, value] = node.arguments;
  return ts.isIdentifier(callee) && CONVERTERS.has(callee.text) && type && ts.isIdentifier(type) && value && isBodyExpression(scope, value) ? type.text : undefined;
}

/**
 * The schema a handler validates its body with (`Order.parse(req.body)`, `Order.safeParse(await c.req.json())`),
 * or the DTO it takes the body as (`ctx.request.body as CreateUserDto`), so the schema's keys or
 * the DTO's fields can stand for the body's fields.
 * @example validatedSchemaOf(parse('(req) => { const o = Order.parse(req.body) }')) // 'Order'
 */
export function validatedSchemaOf(handler: FunctionLike): string | undefined {
  const scope = scopeOf(handler);
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)
      && (VALIDATORS.has(node.expression.name.text) || SAFE_VALIDATORS.has(node.expression.name.text))
      && ts.isIdentifier(node.expression.expression) && node.arguments.some((arg) => isBodyExpression(scope, arg))) {
      found = node.expression.expression.text;
    }
    found ??= typedAs(scope, node);
    // Names that hold the body (`const { body } = ctx.request`) are followed as the fields are.
    if (ts.isVariableDeclaration(node)) bindDeclaration(scope, node, () => undefined);
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return found;
}

/**
 * The first object-literal argument of a schema builder anywhere in a chain (`z.object({…}).strict()`,
 * Joi's `object().keys({…})`), as keys.
 * @example schemaKeys(parse('z.object({ sku: z.string() })')) // ['sku']
 */
export function schemaKeys(node: ts.Expression): string[] {
  let current: ts.Expression = node;
  for (let i = 0; i < 8; i += 1) {
    if (!ts.isCallExpression(current)) return [];
    const callee = current.expression;
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
    const arg = current.arguments[0];
    if (/^(object|Object|shape|strictObject|looseObject|keys)$/.test(name) && arg && ts.isObjectLiteralExpression(arg)) {
      return arg.properties.flatMap((p) => (p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? [p.name.text] : []));
    }
    if (!ts.isPropertyAccessExpression(callee)) return [];
    current = callee.expression;
  }
  return [];
}

/**
 * The body keys of a request schema that validates several parts (`{ body: Joi.object().keys({…}),
 * params: … }`, celebrate's `{ [Segments.BODY]: … }`).
 * @example requestBodyKeys(parse('{ body: Joi.object().keys({ email: Joi.string() }) }')) // ['email']
 */
export function requestBodyKeys(node: ts.Expression): string[] {
  const inner = unwrap(node);
  if (!ts.isObjectLiteralExpression(inner)) return [];
  for (const property of inner.properties) {
    if (!ts.isPropertyAssignment(property)) continue;
    const name = property.name;
    const key = ts.isComputedPropertyName(name) ? name.expression.getText() : ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
    if (/^(body|Segments\.BODY)$/.test(key)) return schemaKeys(unwrap(property.initializer));
  }
  return [];
}
