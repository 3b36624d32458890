/**
 * What a name stands for within one TS/JS file: the value a `const`/`let` was given, the object an
 * options argument denotes, a header read case-insensitively. Shared by the payment scanners so an
 * options object, a headers object, a URL or a key passed by variable is followed the same way.
 */
import ts from 'typescript';
import { thisProperty } from './ts-class-members.js';
import { propertyValue, unwrap, type ParsedSource } from './ts-source.js';

/** The last `const|let|var name = value` among a block's own statements before `before`. */
function declaredIn(statements: ts.NodeArray<ts.Statement>, name: string, before: number): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  for (const statement of statements) {
    if (statement.pos >= before) break;
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.name.text === name && declaration.initializer) found = declaration.initializer;
    }
  }
  return found;
}

/** Any declaration of `name` in the file (a module-level options object used inside a function). */
function declaredAnywhere(src: ParsedSource, name: string): ts.Expression | undefined {
  let found: ts.Expression | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) found = node.initializer;
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return found;
}

/**
 * The value an identifier was declared with: the nearest enclosing block's declaration before the
 * use, else any declaration of that name in the file; undefined for parameters and imports.
 * @example valueOf(src, keyIdentifier) // the `randomUUID()` node of `const key = randomUUID()`
 */
export function valueOf(src: ParsedSource, expression: ts.Expression, depth = 0): ts.Expression {
  const inner = unwrap(expression);
  if (!ts.isIdentifier(inner) || depth > 3) return inner;
  for (let scope: ts.Node | undefined = inner.parent; scope; scope = scope.parent) {
    if (isParameterOf(scope, inner.text)) return inner;
    if (ts.isBlock(scope) || ts.isSourceFile(scope) || ts.isModuleBlock(scope) || ts.isCaseClause(scope)) {
      const found = declaredIn(scope.statements, inner.text, inner.pos);
      if (found) return valueOf(src, found, depth + 1);
    }
  }
  const anywhere = declaredAnywhere(src, inner.text);
  return anywhere ? valueOf(src, anywhere, depth + 1) : inner;
}

function isParameterOf(node: ts.Node, name: string): boolean {
  if (!(ts.isFunctionLike(node))) return false;
  return node.parameters.some((p) => ts.isIdentifier(p.name) && p.name.text === name);
}

/**
 * The object literal an argument denotes: written in place, through a variable, or wrapped in
 * `new Headers({...})`.
 * @example objectArgument(src, optionsIdentifier) // the `{ idempotencyKey: … }` of `const options = {…}`
 */
export function objectArgument(src: ParsedSource, arg: ts.Expression | undefined): ts.ObjectLiteralExpression | undefined {
  if (!arg) return undefined;
  const value = valueOf(src, arg);
  if (ts.isObjectLiteralExpression(value)) return value;
  if (ts.isNewExpression(value) && ts.isIdentifier(value.expression) && value.expression.text === 'Headers') return objectArgument(src, value.arguments?.[0]);
  return undefined;
}

/**
 * A property of an object (or of an object spread into it), names compared case-insensitively as
 * HTTP header names are.
 * @example propertyIn(src, headers, ['PayPal-Request-Id']) // the value node of `'paypal-request-id': id`
 */
export function propertyIn(src: ParsedSource, object: ts.ObjectLiteralExpression | undefined, names: readonly string[]): ts.Expression | undefined {
  if (!object) return undefined;
  const wanted = names.map((n) => n.toLowerCase());
  for (const property of object.properties) {
    if (ts.isSpreadAssignment(property)) {
      const spread = propertyIn(src, objectArgument(src, property.expression), names);
      if (spread) return spread;
      continue;
    }
    const name = property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) || ts.isNoSubstitutionTemplateLiteral(property.name)) ? property.name.text : undefined;
    if (!name || !wanted.includes(name.toLowerCase())) continue;
    return propertyValue(object, name);
  }
  return undefined;
}

/**
 * A value set after the fact in the function around `node`: `headers.set('PayPal-Request-Id', v)`,
 * `request.headers['PayPal-Request-Id'] = v` (the legacy PayPal SDK's way).
 * @example assignedHeader(src, call, 'PayPal-Request-Id') // the `v` node
 */
export function assignedHeader(src: ParsedSource, node: ts.Node, name: string): ts.Expression | undefined {
  let scope: ts.Node = node;
  while (scope.parent && !ts.isFunctionLike(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
  let found: ts.Expression | undefined;
  const lower = name.toLowerCase();
  const visit = (current: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(current) && ts.isPropertyAccessExpression(current.expression) && /^(set|append|header|setHeader)$/.test(current.expression.name.text)) {
      const [first, second] = current.arguments;
      if (first && second && ts.isStringLiteral(first) && first.text.toLowerCase() === lower) found = second;
    }
    if (ts.isBinaryExpression(current) && current.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isElementAccessExpression(current.left)) {
      const key = current.left.argumentExpression;
      if (ts.isStringLiteral(key) && key.text.toLowerCase() === lower) found = current.right;
    }
    ts.forEachChild(current, visit);
  };
  visit(scope);
  return found;
}

/** The text a URL expression stands for: a literal or template as written, or a variable's value. */
export function urlText(src: ParsedSource, arg: ts.Expression | undefined): string {
  if (!arg) return '';
  return valueOf(src, arg).getText(src.sf);
}

/** How many names a spelled-out string is followed through (`PREFIX` → `BASE + '/v1'` → …). */
const MAX_STRING_HOPS = 4;

/**
 * The string an expression spells within its file: a literal; a template or `+` whose parts all
 * spell one; a name declared with one; a route class's member (`${this.path}/:id` with
 * `path = '/users'`). Undefined as soon as one part is not written down (a parameter, a config read).
 * @example staticString(src, parse('`${this.path}/:id`')) // '/users/:id'
 */
export function staticString(src: ParsedSource, node: ts.Expression | undefined, depth = 0): string | undefined {
  if (!node || depth > MAX_STRING_HOPS) return undefined;
  const inner = unwrap(node);
  if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner)) return inner.text;
  if (ts.isTemplateExpression(inner)) {
    let text = inner.head.text;
    for (const span of inner.templateSpans) {
      const part = staticString(src, span.expression, depth + 1);
      if (part === undefined) return undefined;
      text += part + span.literal.text;
    }
    return text;
  }
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const left = staticString(src, inner.left, depth + 1);
    const right = left === undefined ? undefined : staticString(src, inner.right, depth + 1);
    return left === undefined || right === undefined ? undefined : left + right;
  }
  if (ts.isIdentifier(inner)) {
    const value = valueOf(src, inner);
    return value === inner ? undefined : staticString(src, value, depth + 1);
  }
  const member = thisProperty(inner);
  return member?.init ? staticString(src, member.init, depth + 1) : undefined;
}
