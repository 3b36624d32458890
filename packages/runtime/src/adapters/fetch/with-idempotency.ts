/**
 * Wraps any `(Request) => Promise<Response>` handler: Next.js route handlers, Bun.serve, Deno.serve,
 * Cloudflare-style workers. Extra arguments (env, ctx) are passed through untouched.
 */
import { captureFetchResponse, fetchRequestView, toFetchResponse, withoutReplayMarker } from '../http/fetch-exchange.js';
import { createHttpIdempotency } from '../http/http-idempotency.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { resolveMaxRequestBytes, type RequestBodyOptions } from '../http/request-body.js';
import { asRequestBodyError, requestBodyProblem } from '../http/request-errors.js';
import { PASSTHROUGH_METHODS } from '../http/request-view.js';

export type FetchHandler<Rest extends unknown[]> = (request: Request, ...rest: Rest) => Response | Promise<Response>;
export type FetchIdempotencyOptions = HttpIdempotencyOptions<Request> & RequestBodyOptions;

/**
 * Returns the handler made idempotent; options are validated now.
 * @example
 * import { withIdempotency } from '@idempotency-builder/runtime/fetch';
 * export const POST = withIdempotency(async (request) => Response.json(await pay(await request.json()), { status: 201 }), {
 *   idempotency,
 *   scope: (request) => userIdFrom(request.headers.get('authorization')),
 * });
 */
export function withIdempotency<Rest extends unknown[]>(
  handler: FetchHandler<Rest>,
  options: FetchIdempotencyOptions,
): (request: Request, ...rest: Rest) => Promise<Response> {
  const http = createHttpIdempotency(options);
  const { maxBodyBytes } = http.options;
  const maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);

  return async function idempotentHandler(incoming, ...rest) {
    if (PASSTHROUGH_METHODS.has(incoming.method.toUpperCase())) return handler(incoming, ...rest);
    const request = withoutReplayMarker(incoming);
    let send: Response | undefined;
    let ran = false;
    const outcome = await http
      // request.signal aborts when the client goes away (fetch runtimes): passed on as a notice.
      .handle(request, fetchRequestView(request, { maxRequestBytes }), async () => {
        ran = true;
        const capture = await captureFetchResponse(await handler(request, ...rest), maxBodyBytes);
        send = capture.send;
        return capture.captured;
      }, { signal: request.signal })
      .catch((error: unknown) => {
        const bodyError = ran ? null : asRequestBodyError(error);
        if (bodyError === null) throw error;
        return { kind: 'respond', response: requestBodyProblem(bodyError, http.options) } as const; // nothing was claimed
      });
    if (outcome.kind === 'pass') return handler(request, ...rest);
    if (outcome.kind === 'respond') return toFetchResponse(outcome.response);
    return send!;
  };
}
