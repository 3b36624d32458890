/** The HTTP contract every adapter keeps: problem types and statuses, replay headers, stored statuses. */
import { DEFAULT_REPLAY_HEADERS, FORBIDDEN_REPLAY_HEADERS, REPLAYED_HEADER } from '../adapters/http/http-response.js';
import { defaultStoreStatus } from '../adapters/http/options.js';
import type { IdempotencyError } from '../core/errors.js';
import { DEFAULT_PROBLEM_TYPE_BASE, PROBLEMS, problemResponse, problemStatus, refusalResponse, type HttpProfile, type ProblemCode } from '../adapters/http/problem.js';

export { DEFAULT_PROBLEM_TYPE_BASE, PROBLEMS, problemStatus, DEFAULT_REPLAY_HEADERS, FORBIDDEN_REPLAY_HEADERS, REPLAYED_HEADER, defaultStoreStatus, type HttpProfile, type ProblemCode };


/** Every problem code, in the table's order. */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/**
 * The statuses a handler's response is stored and replayed for by default (2xx, 3xx and the
 * deterministic 4xx); 5xx never is.
 */
export const DEFAULT_STORED_STATUSES: readonly number[] = Array.from({ length: 500 }, (_, i) => i + 100).filter(defaultStoreStatus);

/** The RFC 9457 body an adapter sends for a refusal. */
export interface ProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly code: ProblemCode;
}

/**
 * The problem+json answer the adapters send for `code`: status, headers and body, built by the
 * adapters' own `problemResponse` (so an example in a document is the real answer).
 * @example problemAnswer('in_progress', { retryAfterMs: 2000 }).headers['retry-after'] // '2'
 */
export function problemAnswer(
  code: ProblemCode,
  { profile = 'spec', typeBase = DEFAULT_PROBLEM_TYPE_BASE, retryAfterMs }: { profile?: HttpProfile; typeBase?: string; retryAfterMs?: number } = {},
): { status: number; headers: Readonly<Record<string, string>>; body: ProblemBody } {
  const response = problemResponse({ code, profile, typeBase, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  return { status: response.status, headers: response.headers, body: decodeBody(response.body) };
}

/**
 * The answer the adapters give for an engine refusal (the same rules as the HTTP layer's: a
 * Retry-After for in-progress, busy, unavailable and lost leases; a replayed failure keeps the
 * status the first attempt had). For code that calls the engine directly, e.g. a route whose key
 * is derived from the body, so that it answers exactly like the adapters.
 * @example
 * try { await engine.run(request, action); } catch (error) {
 *   if (error instanceof IdempotencyError) return problemForError(error);
 * }
 */
export function problemForError(
  error: IdempotencyError,
  { profile = 'spec', typeBase = DEFAULT_PROBLEM_TYPE_BASE }: { profile?: HttpProfile; typeBase?: string } = {},
): { status: number; headers: Readonly<Record<string, string>>; body: ProblemBody } {
  const response = refusalResponse(error, { profile, typeBase });
  return { status: response.status, headers: response.headers, body: decodeBody(response.body) };
}

const decodeBody = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as ProblemBody;
