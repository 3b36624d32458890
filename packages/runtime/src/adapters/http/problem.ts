/**
 * RFC 9457 problem details for every refusal: a stable `type` and `code` per situation, the status
 * from ARCHITECTURE.md's HTTP table, and a fixed text that never echoes the request.
 */
import type { IdempotencyErrorCode } from '../../core/errors.js';
import type { HttpResponse } from './http-response.js';

/** The core's codes plus the situations only HTTP knows. */
export type ProblemCode =
  | IdempotencyErrorCode
  | 'key_required'
  | 'unauthenticated'
  | 'rate_limited'
  | 'invalid_body'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'unhashable_input'
  | 'response_unreadable';

export type HttpProfile = 'spec' | 'ietf';

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
