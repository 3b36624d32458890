/**
 * NestJS interceptor and `@Idempotent()` decorator. The interceptor captures what Nest writes to
 * the underlying Node response (the handler's value after serialization, or an exception filter's
 * answer), stores it, then lets it out; replays and problems go back through Nest's own reply
 * path (status and headers on the platform response, the body as a `StreamableFile`). Tested on
 * NestJS 10, 11 and 12, each on @nestjs/platform-express and @nestjs/platform-fastify.
 *
 * Nest runs pipes (ValidationPipe…) inside the interceptor. A request its pipes reject never
 * reached the handler, so its 400 is sent but never stored: the corrected retry with the same key
 * then runs (Stripe's rule: nothing is saved for a request that failed validation). Nest 12 marks
 * such a request; Nest 10 and 11 do not, so there a pipe's 400 is stored like the handler's own.
 */
import { UseInterceptors } from '@nestjs/common';
import { Observable, type Subscription } from 'rxjs';
import { createHttpIdempotency, type HttpIdempotency } from '../http/http-idempotency.js';
import { REPLAYED_HEADER } from '../http/http-response.js';
import { captureNodeResponse, type NodeResponseCapture, type NodeResponseLike } from '../http/node-response-capture.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { resolveMaxRequestBytes, type RequestBodyOptions } from '../http/request-body.js';
import { asRequestBodyError, requestBodyProblem } from '../http/request-errors.js';
import { nodeRequestView, PASSTHROUGH_METHODS, type NodeRequestLike } from '../http/request-view.js';
import { assertSupportedNestVersion, installedNestVersion } from './nest-version.js';
import { platformAnswer, type PlatformResponseLike } from './platform-answer.js';
import type { ActionContext } from '../../core/engine.js';
import { lazyDisconnectSignal, type ClosableResponse } from '../http/disconnect-signal.js';

/** What is used of Nest's ExecutionContext. */
export interface ExecutionContextLike {
  getType(): string;
  switchToHttp(): { getRequest(): unknown; getResponse(): unknown };
}

/** What is used of Nest's CallHandler. */
export interface CallHandlerLike {
  handle(): Observable<unknown>;
}

/** The platform request (Express's, or Fastify's with the same fields). */
export type NestRequestLike = NodeRequestLike;

export type NestIdempotencyOptions<Req extends NestRequestLike = NestRequestLike> = HttpIdempotencyOptions<Req> & RequestBodyOptions;

/**
 * Set by @nestjs/core (12.x, `markRejectedByPipes`) on a request whose pipes rejected it, before
 * its exception filter answers: the route handler did not run. A registered symbol, so no import
 * of @nestjs/core is needed.
 */
const REJECTED_BY_PIPES = Symbol.for('nestjs:rejected-by-pipes');

/** Thrown into the flow for a pipe-rejected request: the claim is released, nothing stored. */
class RejectedBeforeHandlerError extends Error {
  constructor() {
    super('The request was rejected by a pipe before its handler ran; its answer is not stored.');
    this.name = 'RejectedBeforeHandlerError';
  }
}

/** The held key's context per request, for `idempotencyContext`. */
const contexts = new WeakMap<object, ActionContext>();

/**
 * The held key's context for a route handler: `signal` aborts when the lease is lost, when
 * `maxExecutionMs` passes, or when the client disconnects (a notice: the handler decides).
 * @example
 * @Post() report(@Req() request: Request) { return this.reports.build({ signal: idempotencyContext(request)?.signal }); }
 */
export function idempotencyContext(request: object): ActionContext | undefined {
  return contexts.get(request);
}

/**
 * The interceptor. Options (and the installed Nest major) are checked in the constructor, so a
 * bad configuration or an untested Nest stops the app at startup.
 * @example
 * app.useGlobalInterceptors(new IdempotencyInterceptor({ idempotency, scope: (req) => req.user?.id }));
 */
export class IdempotencyInterceptor<Req extends NestRequestLike = NestRequestLike> {
  readonly #http: HttpIdempotency<Req>;
  readonly #maxRequestBytes: number;

  constructor(options: NestIdempotencyOptions<Req>) {
    assertSupportedNestVersion(installedNestVersion());
    this.#http = createHttpIdempotency(options);
    this.#maxRequestBytes = resolveMaxRequestBytes(options.maxRequestBytes);
  }

  intercept(context: ExecutionContextLike, next: CallHandlerLike): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const host = context.switchToHttp();
    const request = host.getRequest() as Req;
    const reply = host.getResponse() as NodeResponseLike & PlatformResponseLike & { raw?: NodeResponseLike };
    delete request.headers[REPLAYED_HEADER];
    if (PASSTHROUGH_METHODS.has((request.method ?? 'GET').toUpperCase())) return next.handle();
    const raw = reply.raw ?? reply; // Fastify platform: the Node response sits under .raw
    const http = this.#http;

    return new Observable<unknown>((subscriber) => {
      let capture: NodeResponseCapture | undefined;
      let inner: Subscription | undefined;
      // A client that goes away reaches the handler as an abort of idempotencyContext(request).signal.
      const disconnect = lazyDisconnectSignal(raw as NodeResponseLike & ClosableResponse, 'The client closed the connection.');
      const execute = (held: ActionContext) => {
        contexts.set(request, held);
        capture = captureNodeResponse(raw, http.options.maxBodyBytes);
        // Nest writes what the handler emits (or what an exception filter makes of its error)
        // into the capture; that write is the response that gets stored.
        inner = next.handle().subscribe(subscriber);
        return capture.response.then((response) => {
          if ((request as unknown as Record<symbol, unknown>)[REJECTED_BY_PIPES] === true) throw new RejectedBeforeHandlerError();
          return response;
        });
      };
      http.handle(request, nodeRequestView(request, { maxRequestBytes: this.#maxRequestBytes }), execute, { signal: disconnect }).then(
        (outcome) => {
          if (outcome.kind === 'pass') inner = next.handle().subscribe(subscriber);
          else if (outcome.kind === 'respond') {
            subscriber.next(platformAnswer(reply, outcome.response));
            subscriber.complete();
          } else capture?.flush();
        },
        (error: unknown) => {
          const bodyError = asRequestBodyError(error);
          if (capture) capture.flush(); // the handler (or a pipe) already answered; let its answer out
          else if (bodyError) {
            subscriber.next(platformAnswer(reply, requestBodyProblem(bodyError, http.options))); // nothing was claimed
            subscriber.complete();
          } else subscriber.error(error);
        },
      );
      return () => inner?.unsubscribe();
    });
  }
}

/**
 * Makes one route (or every route of a controller) idempotent.
 * @example
 * const payments = { idempotency, scope: (req: AuthedRequest) => req.user.id } as const;
 * @Post('payments') @Idempotent(payments) create(@Body() body: CreatePayment) { return this.service.pay(body); }
 */
export function Idempotent<Req extends NestRequestLike = NestRequestLike>(options: NestIdempotencyOptions<Req>): MethodDecorator & ClassDecorator {
  return UseInterceptors(new IdempotencyInterceptor(options));
}
