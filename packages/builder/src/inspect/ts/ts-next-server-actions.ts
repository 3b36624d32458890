/**
 * Next.js server actions (`'use server'`): entry points with no route of their own. Next serves
 * every action as a POST to whichever page renders it, told apart by a `Next-Action` header the
 * framework writes, so an action is reported as `POST /*` (any page's URL) with its name in
 * `serverAction` — the name is its identity, as a GraphQL operation's is — with what it reads (FormData fields, argument names or
 * the declared type of an object argument) and where it reads the signed-in user.
 */
import ts from 'typescript';
import type { EndpointFinding } from '../types.js';
import { schemaKeys } from './ts-body-fields.js';
import { declarationOf, functionOf } from './ts-declarations.js';
import { endpointFinding } from './ts-routes.js';
import { isFunctionLike, literalText, nodeLocation, unwrap, type FunctionLike, type ParsedSource } from './ts-source.js';

/** The route a server action is reported under: Next posts it to the URL of whichever page renders it. */
export const SERVER_ACTION_ROUTE = '/*';

/** Calls that read the signed-in principal: Auth.js v5, NextAuth v4, Supabase, Clerk, Lucia-style helpers. */
const PRINCIPAL_CALL = /\b(?:auth|getServerSession|currentUser|getUser|getSession|validateRequest)\s*\(/;

/** True when the statements open with the `'use server'` directive (a prologue: only string statements before it). */
function hasUseServer(statements: ts.NodeArray<ts.Statement> | readonly ts.Statement[]): boolean {
  for (const statement of statements) {
    if (!ts.isExpressionStatement(statement) || !ts.isStringLiteral(statement.expression)) return false;
    if (statement.expression.text === 'use server') return true;
  }
  return false;
}

const isAsync = (fn: FunctionLike): boolean => (ts.getModifiers(fn) ?? []).some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
const exported = (node: ts.Node): boolean => (ts.canHaveModifiers(node) ? ts.getModifiers(node) ?? [] : []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** `formData.get('x')`, `getAll('x')`, `has('x')` on the FormData parameter, and `Object.fromEntries(formData)` keys read later. */
function formFields(fn: FunctionLike, formName: string): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && /^(get|getAll)$/.test(node.expression.name.text)) {
      const receiver = unwrap(node.expression.expression);
      const name = literalText(node.arguments[0]);
      if (name && ts.isIdentifier(receiver) && receiver.text === formName) out.push(name);
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return [...new Set(out)];
}

/** The parameter that carries the form: typed `FormData`, or named `formData` (the useActionState `(prev, formData)` pair). */
function formParameter(fn: FunctionLike): string | undefined {
  for (const p of fn.parameters) {
    if (!ts.isIdentifier(p.name)) continue;
    if (p.type && ts.isTypeReferenceNode(p.type) && p.type.typeName.getText() === 'FormData') return p.name.text;
    if (!p.type && /^formData$/i.test(p.name.text)) return p.name.text;
  }
  return undefined;
}

/** Parameters besides the form that the caller binds (`id` in `(id, prevState, formData)`), not the previous state. */
function boundArguments(fn: FunctionLike, formName: string): string[] {
  return fn.parameters.flatMap((p) => (ts.isIdentifier(p.name) && p.name.text !== formName && !/^(_|prev|previous|initial|state$)/i.test(p.name.text) ? [p.name.text] : []));
}

/** A wrapper's schema argument (`validatedAction(signInSchema, async (data) => …)`): its zod/yup keys. */
function wrapperSchemaFields(src: ParsedSource, init: ts.Expression | undefined): string[] {
  if (!init) return [];
  const call = unwrap(init);
  if (!ts.isCallExpression(call)) return [];
  for (const arg of call.arguments) {
    const inner = unwrap(arg);
    const schema = ts.isIdentifier(inner) ? declarationOf(src, inner.text)?.init : inner;
    const keys = schema ? schemaKeys(unwrap(schema)) : [];
    if (keys.length > 0) return keys;
  }
  return [];
}

/** What the action reads: FormData fields, an object argument's declared type, or its arguments' names. */
function inputOf(src: ParsedSource, fn: FunctionLike, init: ts.Expression | undefined): { fields: string[]; bodyType?: string; input: 'form' | 'arguments' } {
  const schema = wrapperSchemaFields(src, init);
  const form = formParameter(fn);
  // A wrapper (`validatedAction(schema, fn)`, `withTeam(fn)`) calls the function itself: its
  // parameters are what the wrapper passes, not what the client sends — only its schema and form reads are.
  const wrapped = init !== undefined && ts.isCallExpression(unwrap(init));
  if (wrapped) return { fields: schema.length > 0 ? schema : form ? formFields(fn, form) : [], input: form || schema.length > 0 ? 'form' : 'arguments' };
  if (schema.length > 0) return { fields: schema, input: form ? 'form' : 'arguments' };
  // Arguments bound before the form (\`updateInvoice.bind(null, id)\`) are part of the intent; the
  // useActionState previous state is not.
  if (form) return { fields: [...boundArguments(fn, form), ...formFields(fn, form)], input: 'form' };
  // One destructured object argument (`async ({ bookingId, reason }: CancelInput)`): the names it takes.
  const single = fn.parameters.length === 1 ? fn.parameters[0] : undefined;
  if (single && ts.isObjectBindingPattern(single.name)) {
    return { fields: single.name.elements.flatMap((e) => { const n = e.propertyName ?? e.name; return ts.isIdentifier(n) || ts.isStringLiteral(n) ? [n.text] : []; }), input: 'arguments' };
  }
  const params = fn.parameters.filter((p) => ts.isIdentifier(p.name));
  const only = params.length === 1 ? params[0] : undefined;
  // One argument of a named object type: its fields, resolved from the declared shape like a DTO.
  if (only?.type && ts.isTypeReferenceNode(only.type)) return { fields: [], bodyType: only.type.typeName.getText(src.sf), input: 'arguments' };
  if (only?.type && ts.isTypeLiteralNode(only.type)) {
    return { fields: only.type.members.flatMap((m) => (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name)) ? [m.name.text] : [])), input: 'arguments' };
  }
  // Positional arguments (`checkout(price: Price, redirectPath: string)`): each is a significant value.
  return { fields: params.map((p) => (p.name as ts.Identifier).text), input: 'arguments' };
}

/** The first principal read in the action (or its wrapper's call), as written: `auth()`, `supabase.auth.getUser()`. */
function principalOf(src: ParsedSource, fn: FunctionLike): string | undefined {
  let found: string | undefined;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && PRINCIPAL_CALL.test(`${node.expression.getText(src.sf)}(`)) {
      const text = node.expression.getText(src.sf).replace(/\s+/g, '');
      if (/(^|\.)(auth|getServerSession|currentUser|getUser|getSession|validateRequest)$/.test(text)) found = `${text}()`;
    }
    ts.forEachChild(node, visit);
  };
  if (fn.body) visit(fn.body);
  return found;
}

function finding(src: ParsedSource, name: string, fn: FunctionLike, at: ts.Node, init?: ts.Expression): EndpointFinding {
  const base = endpointFinding(src, { method: 'POST', route: SERVER_ACTION_ROUTE, framework: 'nextjs', at, handler: fn, name });
  const { fields, bodyType, input } = inputOf(src, fn, init);
  const principal = principalOf(src, fn);
  return {
    ...base,
    bodyFields: fields,
    ...(bodyType ? { bodyType } : {}),
    // A server action is reached by its id, never by a path: no webhook by route name.
    webhook: false,
    serverAction: { name, input, ...(principal ? { principal } : {}) },
  };
}

/** An app-router route file: its `GET`/`POST`/… exports are route handlers (reported as routes), even under `'use server'`. */
const ROUTE_FILE = /(?:^|\/)app\/(?:[^/]+\/)*route\.[cm]?[jt]sx?$/;
const ROUTE_HANDLER = /^(?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)$/;

/** Exported async functions of a `'use server'` module, declared or as `export const x = async …`/a wrapper of one. */
function moduleActions(src: ParsedSource): EndpointFinding[] {
  const out: EndpointFinding[] = [];
  const routeFile = ROUTE_FILE.test(src.relPath);
  for (const statement of src.sf.statements) {
    if (!exported(statement)) continue;
    if (routeFile && ts.isFunctionDeclaration(statement) && ROUTE_HANDLER.test(statement.name?.text ?? '')) continue;
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body && isAsync(statement)) {
      out.push(finding(src, statement.name.text, statement, statement.name));
    }
    if (ts.isVariableStatement(statement)) {
      for (const decl of statement.declarationList.declarations) {
        if (!ts.isIdentifier(decl.name) || !decl.initializer || (routeFile && ROUTE_HANDLER.test(decl.name.text))) continue;
        const fn = functionOf(src, decl.initializer);
        // Only async functions can be actions; Next refuses the module otherwise.
        if (fn && isAsync(fn)) out.push(finding(src, decl.name.text, fn, decl.name, decl.initializer));
      }
    }
  }
  return out;
}

/** Functions whose own body opens with `'use server'` (inline actions inside a server component). */
function inlineActions(src: ParsedSource): EndpointFinding[] {
  const out: EndpointFinding[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunctionLike(node) && node.body && ts.isBlock(node.body) && hasUseServer(node.body.statements)) {
      const name = ts.isFunctionDeclaration(node) && node.name ? node.name.text
        : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : undefined;
      // An unnamed inline action (`action={async () => { 'use server' … }}`) is named by its line.
      out.push(finding(src, name ?? `action${nodeLocation(src, node).replace(/^.*:/, 'L')}`, node, node));
    }
    ts.forEachChild(node, visit);
  };
  visit(src.sf);
  return out;
}

/**
 * The server actions a file declares.
 * @example nextServerActions(parseSource('app/actions.ts', "'use server'\nexport async function pay(formData: FormData) { formData.get('amount') }"))
 *   // [{ method: 'POST', route: '/*', bodyFields: ['amount'], serverAction: { name: 'pay', input: 'form' }, … }]
 */
export function nextServerActions(src: ParsedSource): EndpointFinding[] {
  if (!src.sf.text.includes('use server')) return [];
  return hasUseServer(src.sf.statements) ? moduleActions(src) : inlineActions(src);
}
