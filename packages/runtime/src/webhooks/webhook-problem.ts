/**
 * problem+json answers of the webhook endpoint, in the same shape as the HTTP adapters'
 * (adapters/http/problem.ts). Codes the HTTP table lacks are kept here until they join it.
 */
import type { HttpResponse } from '../adapters/http/http-response.js';
import { PROBLEMS, problemResponse, retryAfterSeconds, type ProblemCode } from '../adapters/http/problem.js';

/** Situations only a webhook endpoint has. */
export type WebhookOnlyProblemCode = 'invalid_signature' | 'invalid_payload' | 'verification_unavailable' | 'handler_failed';
export type WebhookProblemCode = ProblemCode | WebhookOnlyProblemCode;

export const WEBHOOK_PROBLEMS: Readonly<Record<WebhookOnlyProblemCode, { status: number; title: string }>> = {
  invalid_signature: { status: 400, title: 'The webhook signature is missing or does not verify.' },
  invalid_payload: { status: 400, title: 'The webhook payload is not a readable event.' },
  verification_unavailable: { status: 503, title: 'The webhook signature could not be checked now; nothing was processed.' },
  // A 5xx on purpose: the provider redelivers, and the released key lets the retry run.
  handler_failed: { status: 500, title: 'The webhook handler failed; the event was not processed and may be redelivered.' },
};

const utf8 = new TextEncoder();

/**
 * The problem response for a refused or failed delivery.
 * @example webhookProblem('invalid_signature', 'urn:idempotency-builder:problem:').status // 400
 */
export function webhookProblem(code: WebhookProblemCode, typeBase: string, retryAfterMs?: number): HttpResponse {
  if (code in PROBLEMS) return problemResponse({ code: code as ProblemCode, profile: 'spec', typeBase, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  // A code neither table knows (a newer core code) still answers with a problem, never a throw.
  const { status, title } = WEBHOOK_PROBLEMS[code as WebhookOnlyProblemCode] ?? WEBHOOK_PROBLEMS.handler_failed;
  const headers: Record<string, string> = { 'content-type': 'application/problem+json', 'cache-control': 'no-store' };
  if (retryAfterMs !== undefined) headers['retry-after'] = retryAfterSeconds(retryAfterMs);
  return { status, headers, body: utf8.encode(JSON.stringify({ type: `${typeBase}${code}`, title, status, code })) };
}
