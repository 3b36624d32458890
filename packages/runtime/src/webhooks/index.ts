/**
 * `@idempotency-builder/runtime/webhooks`: verified, deduplicated webhook endpoints. Each provider
 * takes its own SDK (or reference package) as an argument, so none is imported here.
 */
export { createWebhookHandler, type WebhookHandler, type WebhookHandlerOptions, type WebhookResult, type EventOutcome } from './webhook-handler.js';
export {
  WebhookVerificationError,
  WebhookPayloadError,
  normalizeHeaders,
  type WebhookEvent,
  type WebhookProvider,
  type WebhookRequest,
} from './webhook-event.js';
export { webhookProblem, type WebhookProblemCode } from './webhook-problem.js';
export { eventKey } from './event-key.js';
export { stripeProvider, type StripeLike, type StripeEventLike, type StripeProviderOptions } from './providers/stripe.js';
export { adyenProvider, type AdyenHmacValidatorLike, type AdyenNotificationItemLike, type AdyenProviderOptions } from './providers/adyen.js';
export {
  paypalProvider,
  type PayPalProviderOptions,
  type PayPalVerifier,
  type PayPalVerifyWebhookSignatureRequest,
  type PayPalEventLike,
} from './providers/paypal.js';
export { createPayPalVerifier, type PayPalVerifierOptions } from './providers/paypal-verifier.js';
export { standardWebhooksProvider, type StandardWebhookLike, type StandardWebhooksProviderOptions } from './providers/standard-webhooks.js';
export { githubProvider, type OctokitVerifyLike, type GitHubProviderOptions } from './providers/github.js';
export { fetchWebhook } from './mount/fetch-webhook.js';
export { honoWebhook, type HonoContextLike } from './mount/hono-webhook.js';
export { expressWebhook, type ExpressWebhookRequestLike } from './mount/express-webhook.js';
export { fastifyWebhook, rawBodyParser, type FastifyInstanceLike, type FastifyReplyLike, type FastifyWebhookRequestLike } from './mount/fastify-webhook.js';
