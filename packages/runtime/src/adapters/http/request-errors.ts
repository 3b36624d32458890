/**
 * Typed refusals of a request body the fingerprint cannot read: bad or unhashable JSON (400), an
 * unsupported content type (415), a body over `maxRequestBytes` (413). They are raised while the
 * fingerprint is computed, before anything is claimed, and answered with problem+json.
 */
import { IdempotencyError } from '../../core/errors.js';
import { UnhashableInputError } from '../../core/fingerprint.js';
import type { HttpResponse } from './http-response.js';
import { problemResponse, type HttpProfile } from './problem.js';

export type RequestBodyErrorCode = 'invalid_body' | 'unsupported_media_type' | 'body_too_large';

/**
 * The body cannot be part of a fingerprint. The message is fixed per code and never quotes the body.
 * @example throw new RequestBodyError('body_too_large');
 */
export class RequestBodyError extends IdempotencyError {
  /** The problem code the HTTP layer answers with. */
  readonly problem: RequestBodyErrorCode;
  /** 400, 413 or 415: a framework's own error handler that reaches it answers a 4xx, never a 500. */
  readonly statusCode: number;

  constructor(problem: RequestBodyErrorCode, options?: { cause?: unknown }) {
    super(problem, MESSAGES[problem], options);
    this.problem = problem;
    this.statusCode = STATUSES[problem];
  }
}

const STATUSES: Readonly<Record<RequestBodyErrorCode, number>> = { invalid_body: 400, unsupported_media_type: 415, body_too_large: 413 };

const MESSAGES: Readonly<Record<RequestBodyErrorCode, string>> = {
  invalid_body: 'The request body is not JSON the fingerprint can hash.',
  unsupported_media_type: 'The request body has a content type the fingerprint cannot read deterministically.',
  body_too_large: 'The request body is larger than the idempotency middleware accepts.',
};

/**
 * The typed body error behind `error`, if it is one: a `RequestBodyError`, or the core's
 * `UnhashableInputError` (a 400).
 * @example const bodyError = asRequestBodyError(error); if (bodyError) return problemFor(bodyError, options);
 */
export function asRequestBodyError(error: unknown): RequestBodyError | null {
  if (error instanceof RequestBodyError) return error;
  if (error instanceof UnhashableInputError) return new RequestBodyError('invalid_body', { cause: error });
  return null;
}

/**
 * The problem+json answer for a body refusal.
 * @example writeNodeResponse(res, requestBodyProblem(error, http.options));
 */
export function requestBodyProblem(error: RequestBodyError, options: { readonly profile: HttpProfile; readonly problemTypeBase: string }): HttpResponse {
  const problem = problemResponse({ code: error.problem, profile: options.profile, typeBase: options.problemTypeBase });
  if (error.problem !== 'body_too_large') return problem;
  // The rest of that body is never read: close the connection (RFC 9110 §15.5.14) rather than
  // leave a half-read request on a socket that a keep-alive client would reuse.
  return { ...problem, headers: { ...problem.headers, connection: 'close' } };
}
