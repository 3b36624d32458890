/**
 * problem+json answers of the webhook endpoint: the HTTP adapters' one problem table
 * (adapters/http/problem.ts), which also holds the codes only a webhook endpoint has.
 */
import type { HttpResponse } from '../adapters/http/http-response.js';
import { PROBLEMS, problemResponse, type ProblemCode } from '../adapters/http/problem.js';

export type WebhookProblemCode = ProblemCode;

/**
 * The problem response for a refused or failed delivery.
 * @example webhookProblem('invalid_signature', 'urn:idempotency-builder:problem:').status // 400
 */
export function webhookProblem(code: WebhookProblemCode, typeBase: string, retryAfterMs?: number): HttpResponse {
  // A code the table does not know (a newer core code) still answers with a problem, never a throw.
  const known: ProblemCode = code in PROBLEMS ? code : 'handler_failed';
  return problemResponse({ code: known, profile: 'spec', typeBase, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
}
