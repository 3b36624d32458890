/** Mount on Web-standard handlers (Next.js route handlers, Bun, Deno, workers): `request.arrayBuffer()` is the raw body. */
import type { HttpResponse } from '../../adapters/http/http-response.js';
import type { WebhookHandler } from '../webhook-handler.js';

/** A Response from the framework-free result. */
export function toResponse(response: HttpResponse): Response {
  return new Response(response.body.byteLength === 0 ? null : (response.body as Uint8Array<ArrayBuffer>), { status: response.status, headers: response.headers });
}

/** Lower-case header record from a fetch `Headers`. */
export function headersOf(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/**
 * `(Request) => Promise<Response>` for the webhook. Never call `request.json()` before it: the
 * signature covers the exact bytes.
 * @example export const POST = fetchWebhook(createWebhookHandler({ idempotency, provider, handler }));
 */
export function fetchWebhook(webhook: WebhookHandler): (request: Request) => Promise<Response> {
  return async function webhookRoute(request) {
    const rawBody = new Uint8Array(await request.arrayBuffer());
    const { response } = await webhook.handle({ rawBody, headers: headersOf(request.headers) });
    return toResponse(response);
  };
}
