/**
 * Koa (3 and 2) middleware. Mount it per route, after the body parser:
 * `router.post('/payments', bodyParser(), idempotencyMiddleware(opts), createPayment)`. Replays and
 * problems are answered on `ctx` without calling the handler; after `await next()` the handler's
 * answer is read from `ctx`, stored, and left for Koa to send. A handler that throws gives the key
 * back (or records a permanent failure) and the error goes on to the app's error handling.
 */
import type { ActionContext } from '../../core/engine.js';
import { lazyDisconnectSignal } from '../http/disconnect-signal.js';
import { createHttpIdempotency, type HttpBegin, type HttpHeld } from '../http/http-idempotency.js';
import { REPLAYED_HEADER } from '../http/http-response.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { resolveMaxRequestBytes, type RequestBodyOptions } from '../http/request-body.js';
import { asRequestBodyError, requestBodyProblem } from '../http/request-errors.js';
import { nodeRequestView, PASSTHROUGH_METHODS, type HttpRequestView } from '../http/request-view.js';
import { captureKoaResponse, sendOnKoa, type KoaNodeResponseLike, type KoaResponseContextLike } from './koa-response.js';

/** What is used of Koa's `ctx.req` (Node's `IncomingMessage`). */
export interface KoaNodeRequestLike {
  readonly headers: Record<string, string | string[] | undefined>;
  readonly httpVersionMajor?: number;
  /** False while nobody (no body parser) has read the body stream. */
  readonly readableEnded?: boolean;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

/** What is used of a Koa context (structural: no import of koa; Koa 2 and 3 both fit). */
export interface KoaContextLike extends KoaResponseContextLike {
  readonly method: string;
  /** The URL as received, before any mount or rewrite: its path and query are fingerprinted. */
  readonly originalUrl: string;
  readonly req: KoaNodeRequestLike;
  readonly res: KoaNodeResponseLike;
  /** `ctx.request`; its `body` is what a body parser (@koa/bodyparser, koa-bodyparser) left there. */
  readonly request: object;
  /**
   * Koa's per-request state, where the held key's context is put (`ctx.state.idempotency`).
   * Typed as Koa types it (its `DefaultState` is `any`), so `(ctx) => ctx.state.user?.id` reads
   * what the app's auth middleware put there without a cast.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- mirrors Koa's own DefaultState
  state: any;
}

/** What this middleware puts on `ctx.state`, for apps that type their state. */
export interface KoaIdempotencyState {
  /** The held key's context on a protected request: `signal`, `lockVersion`, `reclaimed`. */
  idempotency?: ActionContext;
}

export type KoaNext = () => Promise<unknown>;

export type KoaIdempotencyOptions<Ctx extends KoaContextLike = KoaContextLike> = HttpIdempotencyOptions<Ctx> & RequestBodyOptions;

/**
 * Koa's request as the shared Node view reads it: Node's request (`ctx.req`) for headers and the
 * body stream, with `body` on `ctx.request`, where Koa's body parsers put it (and where a body the
 * view reads is left for the handler). A class, not an object literal with accessors: one is made
 * per request, and a literal's accessors cost a new object shape each time.
 */
class KoaNodeRequest {
  readonly #ctx: KoaContextLike;

  constructor(ctx: KoaContextLike) {
    this.#ctx = ctx;
  }

  get method(): string {
    return this.#ctx.method;
  }

  get originalUrl(): string {
    return this.#ctx.originalUrl;
  }

  get headers(): KoaNodeRequestLike['headers'] {
    return this.#ctx.req.headers;
  }

  get readableEnded(): boolean | undefined {
    return this.#ctx.req.readableEnded;
  }

  get body(): unknown {
    return (this.#ctx.request as { body?: unknown }).body;
  }

  set body(value: unknown) {
    (this.#ctx.request as { body?: unknown }).body = value;
  }

  [Symbol.asyncIterator](): AsyncIterator<unknown> {
    return this.#ctx.req[Symbol.asyncIterator]();
  }
}

/**
 * The request as the HTTP layer reads it: the body a parser left on `ctx.request.body`, or else the
 * raw body read from `ctx.req` (up to `maxRequestBytes`) and left parsed on `ctx.request.body`,
 * as a body parser would — the shared Node view does the reading.
 */
function koaRequestView(ctx: KoaContextLike, maxRequestBytes: number): HttpRequestView {
  return nodeRequestView(new KoaNodeRequest(ctx), { maxRequestBytes });
}

/** A response Koa does not send (`ctx.respond = false`) cannot be recorded: its key is given back once it ends. */
function releaseWhenSent(res: KoaNodeResponseLike, held: HttpHeld): void {
  const release = () => void held.abandon(new Error('The response bypassed Koa (ctx.respond = false) and was not recorded; the key is released.'));
  if (res.writableFinished === true || res.destroyed === true || typeof res.once !== 'function') release();
  else res.once('close', release);
}

/**
 * Creates the middleware; options are validated now, so a route without a scope resolver fails
 * at startup, not on its first request.
 * @example
 * import Router from '@koa/router';
 * import { bodyParser } from '@koa/bodyparser';
 * import { idempotencyMiddleware } from '@idempotency-builder/runtime/koa';
 * const idempotent = idempotencyMiddleware({ idempotency, scope: (ctx) => ctx.state.user?.id });
 * router.post('/payments', bodyParser(), idempotent, createPayment); // ctx.state.idempotency in the handler
 */
export function idempotencyMiddleware<Ctx extends KoaContextLike = KoaContextLike>(
  options: KoaIdempotencyOptions<Ctx>,
): (ctx: Ctx, next: KoaNext) => Promise<void> {
  const http = createHttpIdempotency(options);
  const { maxBodyBytes } = http.options;
  const maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);

  return async function idempotency(ctx, next) {
    // Nothing a client sends may look like the server's replay marker, downstream included.
    delete ctx.req.headers[REPLAYED_HEADER];
    if (PASSTHROUGH_METHODS.has(ctx.method.toUpperCase())) {
      await next();
      return;
    }
    // A client that goes away reaches the handler as an abort of ctx.state.idempotency.signal:
    // a notice, the handler decides whether to stop.
    const disconnect = lazyDisconnectSignal(ctx.res, 'The client closed the connection.');
    let begun: HttpBegin;
    try {
      begun = await http.begin(ctx, koaRequestView(ctx, maxRequestBytes), { signal: disconnect });
    } catch (error) {
      const bodyError = asRequestBodyError(error);
      if (bodyError === null) throw error;
      sendOnKoa(ctx, requestBodyProblem(bodyError, http.options)); // nothing was claimed
      return;
    }
    if (begun.kind === 'pass') {
      await next();
      return;
    }
    if (begun.kind === 'respond') {
      sendOnKoa(ctx, begun.response); // a replay or a problem; the handler does not run
      return;
    }

    ctx.state.idempotency = begun.context;
    let response;
    try {
      await next();
      // Only the replay path may set the marker; a handler echoing it must not fake a replay.
      ctx.remove(REPLAYED_HEADER);
      response = await captureKoaResponse(ctx, maxBodyBytes);
    } catch (error) {
      // The handler's own error (ctx.throw included): the key is given back before the app's
      // error handling answers, so the client's retry finds it free.
      await begun.abandon(error);
      throw error;
    }
    if (response === null) releaseWhenSent(ctx.res, begun);
    else await begun.finish(response); // stored before Koa sends it; never throws
  };
}
