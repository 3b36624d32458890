/**
 * Mount on Fastify 5. Fastify parses JSON by default; register the webhook route in its own
 * encapsulated context with a Buffer parser: `rawBodyParser(instance)` does
 * `addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => done(null, body))`.
 */
import { normalizeHeaders } from '../webhook-event.js';
import type { WebhookHandler } from '../webhook-handler.js';

/** What is used of a Fastify instance to add the Buffer parser. */
export interface FastifyInstanceLike {
  removeAllContentTypeParsers?(): void;
  addContentTypeParser(
    type: string | string[] | RegExp,
    options: { parseAs: 'buffer' },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
}

/** What is used of a Fastify request and reply. */
export interface FastifyWebhookRequestLike {
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}
export interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  headers(values: Record<string, string>): FastifyReplyLike;
  send(payload?: unknown): unknown;
}

/**
 * Makes every body of this (encapsulated) instance arrive as a Buffer.
 * @example
 * app.register(async (hooks) => {
 *   rawBodyParser(hooks);
 *   hooks.post('/webhooks/stripe', fastifyWebhook(stripeWebhook));
 * });
 */
export function rawBodyParser(instance: FastifyInstanceLike): void {
  instance.removeAllContentTypeParsers?.();
  instance.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}

/**
 * A Fastify route handler for the webhook.
 * @example hooks.post('/webhooks/adyen', fastifyWebhook(adyenWebhook));
 */
export function fastifyWebhook(webhook: WebhookHandler): (request: FastifyWebhookRequestLike, reply: FastifyReplyLike) => Promise<unknown> {
  return async function webhookRoute(request, reply) {
    if (!(request.body instanceof Uint8Array)) {
      throw new TypeError('The webhook route needs the raw body: call rawBodyParser(instance) in its plugin context.');
    }
    const { response } = await webhook.handle({ rawBody: request.body, headers: normalizeHeaders(request.headers) });
    return reply.code(response.status).headers(response.headers).send(Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength));
  };
}
