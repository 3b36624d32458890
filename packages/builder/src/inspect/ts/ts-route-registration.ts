/**
 * A route's registration as the code writes it, for frameworks whose idempotency middleware is
 * wired per route (Koa): the generated code shows each route's own call with the middleware in
 * place, right before the handler — after the body parser and auth middleware the route already has.
 * Also the idempotency middleware a route already carries, as existing protection.
 */
import ts from 'typescript';
import { RUNTIME_PROTECTION } from '../cost.js';
import { MIDDLEWARE_PROTECTION } from '../existing-assessment.js';
import type { EndpointFinding } from '../types.js';
import { chainText, isFunctionLike, nodeLocation, unwrap, type ParsedSource } from './ts-source.js';

/** Longer arguments are cut: the line is a pointer into the file, whose `path:line` goes with it. */
const MAX_ARGUMENT = 60;

/** One argument as one line: an inline function shows its head only. */
function argumentText(src: ParsedSource, arg: ts.Expression): string {
  const inner = unwrap(arg);
  const text = isFunctionLike(inner) && inner.body
    ? `${src.sf.text.slice(arg.getStart(src.sf), inner.body.getStart(src.sf)).replace(/\s+/g, ' ').trim()} { … }`
    : arg.getText(src.sf).replace(/\s+/g, ' ').trim();
  return text.length > MAX_ARGUMENT ? `${text.slice(0, MAX_ARGUMENT - 1)}…` : text;
}

/**
 * The call split where the middleware goes, right before the handler: `router.post('/x', auth, `
 * and `handler)`. A route chained on another (`.get(…).post(…)`) is shown from its own verb.
 * @example routeRegistration(src, call) // { before: "router.post('/users', auth, ", after: 'users.create)' }
 */
export function routeRegistration(src: ParsedSource, call: ts.CallExpression): NonNullable<EndpointFinding['registration']> | undefined {
  const callee = call.expression;
  const handler = call.arguments[call.arguments.length - 1];
  if (!ts.isPropertyAccessExpression(callee) || !handler) return undefined;
  const receiver = unwrap(callee.expression);
  const on = ts.isCallExpression(receiver) ? '' : receiver.getText(src.sf).replace(/\s+/g, '');
  const leading = call.arguments.slice(0, -1).map((arg) => `${argumentText(src, arg)}, `).join('');
  return { before: `${on}.${callee.name.text}(${leading}`, after: `${argumentText(src, handler)})` };
}

const IDEMPOTENCY_NAME = /idempoten/i;

/**
 * Idempotency middleware already on the route (`router.post('/x', idempotent.createX, h)`), as
 * the protection note the cost assessment writes, marked as middleware; the runtime's own when the
 * file imports it.
 * @example middlewareProtection(src, [auth, idempotent]) // 'middleware idempotent (src/routes.ts:9)'
 */
export function middlewareProtection(src: ParsedSource, middleware: readonly ts.Expression[]): string | undefined {
  const found = middleware.find((arg) => IDEMPOTENCY_NAME.test(chainText(unwrap(arg))));
  if (!found) return undefined;
  const own = [...src.modules].some((m) => m.startsWith(RUNTIME_PROTECTION));
  return `${own ? RUNTIME_PROTECTION : `${MIDDLEWARE_PROTECTION}${chainText(unwrap(found))}`} (${nodeLocation(src, found)})`;
}
