/**
 * The HTTP flow every adapter shares: key header -> principal -> fingerprint -> `run()` -> what
 * to send. Adapters only translate their framework's request into an `HttpRequestView`, hand over
 * a way to run the handler while capturing its response, and send what comes back.
 */
import { IdempotencyError, InProgressError, ReplayedFailureError, StoreUnavailableError } from '../../core/errors.js';
import { GLOBAL_SCOPE } from '../../core/key.js';
import { redact } from '../../core/logger.js';
import type { ResultSerializer } from '../../core/serializer.js';
import { createHttpSerializer, replayOf, type HttpResponse } from './http-response.js';
import { parseIdempotencyKey } from './key-header.js';
import { resolveHttpOptions, type HttpIdempotencyOptions, type ResolvedHttpOptions } from './options.js';
import { problemResponse, type ProblemCode } from './problem.js';
import { httpFingerprint } from './request-fingerprint.js';
import { PASSTHROUGH_METHODS, type HttpRequestView } from './request-view.js';

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
 * `bodyOmitted: true`).
 */
export type ExecuteHandler = () => Promise<HttpResponse>;

export interface HttpIdempotency<Ctx> {
  handle(ctx: Ctx, request: HttpRequestView, execute: ExecuteHandler): Promise<HttpOutcome>;
  readonly options: ResolvedHttpOptions<Ctx>;
}

/** The action's value: the handler's response, or a refusal decided after the claim. */
type ActionValue =
  | { readonly kind: 'response'; readonly response: HttpResponse }
  | { readonly kind: 'refused'; readonly code: ProblemCode; readonly retryAfterMs?: number };

const PASS: HttpOutcome = { kind: 'pass' };
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
  const httpSerializer = createHttpSerializer(resolved.replayHeaders);
  const serializer: ResultSerializer<ActionValue> = {
    serialize(value) {
      // shouldStore keeps refusals out of the store, so only responses get here.
      if (value.kind !== 'response') throw new TypeError('A refusal is never stored.');
      return httpSerializer.serialize(value.response);
    },
    deserialize: (stored) => ({ kind: 'response', response: httpSerializer.deserialize(stored) }),
  };
  const shouldStore = (value: ActionValue) => value.kind === 'response' && resolved.storeStatus(value.response.status);

  const respond = (code: ProblemCode, extra: { retryAfterMs?: number; status?: number } = {}): HttpOutcome => ({
    kind: 'respond',
    response: problemResponse({ code, profile, typeBase: problemTypeBase, ...extra }),
  });

  function refusal(error: IdempotencyError): HttpOutcome {
    if (error instanceof InProgressError) return respond('in_progress', { retryAfterMs: error.retryAfterMs });
    if (error instanceof ReplayedFailureError) {
      const status = error.stored.statusCode;
      return respond('replayed_failure', status !== undefined && status >= 400 && status <= 599 ? { status } : {});
    }
    if (error.code === 'store_unavailable' || error.code === 'lease_lost') return respond(error.code, { retryAfterMs: 1000 });
    return respond(error.code);
  }

  async function principal(ctx: Ctx, request: HttpRequestView): Promise<{ scope: string; owner?: string } | null> {
    if (resolved.scope === 'global') {
      if (resolved.owner === null) return { scope: GLOBAL_SCOPE };
      const owner = await resolved.owner(ctx, request);
      return owner ? { scope: GLOBAL_SCOPE, owner } : null;
    }
    const scope = await resolved.scope(ctx, request);
    return scope ? { scope } : null;
  }

  async function handle(ctx: Ctx, request: HttpRequestView, execute: ExecuteHandler): Promise<HttpOutcome> {
    if (PASSTHROUGH_METHODS.has(request.method)) return PASS;
    const parsed = parseIdempotencyKey(request.header(resolved.header), idempotency.options.maxKeyLength);
    if (parsed.kind === 'missing') return resolved.required ? respond('key_required') : PASS;
    if (parsed.kind === 'invalid') return respond('invalid_key');
    const who = await principal(ctx, request);
    if (who === null) return respond('unauthenticated');
    const fingerprint = await httpFingerprint(request, resolved.fingerprint);

    let entered = false;
    let handlerRan = false;
    let handlerFailed = false;
    const action = async (): Promise<ActionValue> => {
      entered = true;
      if (resolved.rateLimit !== null) {
        const decision = await resolved.rateLimit(who.owner ?? who.scope);
        if (decision.kind === 'limited') return { kind: 'refused', code: 'rate_limited', retryAfterMs: decision.retryAfterMs };
        if (decision.kind === 'unavailable' && !resolved.failOpen) return { kind: 'refused', code: 'store_unavailable', retryAfterMs: 1000 };
      }
      try {
        const response = await execute();
        handlerRan = true;
        return { kind: 'response', response };
      } catch (error) {
        handlerFailed = true;
        throw error;
      }
    };

    try {
      const { value, replayed } = await idempotency.run({ key: parsed.key, scope: who.scope, fingerprint, owner: who.owner }, action, {
        serializer,
        shouldStore,
        waitMs: resolved.waitMs,
        leaseMs: resolved.leaseMs,
        ttlMs: resolved.ttlMs,
      });
      if (value.kind === 'refused') return respond(value.code, value.retryAfterMs === undefined ? {} : { retryAfterMs: value.retryAfterMs });
      return replayed ? { kind: 'respond', response: replayOf(value.response) } : EXECUTED;
    } catch (error) {
      if (handlerFailed) throw error; // the handler's own error: the framework answers it
      if (handlerRan) {
        // The handler's response is the truth about what happened; only recording it failed
        // (store down, or a stalled worker's lease taken over). Send it rather than a refusal.
        idempotency.options.logger.warn(
          { key: redact(parsed.key), error: error instanceof Error ? error.message : String(error) },
          'idempotency: response sent but not recorded',
        );
        return EXECUTED;
      }
      if (error instanceof StoreUnavailableError && resolved.failOpen && !entered) return PASS;
      if (error instanceof IdempotencyError) return refusal(error);
      throw error;
    }
  }

  return { handle, options: resolved };
}
