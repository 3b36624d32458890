/**
 * Express (5 and 4) middleware. It holds the handler's writes, stores the finished response, then
 * sends it; replays and problems are answered without calling the handler. Mount it per route,
 * after the body parser: `app.post('/payments', express.json(), idempotencyMiddleware(opts), handler)`.
 * A body no parser read (text, a `+json` type, no Content-Type) is read and fingerprinted here.
 */
import { createHttpIdempotency } from '../http/http-idempotency.js';
import { REPLAYED_HEADER } from '../http/http-response.js';
import { captureNodeResponse, writeNodeResponse, type NodeResponseCapture, type NodeResponseLike } from '../http/node-response-capture.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { resolveMaxRequestBytes, type RequestBodyOptions } from '../http/request-body.js';
import { asRequestBodyError, requestBodyProblem } from '../http/request-errors.js';
import { nodeRequestView, PASSTHROUGH_METHODS, type NodeRequestLike } from '../http/request-view.js';
import type { ActionContext } from '../../core/engine.js';
import { lazyDisconnectSignal } from '../http/disconnect-signal.js';

/** What is used of an Express request (structural: Express 4 and 5 both fit). */
export type ExpressRequestLike = NodeRequestLike;
/** What is used of an Express response. */
/**
 * What is used of an Express response: the capture's surface, plus `locals` (where the held key's
 * context is put for the route handler) and the `close` event (a client that went away).
 */
export interface ExpressResponseLike extends NodeResponseLike {
  locals?: Record<string, unknown>;
  readonly writableFinished?: boolean;
  once?(event: 'close', listener: () => void): unknown;
}
export type ExpressNext = (error?: unknown) => void;

export type ExpressIdempotencyOptions<Req extends ExpressRequestLike = ExpressRequestLike> = HttpIdempotencyOptions<Req> & RequestBodyOptions;

/**
 * Creates the middleware; options are validated now, so a route without a scope resolver fails
 * at startup, not on its first request.
 * @example
 * import express from 'express';
 * import { idempotencyMiddleware } from '@idempotency-builder/runtime/express';
 * const idempotent = idempotencyMiddleware({ idempotency, scope: (req) => req.headers['x-user-id'] as string });
 * app.post('/payments', express.json(), idempotent, createPayment);
 */
export function idempotencyMiddleware<Req extends ExpressRequestLike = ExpressRequestLike>(
  options: ExpressIdempotencyOptions<Req>,
): (req: Req, res: ExpressResponseLike, next: ExpressNext) => void {
  const http = createHttpIdempotency(options);
  const { maxBodyBytes } = http.options;
  const maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);

  return function idempotency(req, res, next) {
    // Nothing a client sends may look like the server's replay marker, downstream included.
    delete req.headers[REPLAYED_HEADER];
    if (PASSTHROUGH_METHODS.has((req.method ?? 'GET').toUpperCase())) {
      next();
      return;
    }
    let capture: NodeResponseCapture | undefined;
    // A client that goes away before the response is finished reaches the handler as an abort of
    // its signal (res.locals.idempotency.signal): a notice, the handler decides whether to stop.
    const disconnect = lazyDisconnectSignal(res, 'The client closed the connection.');
    const execute = (context: ActionContext) => {
      if (res.locals) res.locals.idempotency = context;
      capture = captureNodeResponse(res, maxBodyBytes);
      // Express 5 routes a handler's rejection to the error handler, which writes a 5xx into the
      // capture; that releases the key. (Express 4 cannot see async rejections: catch them.)
      next();
      return capture.response;
    };
    http.handle(req, nodeRequestView(req, { maxRequestBytes }), execute, { signal: disconnect }).then(
      (outcome) => {
        if (outcome.kind === 'pass') next();
        else if (outcome.kind === 'respond') writeNodeResponse(res, outcome.response);
        else capture?.flush();
      },
      (error: unknown) => {
        const bodyError = asRequestBodyError(error);
        if (capture) capture.flush(); // the handler already answered; let its answer out
        else if (bodyError) writeNodeResponse(res, requestBodyProblem(bodyError, http.options)); // nothing was claimed
        else next(error);
      },
    );
  };
}
