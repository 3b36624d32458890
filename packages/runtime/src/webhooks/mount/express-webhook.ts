/**
 * Mount on Express 4/5. The route needs the raw body as a Buffer:
 * `app.post('/webhooks/stripe', express.raw({ type: '*\/*' }), expressWebhook(webhook))` — and no
 * `express.json()` before it on that path (it would consume and re-encode the bytes).
 */
import { writeNodeResponse, type NodeResponseLike } from '../../adapters/http/node-response-capture.js';
import { normalizeHeaders } from '../webhook-event.js';
import type { WebhookHandler } from '../webhook-handler.js';

/** What is used of an Express request. */
export interface ExpressWebhookRequestLike {
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * An Express handler for the webhook. A body that is not a Buffer means the raw parser is
 * missing: that is a deployment error, passed to `next(error)` with a message saying so.
 * @example app.post('/webhooks/github', express.raw({ type: 'application/json' }), expressWebhook(githubWebhook));
 */
export function expressWebhook(
  webhook: WebhookHandler,
): (req: ExpressWebhookRequestLike, res: NodeResponseLike, next: (error?: unknown) => void) => void {
  return function webhookRoute(req, res, next) {
    if (!(req.body instanceof Uint8Array)) {
      next(new TypeError('The webhook route needs the raw body: mount express.raw({ type: "*/*" }) before expressWebhook().'));
      return;
    }
    webhook.handle({ rawBody: req.body, headers: normalizeHeaders(req.headers) }).then(
      ({ response }) => writeNodeResponse(res, response),
      (error: unknown) => next(error),
    );
  };
}
