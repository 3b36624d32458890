/**
 * Small helpers over the TypeScript compiler API shared by the TS/JS scanners: parsing, import
 * bindings, call-chain text, literals and `path:line` of nodes.
 */
import ts from 'typescript';
import { RELATIVE_ONLY, type ModulePaths } from '../module-paths.js';

/** A parsed file plus what its imports bind, so scanners can tell `express` from `axios`. */
export interface ParsedSource {
  readonly sf: ts.SourceFile;
  readonly relPath: string;
  /** Every imported module specifier (`express`, `stripe`, `@adyen/api-library`, ...). */
  readonly modules: ReadonlySet<string>;
  /** Local binding name → module it came from (`Pool` → `pg`, `amqp` → `amqplib`). */
  readonly bindings: ReadonlyMap<string, string>;
  /** Files an import of this file may name: relative, or through the project's path mappings. */
  readonly paths: ModulePaths;
}

function scriptKind(relPath: string): ts.ScriptKind {
  if (/\.tsx$/.test(relPath)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(relPath)) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(relPath)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

function recordRequire(node: ts.VariableDeclaration, modules: Set<string>, bindings: Map<string, string>): void {
  const init = node.initializer;
  if (!init || !ts.isCallExpression(init) || !ts.isIdentifier(init.expression) || init.expression.text !== 'require') return;
  const arg = init.arguments[0];
  if (!arg || !ts.isStringLiteral(arg)) return;
  modules.add(arg.text);
  if (ts.isIdentifier(node.name)) bindings.set(node.name.text, arg.text);
  if (ts.isObjectBindingPattern(node.name)) {
    for (const element of node.name.elements) {
      if (ts.isIdentifier(element.name)) bindings.set(element.name.text, arg.text);
    }
  }
}

/**
 * Parses TS/JS text (the file is never type-checked, so it need not compile).
 * @example const src = parseSource('src/app.ts', "import express from 'express'"); src.modules.has('express') // true
 */
export function parseSource(relPath: string, text: string, paths: ModulePaths = RELATIVE_ONLY): ParsedSource {
  // JSDoc is never read by a scanner; not parsing it saves about a sixth of the parse on documented code.
  const sf = ts.createSourceFile(relPath, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, true, scriptKind(relPath));
  const modules = new Set<string>();
  const bindings = new Map<string, string>();
  for (const statement of sf.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const from = statement.moduleSpecifier.text;
      modules.add(from);
      const clause = statement.importClause;
      if (clause?.name) bindings.set(clause.name.text, from);
      const named = clause?.namedBindings;
      if (named && ts.isNamespaceImport(named)) bindings.set(named.name.text, from);
      if (named && ts.isNamedImports(named)) for (const element of named.elements) bindings.set(element.name.text, from);
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) recordRequire(declaration, modules, bindings);
    }
  }
  return { sf, relPath, modules, bindings, paths };
}

/**
 * `path:line` of a node's first token.
 * @example nodeLocation(src, callNode) // 'src/routes/payments.ts:14'
 */
export function nodeLocation(src: ParsedSource, node: ts.Node): string {
  return `${src.relPath}:${nodeLine(src, node)}`;
}

/**
 * 1-based line of a node's first token.
 * @example nodeLine(src, callNode) // 14
 */
export function nodeLine(src: ParsedSource, node: ts.Node): number {
  return src.sf.getLineAndCharacterOfPosition(node.getStart(src.sf)).line + 1;
}

/**
 * 1-based line of a node's last character.
 * @example nodeEndLine(src, handlerNode) // 31
 */
export function nodeEndLine(src: ParsedSource, node: ts.Node): number {
  return src.sf.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
}

/**
 * A handler argument without its `.bind(this)`: `this.create.bind(this)` runs `this.create`.
 * @example unbound(parse('this.create.bind(this)')) // the `this.create` node
 */
export function unbound(node: ts.Expression): ts.Expression {
  const inner = unwrap(node);
  const bind = ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression) && inner.expression.name.text === 'bind';
  return bind ? unwrap((inner.expression as ts.PropertyAccessExpression).expression) : inner;
}

/**
 * Strips wrappers that do not change what an expression denotes: parentheses, `as T`, `!`, `await`.
 * @example unwrap(parse('(req.body as Body)')) // the `req.body` node
 */
export function unwrap(node: ts.Expression): ts.Expression {
  let current = node;
  for (;;) {
    if (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isNonNullExpression(current)
      || ts.isAwaitExpression(current) || ts.isTypeAssertionExpression(current) || ts.isSatisfiesExpression(current)) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

/**
 * Dotted text of a callee: `this.stripe.paymentIntents.create`, `router.route().post`.
 * Call arguments are elided so the text is stable however the call is formatted.
 * @example chainText(parse('stripe.refunds.create')) // 'stripe.refunds.create'
 */
export function chainText(node: ts.Expression): string {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner) || ts.isPrivateIdentifier(inner)) return inner.text;
  if (inner.kind === ts.SyntaxKind.ThisKeyword) return 'this';
  if (ts.isPropertyAccessExpression(inner)) return `${chainText(inner.expression)}.${inner.name.text}`;
  if (ts.isCallExpression(inner)) return `${chainText(inner.expression)}()`;
  if (ts.isElementAccessExpression(inner)) return `${chainText(inner.expression)}[]`;
  if (ts.isNewExpression(inner)) return `new ${chainText(inner.expression)}()`;
  return '?';
}

/**
 * The root identifier of a chain (`stripe` in `stripe.charges.create`), if there is one.
 * @example rootName(parse('pg.Pool')) // 'pg'
 */
export function rootName(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return inner.text;
  if (ts.isPropertyAccessExpression(inner) || ts.isCallExpression(inner) || ts.isElementAccessExpression(inner)) {
    return rootName(inner.expression);
  }
  return undefined;
}

/**
 * The value of a string literal or substitution-free template, else undefined.
 * @example literalText(parse("'/payments'")) // '/payments'
 */
export function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  return undefined;
}

/**
 * The named property's initializer in an object literal (`{ topic: 'orders' }` → `'orders'`).
 * @example propertyValue(objectNode, 'topic')
 */
export function propertyValue(node: ts.Node | undefined, name: string): ts.Expression | undefined {
  if (!node || !ts.isObjectLiteralExpression(node)) return undefined;
  for (const property of node.properties) {
    if (!property.name) continue;
    const key = ts.isIdentifier(property.name) || ts.isStringLiteral(property.name) ? property.name.text : undefined;
    if (key !== name) continue;
    if (ts.isPropertyAssignment(property)) return property.initializer;
    if (ts.isShorthandPropertyAssignment(property)) return property.name;
    if (ts.isMethodDeclaration(property)) return property.name as unknown as ts.Expression;
  }
  return undefined;
}

/**
 * True when any argument is an object literal with one of the given property names.
 * @example hasOptionProperty(call, ['idempotencyKey']) // true for `create(params, { idempotencyKey })`
 */
export function hasOptionProperty(call: ts.CallExpression | ts.NewExpression, names: readonly string[]): boolean {
  return (call.arguments ?? []).some((arg) => names.some((name) => propertyValue(arg, name) !== undefined));
}

/** A decorator as applied: `@Post('/x')` → `{ name: 'Post', args: ['/x'] }`. */
export interface DecoratorUse {
  readonly name: string;
  readonly args: readonly ts.Expression[];
  readonly node: ts.Decorator;
}

/**
 * The decorators of a node as `{ name, args }` (name without `@`, args as written).
 * @example decoratorsOf(methodNode) // [{ name: 'Post', args: [<'/charge'>] }]
 */
export function decoratorsOf(node: ts.Node): DecoratorUse[] {
  if (!ts.canHaveDecorators(node)) return [];
  return (ts.getDecorators(node) ?? []).flatMap((decorator): DecoratorUse[] => {
    const expression = decorator.expression;
    if (ts.isCallExpression(expression)) return [{ name: chainText(expression.expression), args: expression.arguments, node: decorator }];
    if (ts.isIdentifier(expression)) return [{ name: expression.text, args: [], node: decorator }];
    return [];
  });
}

/** Function-like nodes a handler can be. */
/**
 * Whether a declaration carries a modifier: `hasModifier(node, ts.SyntaxKind.ExportKeyword)` for
 * `export …`, `DefaultKeyword` for `export default …`.
 * @example hasModifier(statement, ts.SyntaxKind.ExportKeyword) // true for `export const pay = …`
 */
export function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);
}

export type FunctionLike = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

/**
 * True for arrow functions, function expressions/declarations and methods.
 * @example isFunctionLike(parse('(req, res) => {}')) // true
 */
export function isFunctionLike(node: ts.Node): node is FunctionLike {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node);
}
