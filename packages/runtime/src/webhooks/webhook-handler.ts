/**
 * The webhook endpoint, framework-free: verify with the provider's SDK, then run the handler once
 * per provider event identity (scope = the provider account), answer duplicates 200 without
 * running it again. Framework mounts (Express, Fastify, Hono, fetch) only move bytes in and out.
 *
 * Ordering rule: the runtime dedupes, it never reorders. Each event runs when it arrives; the
 * handler gets `event.createdAt` and decides whether a late event is stale for its own state.
 */
import type { HttpResponse } from '../adapters/http/http-response.js';
import type { ActionContext, Idempotency } from '../core/engine.js';
import { IdempotencyError, InProgressError, InvalidOptionsError, ReplayedFailureError } from '../core/errors.js';
import { fingerprintFields } from '../core/fingerprint.js';
import { validateScope } from '../core/key.js';
import { eventKey } from './event-key.js';
import { WebhookPayloadError, WebhookVerificationError, type WebhookEvent, type WebhookProvider, type WebhookRequest } from './webhook-event.js';
import { DEFAULT_PROBLEM_TYPE_BASE } from '../adapters/http/problem.js';
import { webhookProblem } from './webhook-problem.js';

export interface WebhookHandlerOptions<P> {
  readonly idempotency: Idempotency;
  readonly provider: WebhookProvider<P>;
  /** Your business logic, run once per event. A throw releases the key and answers 5xx, so the provider redelivers. */
  readonly handler: (event: WebhookEvent<P>, context: ActionContext) => unknown;
  /**
   * The idempotency scope of an event. Default: `event.account` (the provider account the event
   * belongs to: Stripe Connect account, Adyen merchant account, …).
   */
  readonly scope?: string | ((event: WebhookEvent<P>) => string);
  /**
   * How long an event id is remembered. Choose it longer than the provider's retry window
   * (Stripe retries for up to 3 days, Adyen and PayPal for days too). Default: the engine's ttlMs.
   */
  readonly ttlMs?: number;
  readonly leaseMs?: number;
  /** A delivery racing one still running waits up to this long, then answers 409 + Retry-After. Default 0. */
  readonly waitMs?: number;
  /** Prefix of every problem `type`. Default `urn:idempotency-builder:problem:`. */
  readonly problemTypeBase?: string;
}

/** What happened to one event of a delivery. */
export type EventOutcome = 'processed' | 'duplicate' | 'failed-permanently';

export interface WebhookResult {
  readonly response: HttpResponse;
  /** Per event, in delivery order; empty when verification refused the delivery. */
  readonly outcomes: readonly { readonly id: string; readonly outcome: EventOutcome }[];
}

export interface WebhookHandler {
  readonly provider: string;
  /** Verifies, dedupes and runs; always resolves to the response to send. */
  handle(request: WebhookRequest): Promise<WebhookResult>;
}

const utf8 = new TextEncoder();
const DEFAULT_ACCEPTED = { contentType: 'application/json', body: '{"received":true}' };

/**
 * Creates the endpoint logic for one provider; options are validated now.
 * @example
 * import Stripe from 'stripe';
 * import { createWebhookHandler, stripeProvider, fetchWebhook } from '@idempotency-builder/runtime/webhooks';
 * const stripe = new Stripe(process.env.STRIPE_KEY!);
 * const webhook = createWebhookHandler({
 *   idempotency,
 *   provider: stripeProvider({ stripe, secret: process.env.STRIPE_WEBHOOK_SECRET! }),
 *   handler: async (event) => fulfil(event.payload),
 * });
 * export const POST = fetchWebhook(webhook);
 */
export function createWebhookHandler<P>(options: WebhookHandlerOptions<P>): WebhookHandler {
  const { idempotency, provider, handler, scope, ttlMs, leaseMs, waitMs = 0 } = options;
  if (typeof idempotency?.run !== 'function') throw new InvalidOptionsError('Option "idempotency" must be the engine from createIdempotency().');
  if (typeof provider?.verify !== 'function' || typeof provider.name !== 'string') {
    throw new InvalidOptionsError('Option "provider" must be a webhook provider such as stripeProvider({...}).');
  }
  if (typeof handler !== 'function') throw new InvalidOptionsError('Option "handler" must be a function (event, context) => ….');
  if (typeof scope === 'string') {
    try {
      validateScope(scope);
    } catch (error) {
      throw new InvalidOptionsError(`Option "scope": ${(error as Error).message}`);
    }
  } else if (scope !== undefined && typeof scope !== 'function') {
    throw new InvalidOptionsError('Option "scope" must be a string or a function of the event.');
  }
  const typeBase = options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE;
  const accepted = provider.accepted ?? DEFAULT_ACCEPTED;
  const scopeOf = (event: WebhookEvent<P>) => (typeof scope === 'string' ? scope : typeof scope === 'function' ? scope(event) : event.account);
  const runOptions = { waitMs, ...(ttlMs === undefined ? {} : { ttlMs }), ...(leaseMs === undefined ? {} : { leaseMs }) };

  async function processEvent(event: WebhookEvent<P>): Promise<EventOutcome> {
    const request = {
      key: eventKey(event.provider, event.id),
      scope: scopeOf(event),
      // Retries of one event may differ in delivery metadata (Stripe's pending_webhooks, attempt
      // timestamps), and the signature already proves the content: the identity is the intent.
      fingerprint: fingerprintFields([event.provider, event.id]),
    };
    try {
      const { replayed } = await idempotency.run(request, async (context) => {
        await handler(event, context);
        return null;
      }, runOptions);
      return replayed ? 'duplicate' : 'processed';
    } catch (error) {
      // A permanent failure is recorded (FAILED) and acknowledged, so the provider stops
      // redelivering an event that can never succeed; its replay is acknowledged the same way.
      if (error instanceof ReplayedFailureError) return 'failed-permanently';
      if (!(error instanceof IdempotencyError) && idempotency.options?.classify?.(error) === 'permanent') return 'failed-permanently';
      throw error;
    }
  }

  async function handle(request: WebhookRequest): Promise<WebhookResult> {
    let events: readonly WebhookEvent<P>[];
    try {
      events = await provider.verify(request);
    } catch (error) {
      if (error instanceof WebhookVerificationError) return { response: webhookProblem('invalid_signature', typeBase), outcomes: [] };
      if (error instanceof WebhookPayloadError) return { response: webhookProblem('invalid_payload', typeBase), outcomes: [] };
      // The verifier itself failed (PayPal's API unreachable): ask for a redelivery.
      idempotency.options?.logger?.warn({ provider: provider.name, error: String(error) }, 'webhook verification could not run');
      return { response: webhookProblem('verification_unavailable', typeBase, 1000), outcomes: [] };
    }
    const outcomes: { id: string; outcome: EventOutcome }[] = [];
    for (const event of events) {
      try {
        outcomes.push({ id: event.id, outcome: await processEvent(event) });
      } catch (error) {
        // Events already processed stay recorded: the provider's retry of the whole delivery
        // replays them and runs only the rest.
        if (error instanceof InProgressError) return { response: webhookProblem('in_progress', typeBase, error.retryAfterMs), outcomes };
        if (error instanceof IdempotencyError) return { response: webhookProblem(error.code, typeBase, error.code === 'store_unavailable' ? 1000 : undefined), outcomes };
        idempotency.options?.logger?.warn({ provider: provider.name, type: event.type, error: String(error) }, 'webhook handler failed; released for redelivery');
        return { response: webhookProblem('handler_failed', typeBase), outcomes };
      }
    }
    const headers: Record<string, string> = { 'content-type': accepted.contentType, 'cache-control': 'no-store' };
    if (outcomes.length > 0 && outcomes.every((entry) => entry.outcome === 'duplicate')) headers['idempotent-replayed'] = 'true';
    return { response: { status: 200, headers, body: utf8.encode(accepted.body) }, outcomes };
  }

  return { provider: provider.name, handle };
}
