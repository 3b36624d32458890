/**
 * Hono middleware, on any runtime Hono runs on. The request body is read for the fingerprint up
 * to `maxRequestBytes` (413 past it); the handler's Response is read (up to `maxBodyBytes`),
 * stored, and sent rebuilt from the same bytes; replays and problems are returned without calling
 * the handler.
 */
import { captureFetchResponse, toFetchResponse } from '../http/fetch-exchange.js';
import { createHttpIdempotency } from '../http/http-idempotency.js';
import { REPLAYED_HEADER } from '../http/http-response.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { resolveMaxRequestBytes, type RequestBodyOptions } from '../http/request-body.js';
import { asRequestBodyError, requestBodyProblem } from '../http/request-errors.js';
import { PASSTHROUGH_METHODS } from '../http/request-view.js';
import { honoRequestView, type HonoRequestLike } from './hono-request-view.js';

/** What is used of a Hono Context (structural: no import of hono). */
export interface HonoContextLike {
  readonly req: HonoRequestLike;
  /** The runtime's bindings; on @hono/node-server, `{ incoming, outgoing }` (Node's request and response). */
  readonly env?: unknown;
  get res(): Response;
  set res(response: Response | undefined);
}

export type HonoIdempotencyOptions<C extends HonoContextLike = HonoContextLike> = HttpIdempotencyOptions<C> & RequestBodyOptions;

/**
 * Creates the middleware; options are validated now.
 * @example
 * import { Hono, type Context } from 'hono';
 * import { idempotency } from '@idempotency-builder/runtime/hono';
 * type AppEnv = { Variables: { userId: string } }; // set by your auth middleware
 * const app = new Hono<AppEnv>();
 * app.post('/payments', idempotency({ idempotency: engine, scope: (c: Context<AppEnv>) => c.get('userId') }), async (c) => c.json(await pay(await c.req.json()), 201));
 */
export function idempotency<C extends HonoContextLike = HonoContextLike>(
  options: HonoIdempotencyOptions<C>,
): (c: C, next: () => Promise<void>) => Promise<Response | void> {
  const http = createHttpIdempotency(options);
  const { maxBodyBytes } = http.options;
  const maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);

  return async function idempotencyMiddleware(c, next) {
    const request = c.req.raw;
    if (PASSTHROUGH_METHODS.has(request.method.toUpperCase())) return next();
    try {
      request.headers.delete(REPLAYED_HEADER); // a spoofed marker never reaches the handler
    } catch {
      // Immutable request headers (some runtimes): the response side is what matters, and there
      // the marker is only ever set on replays.
    }
    let send: Response | undefined;
    let ran = false;
    // Read only if the handler reads its signal: on @hono/node-server the getter makes an
    // AbortController per request.
    const signal = () => request.signal;
    const view = honoRequestView(c.req, maxRequestBytes, c.env);
    const outcome = await http
      .handle(c, view, async () => {
        ran = true;
        view.beforeHandler();
        await next(); // Hono turns a handler error into c.res (its onError answer, 500 by default)
        const capture = await captureFetchResponse(c.res, maxBodyBytes);
        send = capture.send;
        return capture.captured;
      }, { signal })
      .catch((error: unknown) => {
        const bodyError = ran ? null : asRequestBodyError(error);
        if (bodyError === null) throw error;
        return { kind: 'respond', response: requestBodyProblem(bodyError, http.options) } as const; // nothing was claimed
      });
    if (outcome.kind === 'pass') {
      view.beforeHandler(); // the body may have been read (a key in the body, fail-open)
      return next();
    }
    if (outcome.kind === 'respond') return toFetchResponse(outcome.response);
    if (send) {
      // Hono's setter merges the old response's headers into the new one; clear it first so the
      // rebuilt response goes out exactly as captured.
      c.res = undefined;
      c.res = send;
    }
  };
}
