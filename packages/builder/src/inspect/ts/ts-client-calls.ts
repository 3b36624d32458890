/**
 * Calls a codebase makes to its own API — `fetch('/api/orders', { method: 'PUT' })`,
 * `axios.put(`${base}/api/orders/${id}`)`, `fetchPutJSON(url, body)` through a helper whose body
 * sends PUT — so that a route which never checks `req.method` gets the method it is really called
 * with. Pages-router paths all start with `/api`: only URLs that hold `/api` are read.
 */
import ts from 'typescript';
import { chainText, isFunctionLike, literalText, nodeLocation, parseSource, propertyValue, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** One call with a URL to the app's own API. */
export interface ClientCall {
  /** The path from `/api` on, a dynamic segment written `:p` (`/api/books/edit/:p`). */
  readonly path: string;
  /** Upper-case method when the call states it (a verb method, a `method` option, a bare `fetch`). */
  readonly method?: string;
  /** The function called as written (`axios.delete`, `fetchPutJSON`); its last name is looked up among the helpers when `method` is absent. */
  readonly callee: string;
  readonly location: string;
}

/** A function that sends its first parameter as the URL with a fixed method (`fetchPutJSON(url, data)`). */
export interface MethodHelper {
  readonly name: string;
  readonly method: string;
  readonly location: string;
}

export interface ClientFacts {
  readonly calls: ClientCall[];
  readonly helpers: MethodHelper[];
}

const VERBS: ReadonlyMap<string, string> = new Map([['get', 'GET'], ['post', 'POST'], ['put', 'PUT'], ['patch', 'PATCH'], ['delete', 'DELETE'], ['del', 'DELETE']]);
const DYNAMIC = ':p';

/** URL text of an expression: literals as written, each interpolated or concatenated value as `:p`. */
function urlText(node: ts.Expression): string | undefined {
  const inner = unwrap(node);
  const literal = literalText(inner);
  if (literal !== undefined) return literal;
  if (ts.isTemplateExpression(inner)) return inner.head.text + inner.templateSpans.map((span) => DYNAMIC + span.literal.text).join('');
  if (ts.isBinaryExpression(inner) && inner.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    return (urlText(inner.left) ?? DYNAMIC) + (urlText(inner.right) ?? DYNAMIC);
  }
  return undefined;
}

/**
 * The `/api…` path of a URL text, query and fragment cut, a segment with any dynamic part `:p`.
 * @example apiPath(':p/api/books/edit/:p?draft=1') // '/api/books/edit/:p'
 */
export function apiPath(url: string): string | undefined {
  const match = /\/api(?=[/?#]|$)[^?#]*/.exec(url);
  if (!match) return undefined;
  const segments = match[0].split('/').map((segment) => (segment.includes(DYNAMIC) ? DYNAMIC : segment));
  return segments.join('/').replace(/\/+$/, '') || '/api';
}

/** The URL argument of a call: the first argument, or its `url` property (`axios({ url, method })`). */
function urlArgument(call: ts.CallExpression): ts.Expression | undefined {
  const first = call.arguments[0] ? unwrap(call.arguments[0]) : undefined;
  if (first && ts.isObjectLiteralExpression(first)) return propertyValue(first, 'url');
  return first;
}

/** The method a call states: `x.put(…)`, a `method: 'PUT'` option, or GET for a bare `fetch(url)`. */
function statedMethod(call: ts.CallExpression): string | undefined {
  if (ts.isPropertyAccessExpression(call.expression)) {
    const verb = VERBS.get(call.expression.name.text);
    if (verb) return verb;
  }
  let optioned = false;
  for (const arg of call.arguments) {
    const option = propertyValue(unwrap(arg), 'method');
    if (!option) continue;
    optioned = true;
    // Only a verb: a body that carries its own `method` field (`{ method: 'card' }`) says nothing.
    const verb = VERBS.get(literalText(unwrap(option))?.toLowerCase() ?? '');
    if (verb) return verb;
  }
  // `fetch(url, { method })` with a computed method is not a GET.
  if (optioned) return undefined;
  return chainText(call.expression) === 'fetch' ? 'GET' : undefined;
}

function functionName(fn: FunctionLike): string | undefined {
  if ((ts.isFunctionDeclaration(fn) || ts.isFunctionExpression(fn)) && fn.name) return fn.name.text;
  const parent = fn.parent;
  return parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name) ? parent.name.text : undefined;
}

/** A helper: its first parameter is the URL of a call inside it that states one method. */
function helperOf(src: ParsedSource, fn: FunctionLike): MethodHelper | undefined {
  const name = functionName(fn);
  const first = fn.parameters[0];
  if (!name || !first || !ts.isIdentifier(first.name) || !fn.body) return undefined;
  const param = first.name.text;
  const methods = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const url = urlArgument(node);
      const method = url && ts.isIdentifier(unwrap(url)) && (unwrap(url) as ts.Identifier).text === param ? statedMethod(node) : undefined;
      if (method) methods.add(method);
    }
    ts.forEachChild(node, visit);
  };
  visit(fn.body);
  const [method] = [...methods];
  return methods.size === 1 && method ? { name, method, location: nodeLocation(src, fn) } : undefined;
}

/**
 * The API calls and method helpers of one file.
 * @example clientCallFacts(parseSource('a.ts', "await fetch(`${base}/api/orders/${id}`, { method: 'PUT' })")).calls
 *   // [{ path: '/api/orders/:p', method: 'PUT', callee: 'fetch', location: 'a.ts:1' }]
 */
export function clientCallFacts(src: ParsedSource): ClientFacts {
  const calls: ClientCall[] = [];
  const helpers: MethodHelper[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node)) {
      const helper = helperOf(src, node);
      if (helper) helpers.push(helper);
    }
    if (ts.isCallExpression(node)) {
      const url = urlArgument(node);
      const path = url ? apiPath(urlText(url) ?? '') : undefined;
      // A function argument makes it a server's route (`app.post('/api/x', handler)`), not a call.
      if (path && !node.arguments.some((arg) => isFunctionLike(unwrap(arg)))) {
        const method = statedMethod(node);
        calls.push({ path, callee: chainText(node.expression), location: nodeLocation(src, node), ...(method ? { method } : {}) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return { calls, helpers };
}

/**
 * Parses one file and reads its API calls and method helpers.
 * @example scanClientCalls('src/api.ts', text).helpers // [{ name: 'fetchPutJSON', method: 'PUT', … }]
 */
export function scanClientCalls(relPath: string, text: string): ClientFacts {
  return clientCallFacts(parseSource(relPath, text));
}
