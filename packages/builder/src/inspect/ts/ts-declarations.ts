/**
 * What a name or an expression refers to inside one file: the declaration of a name, and the
 * function a handler or resolver expression stands for. Shared by the Next.js pages-router and the
 * GraphQL scanners, which both meet `export default withAuth(handler)`-style code.
 */
import ts from 'typescript';
import { isFunctionLike, propertyValue, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** How deep wrapped calls are followed (`a(b(c(handler)))`): deeper nesting is not a handler seen in practice. */
const MAX_WRAPPING = 4;

/**
 * The first same-file declaration of `name`, at any depth: a function, or a variable with its
 * initializer (`fn` when that initializer is a function).
 * @example declarationOf(src, 'orderMutations')?.init // the `{ createOrder, … }` object literal
 */
export function declarationOf(src: ParsedSource, name: string): { fn?: FunctionLike; init?: ts.Expression } | undefined {
  let found: { fn?: FunctionLike; init?: ts.Expression } | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isFunctionDeclaration(node) && node.name?.text === name) found = { fn: node };
    else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === name && node.initializer) {
      const init = unwrap(node.initializer);
      found = isFunctionLike(init) ? { fn: init } : { init };
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return found;
}

/**
 * The same-file function an expression stands for: inline, a name declared in the file (or the
 * function its wrapped initializer is given), the function a wrapping call is given
 * (`withAuth(handler)`, `cors(handler as any)`; the last argument first, since options usually
 * come before the handler), or, with `property`, that property of an object literal (`{ resolve }`
 * in GraphQL builders).
 * @example functionOf(src, exportDefault.expression) // the `handler` declaration behind `export default withSession(handler)`
 */
export function functionOf(src: ParsedSource, node: ts.Expression | undefined, options: { readonly property?: string } = {}, depth = 0): FunctionLike | undefined {
  if (!node || depth > MAX_WRAPPING) return undefined;
  const inner = unwrap(node);
  if (isFunctionLike(inner)) return inner;
  if (ts.isIdentifier(inner)) {
    // `const pay = asyncHandler(async (req, res) => …)`: the function the declared wrapper is given.
    const declared = declarationOf(src, inner.text);
    return declared?.fn ?? (declared?.init ? functionOf(src, declared.init, options, depth + 1) : undefined);
  }
  if (ts.isCallExpression(inner)) {
    for (const arg of [...inner.arguments].reverse()) {
      const fn = functionOf(src, arg, options, depth + 1);
      if (fn) return fn;
    }
    return undefined;
  }
  if (options.property && ts.isObjectLiteralExpression(inner)) return functionOf(src, propertyValue(inner, options.property), options, depth + 1);
  return undefined;
}
