/**
 * The two response hooks of the HTTP layer: `onReplay` (observe a replay: logs, metrics) and
 * `beforeStore` (adjust or veto what is recorded). Both are called defensively: a hook that throws
 * or rejects never changes what the client is sent, and is logged.
 */
import type { Logger } from '../../core/logger.js';
import { redact } from '../../core/logger.js';
import type { HttpResponse } from './http-response.js';
import type { HttpRequestView } from './request-view.js';

/**
 * Called after a replay is decided, with the stored response (frozen; without the replay marker).
 * Not awaited: it cannot delay or change the replay. Declared as a method so a framework's own
 * request type fits without casts.
 */
export type OnReplayHook<Ctx> = {
  hook(ctx: Ctx, request: HttpRequestView, stored: HttpResponse): void | Promise<void>;
}['hook'];

/**
 * Called before a response that would be stored is recorded (after the client's copy is fixed).
 * Return nothing to store it as is, a response to store that instead (e.g. a redacted body), or
 * `false` to veto: the key is then given back, as for a 5xx under `serverErrors: 'release'`.
 */
export type BeforeStoreHook<Ctx> = {
  hook(ctx: Ctx, request: HttpRequestView, response: HttpResponse): HttpResponse | false | undefined | void | Promise<HttpResponse | false | undefined | void>;
}['hook'];

/** What to record: the response, or nothing (give the key back). */
export type StoreDecision = { readonly store: HttpResponse } | { readonly store: null; readonly reason: 'veto' | 'hook_failed' };

const frozen = (response: HttpResponse): HttpResponse => Object.freeze({ ...response, headers: Object.freeze({ ...response.headers }) });

/**
 * Runs `onReplay` without letting it touch the replay: a copy, not awaited, errors logged.
 * @example notifyReplay(hook, ctx, request, stored, logger, key)
 */
export function notifyReplay<Ctx>(hook: OnReplayHook<Ctx>, ctx: Ctx, request: HttpRequestView, stored: HttpResponse, logger: Logger, key: string): void {
  const report = (error: unknown) =>
    logger.warn({ key: redact(key), error: error instanceof Error ? error.message : String(error) }, 'idempotency onReplay hook failed');
  try {
    const result = hook(ctx, request, frozen(stored));
    if (result && typeof (result as Promise<void>).then === 'function') (result as Promise<void>).catch(report);
  } catch (error) {
    report(error);
  }
}

/**
 * Runs `beforeStore` and checks what it returns. A hook that fails (or returns something that is
 * not a response) records nothing: storing what it was meant to redact would be worse than a rerun.
 * @example const decision = await decideStore(hook, ctx, request, response, logger, key);
 */
export async function decideStore<Ctx>(
  hook: BeforeStoreHook<Ctx>,
  ctx: Ctx,
  request: HttpRequestView,
  response: HttpResponse,
  logger: Logger,
  key: string,
): Promise<StoreDecision> {
  let result: Awaited<ReturnType<BeforeStoreHook<Ctx>>>;
  try {
    result = await hook(ctx, request, frozen(response));
  } catch (error) {
    logger.error({ key: redact(key), error: error instanceof Error ? error.message : String(error) }, 'idempotency beforeStore hook failed; response not recorded');
    return { store: null, reason: 'hook_failed' };
  }
  if (result === undefined) return { store: response };
  if (result === false) return { store: null, reason: 'veto' };
  const valid =
    result !== null &&
    typeof result === 'object' &&
    Number.isInteger(result.status) &&
    result.status >= 100 &&
    result.status <= 599 &&
    result.body instanceof Uint8Array &&
    result.headers !== null &&
    typeof result.headers === 'object';
  if (!valid) {
    logger.error({ key: redact(key) }, 'idempotency beforeStore hook returned neither a response, false nor undefined; response not recorded');
    return { store: null, reason: 'hook_failed' };
  }
  return { store: result };
}
