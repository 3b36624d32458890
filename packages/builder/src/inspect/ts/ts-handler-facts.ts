/**
 * What a handler function tells about its route, wherever the function is declared — in the
 * route's own file or in a controller module the route imports it from.
 */
import ts from 'typescript';
import type { EndpointFinding } from '../types.js';
import { bodyFieldsOf, validatedSchemaOf } from './ts-body-fields.js';
import { qualifiedBodyType } from './ts-shape-imports.js';
import { chainText, nodeEndLine, nodeLine, type FunctionLike, type ParsedSource } from './ts-source.js';

const WEBHOOK_CALLS = /(webhooks\.constructEvent(Async)?|validateHMAC|verifyWebhookSignature|verifyNotificationHMAC|timingSafeEqual|createHmac|webhooks?\.verify|Webhook\.verify|wh\.verify)$/;

/**
 * True when the function checks a provider's signature (a webhook's handler or middleware).
 * @example callsWebhookVerifier(fn) // true for a body calling stripe.webhooks.constructEvent(...)
 */
export function callsWebhookVerifier(fn: FunctionLike | undefined): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isCallExpression(node) && WEBHOOK_CALLS.test(chainText(node.expression))) found = true;
    ts.forEachChild(node, visit);
  };
  if (fn?.body) visit(fn.body);
  return found;
}

/**
 * The body fields a handler reads, the schema it validates the body with, whether it verifies a
 * signature, and its lines — with `file` when it is declared elsewhere than the route.
 * @example handlerFacts(src, fn).bodyFields // ['amount', 'currency']
 */
export function handlerFacts(src: ParsedSource, handler: FunctionLike, boundNames?: readonly string[], file?: string): {
  bodyFields: string[]; bodyType?: string; verifiesSignature: boolean; span: NonNullable<EndpointFinding['span']>;
} {
  // The schema as the handler's own file imports it (the handler may be in a controller module).
  const schema = validatedSchemaOf(handler);
  const bodyType = schema && qualifiedBodyType(src, schema);
  return {
    bodyFields: bodyFieldsOf(handler, boundNames),
    ...(bodyType ? { bodyType } : {}),
    verifiesSignature: callsWebhookVerifier(handler),
    span: { start: nodeLine(src, handler), end: nodeEndLine(src, handler), ...(file ? { file } : {}) },
  };
}
