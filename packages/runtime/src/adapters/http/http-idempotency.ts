/**
 * The HTTP flow every adapter shares: key header -> principal -> fingerprint -> `begin()` -> run
 * the handler -> complete/fail/release -> what to send. Adapters only translate their framework's
 * request into an `HttpRequestView`, hand over a way to run the handler while capturing its
 * response, and send what comes back. Because the claim is held explicitly, each error is
 * handled where it arises: a refusal before the handler, the handler's own error, a recording failure after it.
 */
import type { ActionContext, BeginOptions, BeginResult, HeldClaim } from '../../core/engine.js';
import { HeldActionContext } from '../../core/action-context.js';
import type { CallerSignal } from '../../core/held-claim.js';
import { IdempotencyError, StoreUnavailableError } from '../../core/errors.js';
import { GLOBAL_SCOPE } from '../../core/key.js';
import { redact } from '../../core/logger.js';
import { createHttpSerializer, replayOf, type HttpResponse } from './http-response.js';
import { decodedForRetry } from './replay-encoding.js';
import { bodyKeyRequired, keyFromBody } from './key-from-body.js';
import { parseIdempotencyKey, type ParsedKey } from './key-header.js';
import { resolveHttpOptions, type HttpIdempotencyOptions, type ResolvedHttpOptions } from './options.js';
import { problemResponse, refusalResponse, type ProblemCode } from './problem.js';
import { httpFingerprint } from './request-fingerprint.js';
import { PASSTHROUGH_METHODS, type HttpRequestView } from './request-view.js';
import { decideStore, notifyReplay } from './response-hooks.js';

/** What the adapter does next. */
export type HttpOutcome =
  /** Run the handler as if there were no middleware (safe method, optional key absent, fail-open). */
  | { readonly kind: 'pass' }
  /** Send this instead of running the handler: a replay or a problem. */
  | { readonly kind: 'respond'; readonly response: HttpResponse }
  /** The handler ran (through `execute`); send the response it produced. */
  | { readonly kind: 'executed' };

/**
 * Runs the handler and resolves with its response once it is complete — or, for a response that
 * streams or outgrows `maxBodyBytes`, once the adapter has started passing it through (then with
 * `bodyOmitted: true`). It gets the held claim's context: `signal` aborts when the lease is lost,
 * when the engine's `maxExecutionMs` passes, or (as a notice) when the client disconnects — an
 * adapter may hand it to the handler, which decides what to do.
 */
export type ExecuteHandler = (context: ActionContext) => Promise<HttpResponse>;

export interface HandleOptions {
  /**
   * Aborted when the client disconnects. Forwarded to the handler through `execute`'s `signal`
   * as a notice: the handler decides whether to stop; a response it still produces is stored.
   * A function is called only if the handler reads its signal (see `lazyDisconnectSignal`).
   */
  readonly signal?: CallerSignal;
}

/** The key is held for this request: run the handler, then `finish` with its response or `abandon` with its error. */
export interface HttpHeld {
  readonly kind: 'held';
  /** For the handler: `signal` (lease lost, execution time over, client gone), `lockVersion`, `reclaimed`. */
  readonly context: ActionContext;
  /** Record the response (or give the key back for a status not stored). Never throws. */
  finish(response: HttpResponse): Promise<void>;
  /** The handler failed: give the key back (or record a permanent failure). Never throws. */
  abandon(error: unknown): Promise<void>;
}

/** Phase one of a request: pass it through, answer it at once, or hold its key. */
export type HttpBegin = Exclude<HttpOutcome, { kind: 'executed' }> | HttpHeld;

export interface HttpIdempotency<Ctx> {
  /**
   * Phase one alone, for adapters whose framework splits a request into hooks (Fastify's
   * preHandler/onSend): refuse, replay or pass now, or hold the key until the response is known.
   * Throws a `RequestBodyError`/`UnhashableInputError` for a body it cannot fingerprint (nothing claimed).
   */
  begin(ctx: Ctx, request: HttpRequestView, options?: HandleOptions): Promise<HttpBegin>;
  /** The whole flow around `execute`. */
  handle(ctx: Ctx, request: HttpRequestView, execute: ExecuteHandler, options?: HandleOptions): Promise<HttpOutcome>;
  readonly options: ResolvedHttpOptions<Ctx>;
}

const PASS = { kind: 'pass' } as const;
const EXECUTED: HttpOutcome = { kind: 'executed' };

/**
 * Creates the shared HTTP flow; options are validated here, once.
 * @example
 * const http = createHttpIdempotency({ idempotency, scope: (req) => req.user?.id });
 * const outcome = await http.handle(req, nodeRequestView(req), () => captureAndRun());
 */
export function createHttpIdempotency<Ctx>(options: HttpIdempotencyOptions<Ctx>): HttpIdempotency<Ctx> {
  const resolved = resolveHttpOptions(options);
  const { idempotency, profile, problemTypeBase } = resolved;
  const { logger, classify } = idempotency.options;
  const serializer = createHttpSerializer(resolved.replayHeaders);
  // The engine options every request of this route shares, built once (a request adds only its signal).
  const beginOptions: BeginOptions<HttpResponse> = {
    serializer,
    waitMs: resolved.waitMs,
    ...(resolved.leaseMs !== undefined ? { leaseMs: resolved.leaseMs } : {}),
    ...(resolved.ttlMs !== undefined ? { ttlMs: resolved.ttlMs } : {}),
  };

  const respond = (code: ProblemCode, extra: { retryAfterMs?: number; status?: number } = {}): Extract<HttpOutcome, { kind: 'respond' }> => ({
    kind: 'respond',
    response: problemResponse({ code, profile, typeBase: problemTypeBase, ...extra }),
  });

  const refusal = (error: IdempotencyError): Extract<HttpOutcome, { kind: 'respond' }> => ({
    kind: 'respond',
    response: refusalResponse(error, { profile, typeBase: problemTypeBase }),
  });

  async function principal(ctx: Ctx, request: HttpRequestView): Promise<{ scope: string; owner?: string } | null> {
    if (resolved.scope === 'global') {
      if (resolved.owner === null) return { scope: GLOBAL_SCOPE };
      const owner = await resolved.owner(ctx, request);
      return owner ? { scope: GLOBAL_SCOPE, owner } : null;
    }
    const scope = await resolved.scope(ctx, request);
    return scope ? { scope } : null;
  }

  /** Too many new keys from one principal: checked once a key is new to us (claimed), then given back. */
  async function rateLimited(
    held: HeldClaim<HttpResponse>,
    who: { scope: string; owner?: string },
    limit: NonNullable<ResolvedHttpOptions<Ctx>['rateLimit']>,
  ): Promise<HttpBegin | null> {
    const decision = await limit(who.owner ?? who.scope);
    if (decision.kind === 'limited') {
      await held.release();
      return respond('rate_limited', { retryAfterMs: decision.retryAfterMs });
    }
    if (decision.kind === 'unavailable' && !resolved.failOpen) {
      await held.release();
      return respond('store_unavailable', { retryAfterMs: 1000 });
    }
    return null;
  }

  /** The key from the header, or from the body when `key: { fromBody }` is set (read before any claim). */
  async function keyOf(request: HttpRequestView): Promise<ParsedKey> {
    const { maxKeyLength } = idempotency.options;
    if (resolved.keyFromBody === null) return parseIdempotencyKey(request.header(resolved.header), maxKeyLength);
    return keyFromBody(await request.body(), resolved.keyFromBody, maxKeyLength);
  }

  async function begin(ctx: Ctx, request: HttpRequestView, handleOptions: HandleOptions = {}): Promise<HttpBegin> {
    if (PASSTHROUGH_METHODS.has(request.method)) return PASS;
    // The engine switched off for tests (warned at its creation): no key needed, nothing claimed.
    if (idempotency.options.enabled === false) return PASS;
    if (resolved.skip !== null && (await resolved.skip(ctx, request))) return PASS;
    const parsed = await keyOf(request);
    if (parsed.kind === 'missing') {
      if (!resolved.required) return PASS;
      if (resolved.keyFromBody === null) return respond('key_required');
      return { kind: 'respond', response: bodyKeyRequired(resolved.keyFromBody.join('.'), profile, problemTypeBase) };
    }
    if (parsed.kind === 'invalid') return respond('invalid_key');
    const who = await principal(ctx, request);
    if (who === null) return respond('unauthenticated');
    // A body the fingerprint cannot read throws a typed RequestBodyError here, before any claim.
    const fingerprint = await httpFingerprint(request, resolved.fingerprint);

    // Nothing has run yet, so every error here is the store's or a refusal.
    let begun: BeginResult<HttpResponse>;
    try {
      begun = await idempotency.begin<HttpResponse>(
        { key: parsed.key, scope: who.scope, fingerprint, ...(who.owner !== undefined ? { owner: who.owner } : {}) },
        handleOptions.signal ? { ...beginOptions, signal: handleOptions.signal } : beginOptions,
      );
    } catch (error) {
      if (error instanceof StoreUnavailableError && resolved.failOpen) return PASS;
      if (error instanceof IdempotencyError) return refusal(error);
      throw error;
    }
    if (begun.outcome === 'replayed') {
      if (resolved.onReplay !== null) notifyReplay(resolved.onReplay, ctx, request, begun.value, logger, parsed.key);
      const replay = replayOf(begun.value);
      // A body stored content-coded (compression inside this middleware) is decoded for a retry that refuses that coding.
      return { kind: 'respond', response: replay.headers['content-encoding'] === undefined ? replay : await decodedForRetry(replay, request.header('accept-encoding')) };
    }
    const held = begun;
    if (resolved.rateLimit !== null) {
      const limited = await rateLimited(held, who, resolved.rateLimit);
      if (limited) return limited;
    }

    return {
      kind: 'held',
      context: new HeldActionContext(held),
      async finish(response) {
        // The handler's response is the truth about what happened; only recording it can fail
        // (store down, lease lost, execution time over). It is sent either way.
        try {
          if (!resolved.storeStatus(response.status)) {
            await held.release();
            return;
          }
          if (resolved.beforeStore === null) {
            await held.complete(response);
            return;
          }
          const decision = await decideStore(resolved.beforeStore, ctx, request, response, logger, parsed.key);
          if (decision.store === null) await held.release();
          else await held.complete(decision.store);
        } catch (error) {
          logger.warn(
            { key: redact(parsed.key), error: error instanceof Error ? error.message : String(error) },
            'idempotency: response sent but not recorded',
          );
        }
      },
      async abandon(error) {
        // The handler's own error (the framework answers it): give the key back, or record a
        // failure the engine classifies as permanent (every failure under serverErrors: 'store',
        // since the handler may have half-done its work). Never throws: the handler's error matters more.
        const record = resolved.serverErrors === 'store' || classify(error) === 'permanent';
        if (!held.lost && record) await held.fail(error).catch(() => undefined);
        else await held.release();
      },
    };
  }

  async function handle(ctx: Ctx, request: HttpRequestView, execute: ExecuteHandler, options: HandleOptions = {}): Promise<HttpOutcome> {
    const begun = await begin(ctx, request, options);
    if (begun.kind !== 'held') return begun;
    let response: HttpResponse;
    try {
      response = await execute(begun.context);
    } catch (error) {
      await begun.abandon(error);
      throw error;
    }
    await begun.finish(response);
    return EXECUTED;
  }

  return { begin, handle, options: resolved };
}
