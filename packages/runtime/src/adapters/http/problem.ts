/**
 * RFC 9457 problem details for every refusal: a stable `type` and `code` per situation, the status
 * from ARCHITECTURE.md's HTTP table, and a fixed text that never echoes the request.
 */
import { InProgressError, ReplayedFailureError, StoreBusyError, type IdempotencyError, type IdempotencyErrorCode } from '../../core/errors.js';
import type { HttpResponse } from './http-response.js';

/** The core's codes plus the situations only HTTP knows. */
export type ProblemCode =
  | IdempotencyErrorCode
  | 'key_required'
  | 'unauthenticated'
  | 'rate_limited'
  | 'verification_unavailable'
  | 'handler_failed';

export type HttpProfile = 'spec' | 'ietf';

/** Prefix of every problem `type` unless a route sets `problemTypeBase`; the code is appended. */
export const DEFAULT_PROBLEM_TYPE_BASE = 'urn:idempotency-builder:problem:';

interface ProblemSpec {
  readonly status: number;
  readonly title: string;
}

/**
 * The one table of statuses and titles. Titles are fixed strings: a problem body carries no key,
 * no body field and no fingerprint, so it can be logged and shown anywhere.
 */
export const PROBLEMS: Readonly<Record<ProblemCode, ProblemSpec>> = {
  key_required: { status: 400, title: 'This request needs an idempotency key header.' },
  invalid_key: { status: 400, title: 'The idempotency key is malformed.' },
  invalid_scope: { status: 400, title: 'The request principal is not a valid idempotency scope.' },
  unauthenticated: { status: 401, title: 'An authenticated principal is required for an idempotent request.' },
  invalid_body: { status: 400, title: 'The request body is not JSON the fingerprint can hash.' },
  unsupported_media_type: { status: 415, title: 'The request body has a content type the fingerprint cannot read deterministically.' },
  unhashable_input: { status: 400, title: 'The request body is not JSON the fingerprint can hash.' },
  body_too_large: { status: 413, title: 'The request body is larger than the idempotency middleware accepts.' },
  invalid_options: { status: 500, title: 'The idempotency middleware is misconfigured.' },
  fingerprint_mismatch: { status: 409, title: 'This idempotency key was already used with different request parameters.' },
  in_progress: { status: 409, title: 'A request with this idempotency key is still being processed.' },
  key_not_found: { status: 404, title: 'No request with this idempotency key was found.' },
  expired_key_rejected: { status: 422, title: 'This idempotency key has expired and cannot be reused.' },
  rate_limited: { status: 429, title: 'Too many new idempotency keys; slow down.' },
  lease_lost: { status: 409, title: 'The request with this idempotency key was taken over by a newer attempt.' },
  response_unreadable: { status: 500, title: 'The stored response for this idempotency key cannot be read; it is not replayed.' },
  replayed_failure: { status: 500, title: 'The first request with this idempotency key failed permanently.' },
  store_unavailable: { status: 503, title: 'The idempotency store is unavailable; the request was not processed.' },
  store_busy: { status: 503, title: 'The idempotency store is busy; the request was not processed. Retry later.' },
  execution_timeout: { status: 503, title: 'The request did not finish within its time limit; nothing was recorded.' },
  result_not_serializable: { status: 500, title: 'The response could not be recorded for replay.' },
  invalid_signature: { status: 400, title: 'The webhook signature is missing or does not verify.' },
  invalid_payload: { status: 400, title: 'The webhook payload is not a readable event.' },
  verification_unavailable: { status: 503, title: 'The webhook signature could not be checked now; nothing was processed.' },
  // A 5xx on purpose: the provider redelivers, and the released key lets the retry run.
  handler_failed: { status: 500, title: 'The webhook handler failed; the event was not processed and may be redelivered.' },
};

/**
 * The IETF draft answers a reused key with other parameters with 422; the seed spec with 409.
 * @example problemStatus('fingerprint_mismatch', 'ietf') // 422
 */
export function problemStatus(code: ProblemCode, profile: HttpProfile): number {
  if (code === 'fingerprint_mismatch' && profile === 'ietf') return 422;
  return PROBLEMS[code].status;
}

export interface ProblemInput {
  readonly code: ProblemCode;
  readonly profile: HttpProfile;
  /** Prefix of the `type` URI; the code is appended. */
  readonly typeBase: string;
  /** Milliseconds until a retry may succeed; becomes `Retry-After` in whole seconds (at least 1). */
  readonly retryAfterMs?: number;
  /** Replaces the table status (a replayed failure keeps the status the first attempt had). */
  readonly status?: number;
}

const utf8 = new TextEncoder();

/**
 * Seconds for `Retry-After`: rounded up, never 0 (0 invites a hot retry loop).
 * @example retryAfterSeconds(1200) // '2'
 */
export function retryAfterSeconds(ms: number): string {
  return String(Math.max(1, Math.ceil(ms / 1000)));
}

/**
 * Builds the problem+json response for a refusal.
 * @example
 * problemResponse({ code: 'in_progress', profile: 'spec', typeBase: 'urn:idempotency-builder:problem:', retryAfterMs: 1200 })
 * // { status: 409, headers: { 'content-type': 'application/problem+json', 'retry-after': '2', … }, body }
 */
export function problemResponse({ code, profile, typeBase, retryAfterMs, status }: ProblemInput): HttpResponse {
  const finalStatus = status ?? problemStatus(code, profile);
  const body = { type: `${typeBase}${code}`, title: PROBLEMS[code].title, status: finalStatus, code };
  const headers: Record<string, string> = {
    'content-type': 'application/problem+json',
    // A refusal is about this moment (a lease, a rate window): no cache may keep it.
    'cache-control': 'no-store',
  };
  if (retryAfterMs !== undefined) headers['retry-after'] = retryAfterSeconds(retryAfterMs);
  return { status: finalStatus, headers, body: utf8.encode(JSON.stringify(body)) };
}

/**
 * The answer to an engine refusal, the one rule every adapter and the contract share: a
 * Retry-After for in-progress, busy, unavailable and lost leases; a replayed failure keeps the
 * status the first attempt had.
 * @example refusalResponse(new InProgressError(1500), { profile: 'spec', typeBase }).status // 409
 */
export function refusalResponse(error: IdempotencyError, { profile, typeBase }: { profile: HttpProfile; typeBase: string }): HttpResponse {
  const answer = (code: ProblemCode, extra: { retryAfterMs?: number; status?: number } = {}) => problemResponse({ code, profile, typeBase, ...extra });
  if (error instanceof InProgressError || error instanceof StoreBusyError) return answer(error.code, { retryAfterMs: error.retryAfterMs });
  if (error instanceof ReplayedFailureError) {
    const status = error.stored.statusCode;
    return answer('replayed_failure', status !== undefined && status >= 400 && status <= 599 ? { status } : {});
  }
  if (error.code === 'store_unavailable' || error.code === 'lease_lost') return answer(error.code, { retryAfterMs: 1000 });
  return answer(error.code);
}
