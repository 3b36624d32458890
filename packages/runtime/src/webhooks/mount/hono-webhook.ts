/** Mount on Hono: the raw body is `c.req.arrayBuffer()` (do not read `c.req.json()` first). */
import type { WebhookHandler } from '../webhook-handler.js';
import { headersOf, toResponse } from './fetch-webhook.js';

/** What is used of a Hono `Context` (structural: hono stays an optional peer). */
export interface HonoContextLike {
  readonly req: { arrayBuffer(): Promise<ArrayBuffer>; readonly raw: Request };
}

/**
 * A Hono route handler for the webhook.
 * @example app.post('/webhooks/stripe', honoWebhook(stripeWebhook));
 */
export function honoWebhook(webhook: WebhookHandler): (c: HonoContextLike) => Promise<Response> {
  return async function webhookRoute(c) {
    const rawBody = new Uint8Array(await c.req.arrayBuffer());
    const { response } = await webhook.handle({ rawBody, headers: headersOf(c.req.raw.headers) });
    return toResponse(response);
  };
}
