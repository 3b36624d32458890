/**
 * Generated TypeScript: webhook endpoints on the runtime's `createWebhookHandler`
 * (`@idempotency-builder/runtime/webhooks`) — verified with the provider's own SDK, deduplicated
 * on the provider's event identity, mounted with the framework's raw-body route.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { KOA_WEBHOOK_MOUNT } from './koa-file.js';

/** The runtime's provider factory per payment provider; others use Standard Webhooks. */
const PROVIDERS: Record<string, { factory: string; options: string; event: string; what: string }> = {
  stripe: { factory: 'stripeProvider', options: 'StripeProviderOptions', event: 'StripeEventLike', what: 'verified with stripe.webhooks.constructEvent, deduplicated on event.id per Stripe account' },
  adyen: {
    factory: 'adyenProvider',
    options: 'AdyenProviderOptions',
    event: 'AdyenNotificationItemLike',
    what: 'HMAC of every notification item checked with @adyen/api-library, deduplicated per item on pspReference + eventCode + success; answered [accepted]',
  },
  paypal: { factory: 'paypalProvider', options: 'PayPalProviderOptions', event: 'PayPalEventLike', what: 'verified through PayPal’s verify-webhook-signature, deduplicated on the event id' },
  standard: {
    factory: 'standardWebhooksProvider',
    options: 'StandardWebhooksProviderOptions',
    event: 'unknown',
    what: 'verified with the standardwebhooks package, deduplicated on the webhook-id header',
  },
};

/** How each framework mounts a webhook: the runtime's mount and the raw body it needs. */
const MOUNTS: Record<string, { mount: string; note: string }> = {
  express: { mount: 'expressWebhook', note: "app.post(route, express.raw({ type: () => true }), mountWebhook(handler)) — the raw body, never express.json(): the signature covers the exact bytes." },
  nestjs: { mount: 'expressWebhook', note: 'NestJS on Express: NestFactory.create(AppModule, { rawBody: true }), then app.getHttpAdapter().post(route, mountWebhook(handler)).' },
  fastify: { mount: 'fastifyWebhook', note: 'Fastify: in the route’s own plugin context call rawBodyParser(instance), then instance.post(route, mountWebhook(handler)).' },
  hono: { mount: 'honoWebhook', note: 'Hono: app.post(route, mountWebhook(handler)) — it reads c.req.arrayBuffer() itself.' },
  fetch: { mount: 'fetchWebhook', note: 'Fetch API: export const POST = mountWebhook(handler) — it reads request.arrayBuffer() itself.' },
  // The runtime has no Koa mount: the file writes its own over normalizeHeaders (koa-file.ts).
  koa: { mount: 'normalizeHeaders', note: '' },
};

const providerOf = (a: ActionPlan) => PROVIDERS[a.action.provider ?? ''] ?? (PROVIDERS.standard as (typeof PROVIDERS)[string]);

/**
 * `webhooks.ts`, or undefined when no action is a webhook.
 * @example webhookFile(plan)?.includes('createWebhookHandler')
 */
export function webhookFile(plan: Plan): string | undefined {
  const hooks = plan.actions.filter((a) => a.action.kind === 'webhook');
  if (hooks.length === 0) return undefined;
  const mount = MOUNTS[plan.stack.framework] ?? (MOUNTS.fetch as (typeof MOUNTS)[string]);
  const used = [...new Set(hooks.map(providerOf))];
  const names = [
    'createWebhookHandler',
    mount.mount,
    ...(mount.mount === 'fastifyWebhook' ? ['rawBodyParser'] : []),
    ...used.map((p) => p.factory),
    ...used.flatMap((p) => [`type ${p.options}`, ...(p.event === 'unknown' ? [] : [`type ${p.event}`])]),
    'type WebhookEvent',
    'type WebhookHandler',
  ];
  const factories = hooks.map((a) => {
    const p = providerOf(a);
    return `/** ${a.action.method ?? 'POST'} ${a.action.route ?? `/${a.action.name}`} — ${p.what}. */
export function ${a.action.name}(provider: ${p.options}, handler: (event: WebhookEvent<${p.event}>, context: ActionContext) => unknown): WebhookHandler {
  return createWebhookHandler({ idempotency, provider: ${p.factory}(provider), handler, ...POLICIES.${a.action.name} });
}
`;
  });
  return `// Webhook endpoints on the idempotency-builder runtime: each delivery is verified with the provider's
// own SDK first (a bad signature answers 4xx problem+json and stores nothing), then every event runs
// your handler at most once per provider event identity, scoped to the provider account. A
// duplicate is acknowledged without running again; a throw releases the event and answers 5xx, so
// the provider redelivers. Ordering: events are deduplicated, never reordered — use event.createdAt
// to ignore a late event that your state has already moved past.
import type { ActionContext } from '@idempotency-builder/runtime';
import { ${names.join(', ')} } from '@idempotency-builder/runtime/webhooks';
import { idempotency, POLICIES } from './idempotency.js';

${plan.stack.framework === 'koa' ? KOA_WEBHOOK_MOUNT : `/** ${mount.note} */
export const mountWebhook = ${mount.mount};
`}${mount.mount === 'fastifyWebhook' ? '\nexport { rawBodyParser };\n' : ''}
${factories.join('\n')}`;
}
