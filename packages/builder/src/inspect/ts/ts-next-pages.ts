/**
 * Next.js pages-router API routes: `pages/api/**` (also `src/pages/api`) files whose default export
 * handles every method of one path. One endpoint per mutating method the handler branches on
 * (`req.method === 'POST'`, `switch (req.method)`, a `!== 'POST'` guard answering 405, next-connect
 * `router.post(fn)`), each with the body fields read in its own branch.
 *
 * A handler that never looks at the method answers every method alike. Its method and whether it
 * is a mutating entry point at all are not in its file: it is reported marked `anyMethod`, and the
 * codebase-level pass (any-method-routes.ts) takes the method from the app's own callers and keeps
 * it only when what it does mutates. Reading `req.body` alone is no mutation (a lookup by id).
 */
import ts from 'typescript';
import type { EndpointFinding, MutatingMethod } from '../types.js';
import { bodyFieldsOf } from './ts-body-fields.js';
import { declarationOf, functionOf } from './ts-declarations.js';
import { endpointFinding, nextRoute } from './ts-routes.js';
import { isFunctionLike, literalText, nodeEndLine, nodeLine, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

const PAGES_API = /(?:^|\/)pages\/(api(?:\/[^/]+)*?)\.(?:ts|tsx|js|jsx|mjs|cjs)$/;
const APP_ROUTE = /(?:^|\/)app\/((?:[^/]+\/)*)route\.(?:ts|tsx|js|mjs|jsx)$/;
const MUTATING: Record<string, MutatingMethod> = { POST: 'POST', PUT: 'PUT', PATCH: 'PATCH', DELETE: 'DELETE' };

/**
 * The route a Next.js file answers on, pages or app router, or undefined for other files.
 * @example nextFileRoute('src/pages/api/orders/[id]/refund.ts') // '/api/orders/:id/refund'
 */
export function nextFileRoute(relPath: string): string | undefined {
  const pages = PAGES_API.exec(relPath);
  if (pages) return nextRoute((pages[1] ?? '').replace(/\/index$/, ''));
  const app = APP_ROUTE.exec(relPath);
  return app ? nextRoute(app[1] ?? '') : undefined;
}

/** The handler behind `export default`: inline, by name, or wrapped (`withAuth(handler)`). */
const handlerOf = (src: ParsedSource, node: ts.Expression | undefined): FunctionLike | undefined => functionOf(src, node);

function defaultHandler(src: ParsedSource): FunctionLike | undefined {
  for (const statement of src.sf.statements) {
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) ?? [] : [];
    if (ts.isFunctionDeclaration(statement) && modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return statement;
    if (ts.isExportAssignment(statement)) return handlerOf(src, statement.expression);
    if (ts.isExpressionStatement(statement) && ts.isBinaryExpression(statement.expression) && statement.expression.left.getText(src.sf) === 'module.exports') {
      return handlerOf(src, statement.expression.right);
    }
  }
  return undefined;
}

/** `req.method`, `method` bound from it, with `.toUpperCase()` ignored. */
function isMethodExpression(node: ts.Expression, request: string, aliases: ReadonlySet<string>): boolean {
  let inner = unwrap(node);
  if (ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression) && /^to(Locale)?(Upper|Lower)Case$/.test(inner.expression.name.text)) inner = unwrap(inner.expression.expression);
  if (ts.isPropertyAccessExpression(inner) && inner.name.text === 'method') return ts.isIdentifier(unwrap(inner.expression)) && (unwrap(inner.expression) as ts.Identifier).text === request;
  return ts.isIdentifier(inner) && aliases.has(inner.text);
}

/** Methods a condition tests for, split into `===` (branch serves them) and `!==` (guard: the rest serves them). */
function testedMethods(condition: ts.Expression, request: string, aliases: ReadonlySet<string>): { equal: string[]; notEqual: string[] } {
  const equal: string[] = [];
  const notEqual: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      const literal = literalText(unwrap(node.right)) ?? literalText(unwrap(node.left));
      const method = isMethodExpression(node.left, request, aliases) || isMethodExpression(node.right, request, aliases);
      if (literal && method && (op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.EqualsEqualsToken)) equal.push(literal.toUpperCase());
      if (literal && method && (op === ts.SyntaxKind.ExclamationEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsToken)) notEqual.push(literal.toUpperCase());
    }
    // ['POST', 'PUT'].includes(req.method)
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'includes'
      && ts.isArrayLiteralExpression(unwrap(node.expression.expression)) && node.arguments[0] && isMethodExpression(node.arguments[0], request, aliases)) {
      const listed = (unwrap(node.expression.expression) as ts.ArrayLiteralExpression).elements.flatMap((e) => literalText(e)?.toUpperCase() ?? []);
      const negated = ts.isPrefixUnaryExpression(node.parent) && node.parent.operator === ts.SyntaxKind.ExclamationToken;
      (negated ? notEqual : equal).push(...listed);
    }
    ts.forEachChild(node, visit);
  };
  visit(condition);
  return { equal, notEqual };
}

interface Branch {
  readonly method: MutatingMethod;
  /** The statements serving this method, or undefined when the whole handler does. */
  readonly node?: ts.Node;
  readonly at: ts.Node;
}

/** The branches per mutating method, and whether the handler looks at the method at all. */
function methodBranches(handler: FunctionLike, src: ParsedSource): { branches: Branch[]; checked: boolean } {
  const first = handler.parameters[0];
  const request = first && ts.isIdentifier(first.name) ? first.name.text : 'req';
  const aliases = new Set<string>();
  const branches: Branch[] = [];
  let checked = false;
  const visit = (node: ts.Node): void => {
    if (node !== handler && isFunctionLike(node)) return;
    // const { method } = req / const method = req.method
    if (ts.isVariableDeclaration(node) && node.initializer) {
      if (ts.isIdentifier(node.name) && isMethodExpression(node.initializer, request, aliases)) aliases.add(node.name.text);
      if (ts.isObjectBindingPattern(node.name) && ts.isIdentifier(unwrap(node.initializer)) && (unwrap(node.initializer) as ts.Identifier).text === request) {
        for (const e of node.name.elements) if ((e.propertyName ?? e.name).getText(src.sf) === 'method' && ts.isIdentifier(e.name)) aliases.add(e.name.text);
      }
    }
    if (ts.isSwitchStatement(node) && isMethodExpression(node.expression, request, aliases)) {
      checked = true;
      let pending: string[] = [];
      for (const clause of node.caseBlock.clauses) {
        if (ts.isCaseClause(clause)) {
          const literal = literalText(unwrap(clause.expression))?.toUpperCase();
          if (literal) pending.push(literal);
        }
        // Fall-through cases (`case 'PUT': case 'PATCH': …`) share the next body.
        if (clause.statements.length === 0) continue;
        for (const m of pending) {
          const method = MUTATING[m];
          if (method) branches.push({ method, node: clause, at: clause });
        }
        pending = [];
      }
    }
    if (ts.isIfStatement(node)) {
      const { equal, notEqual } = testedMethods(node.expression, request, aliases);
      if (equal.length + notEqual.length > 0) checked = true;
      for (const m of equal) if (MUTATING[m]) branches.push({ method: MUTATING[m], node: node.thenStatement, at: node });
      for (const m of notEqual) if (MUTATING[m]) branches.push({ method: MUTATING[m], at: node });
    }
    ts.forEachChild(node, visit);
  };
  if (handler.body) visit(handler.body);
  return { branches, checked };
}

/** `req.body` read anywhere in the handler, under the name its request parameter has. */
function readsBody(handler: FunctionLike, src: ParsedSource): boolean {
  const first = handler.parameters[0];
  const request = (first && ts.isIdentifier(first.name) ? first.name.text : 'req').replace(/\$/g, '\\$');
  return new RegExp(`\\b(${request}|req|request)\\.body\\b|\\{[^}]*\\bbody\\b[^}]*\\}\\s*=\\s*${request}\\b`).test(handler.getText(src.sf));
}

/** A branch that only hands over to a same-file function (`case 'POST': return createOrder(req, res)`). */
function delegate(src: ParsedSource, branch: ts.Node | undefined): FunctionLike | undefined {
  if (!branch) return undefined;
  const calls: FunctionLike[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.arguments.length > 0) {
      const fn = declarationOf(src, node.expression.text)?.fn;
      if (fn) calls.push(fn);
    }
    ts.forEachChild(node, visit);
  };
  visit(branch);
  return calls.length === 1 ? calls[0] : undefined;
}

/** next-connect: `router.post(async (req, res) => …)` with no path (the file is the path). */
function connectRoutes(src: ParsedSource): Array<{ method: MutatingMethod; at: ts.Node; handler?: FunctionLike }> {
  if (![...src.modules].some((m) => m === 'next-connect')) return [];
  const out: Array<{ method: MutatingMethod; at: ts.Node; handler?: FunctionLike }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.arguments.length > 0 && literalText(node.arguments[0]) === undefined) {
      const method = MUTATING[node.expression.name.text.toUpperCase()];
      const last = node.arguments[node.arguments.length - 1];
      if (method && last) out.push({ method, at: node.expression.name, ...(handlerOf(src, last) ? { handler: handlerOf(src, last) } : {}) });
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}

/**
 * The mutating endpoints of one pages-router API file.
 * @example nextPagesEndpoints(parseSource('pages/api/orders.ts', "export default function h(req, res) { if (req.method === 'POST') { const { sku } = req.body } }"))
 *   // [{ method: 'POST', route: '/api/orders', bodyFields: ['sku'], framework: 'nextjs', ... }]
 */
export function nextPagesEndpoints(src: ParsedSource): EndpointFinding[] {
  const match = PAGES_API.exec(src.relPath);
  if (!match) return [];
  const route = nextFileRoute(src.relPath) ?? '/';
  const connected = connectRoutes(src);
  if (connected.length > 0) {
    return connected.map((c) => endpointFinding(src, { method: c.method, route, framework: 'nextjs', at: c.at, ...(c.handler ? { handler: c.handler } : {}), name: c.method }));
  }
  const handler = defaultHandler(src);
  if (!handler) return [];
  const named = (ts.isFunctionDeclaration(handler) || ts.isFunctionExpression(handler)) && handler.name ? handler.name.text : undefined;
  const name = named ?? (ts.isVariableDeclaration(handler.parent) && ts.isIdentifier(handler.parent.name) ? handler.parent.name.text : undefined);
  const { branches, checked } = methodBranches(handler, src);
  // The method is checked and no mutating one is served (`if (req.method !== 'GET') return 405`): a reader.
  if (checked && branches.length === 0) return [];
  if (branches.length === 0) {
    // POST until the app's callers say otherwise (any-method-routes.ts).
    const found = endpointFinding(src, { method: 'POST', route, framework: 'nextjs', at: handler, handler, ...(name ? { name } : {}) });
    return [{ ...found, anyMethod: { readsBody: found.bodyFields.length > 0 || readsBody(handler, src) } }];
  }
  const out: EndpointFinding[] = [];
  for (const method of [...new Set(branches.map((b) => b.method))]) {
    const own = branches.filter((b) => b.method === method);
    const others = new Set(branches.filter((b) => b.method !== method && b.node && !own.some((o) => o.node === b.node)).flatMap((b) => (b.node ? [b.node] : [])));
    const served = own.find((b) => b.node)?.node;
    const delegated = own.length === 1 ? delegate(src, served) : undefined;
    const found = endpointFinding(src, { method, route, framework: 'nextjs', at: own[0]?.at ?? handler, handler, ...(name ? { name } : {}) });
    const fields = [...bodyFieldsOf(handler, [], others), ...(delegated ? bodyFieldsOf(delegated) : [])];
    const spanNode = delegated ?? (own.every((b) => b.node) ? served : undefined);
    const span = spanNode ? { start: nodeLine(src, spanNode), end: nodeEndLine(src, spanNode) } : found.span;
    out.push({ ...found, bodyFields: [...new Set(fields)], ...(delegated && ts.isFunctionDeclaration(delegated) && delegated.name ? { handler: delegated.name.text } : {}), ...(span ? { span } : {}) });
  }
  return out;
}
