/**
 * Every provider through the framework-free handler, signed with the provider SDK's own helpers:
 * first delivery, replay, reordering, bad signature (400 problem+json, nothing stored) and a burst
 * of concurrent duplicates (exactly one handler run per event).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verify as octokitVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adyenProvider,
  createPayPalVerifier,
  createWebhookHandler,
  githubProvider,
  paypalProvider,
  standardWebhooksProvider,
  stripeProvider,
  type WebhookProvider,
  type WebhookRequest,
} from '../../src/webhooks/index.js';
import {
  ADYEN_HMAC_KEY,
  adyenDelivery,
  adyenItem,
  adyenValidator,
  countingHandler,
  decode,
  engine,
  GITHUB_SECRET,
  githubDelivery,
  paypalDelivery,
  STANDARD_SECRET,
  standardDelivery,
  standardWebhook,
  stripe,
  STRIPE_SECRET,
  stripeDelivery,
} from './helpers.js';

/** A local stand-in for PayPal's REST API: token + verify-webhook-signature. */
let paypal: { server: Server; baseUrl: string; verifyCalls: number; tokenCalls: number };
beforeAll(async () => {
  const state = { verifyCalls: 0, tokenCalls: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/v1/oauth2/token') {
        state.tokenCalls++;
        const ok = req.headers.authorization === `Basic ${Buffer.from('client:secret').toString('base64')}` && body === 'grant_type=client_credentials';
        res.statusCode = ok ? 200 : 401;
        res.end(JSON.stringify(ok ? { access_token: 'A21AA-token', expires_in: 32400 } : { error: 'invalid_client' }));
        return;
      }
      if (req.url === '/v1/notifications/verify-webhook-signature' && req.headers.authorization === 'Bearer A21AA-token') {
        state.verifyCalls++;
        const input = JSON.parse(body) as { transmission_sig: string; webhook_id: string; webhook_event: { id?: string } };
        const ok = input.transmission_sig === 'valid-signature' && input.webhook_id === 'WH-ID-1' && typeof input.webhook_event?.id === 'string';
        res.end(JSON.stringify({ verification_status: ok ? 'SUCCESS' : 'FAILURE' }));
        return;
      }
      res.statusCode = 404;
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  paypal = {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get verifyCalls() {
      return state.verifyCalls;
    },
    get tokenCalls() {
      return state.tokenCalls;
    },
  };
});
afterAll(() => new Promise<void>((resolve) => paypal.server.close(() => resolve())));

interface Case {
  readonly name: string;
  readonly provider: () => WebhookProvider;
  /** A signed delivery of event `n`, created at `createdAt` (ISO). */
  readonly delivery: (n: number, createdAt: string) => WebhookRequest | Promise<WebhookRequest>;
  readonly forged: (n: number) => WebhookRequest | Promise<WebhookRequest>;
  readonly eventId: (n: number) => string;
  readonly acceptedBody: string;
  readonly hasCreatedAt: boolean;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

const cases: Case[] = [
  {
    name: 'stripe',
    provider: () => stripeProvider({ stripe, secret: STRIPE_SECRET }),
    delivery: (n, at) => stripeDelivery(`evt_${n}`, seconds(at)),
    forged: (n) => stripeDelivery(`evt_${n}`, 1, {}, 'whsec_wrong'),
    eventId: (n) => `evt_${n}`,
    acceptedBody: '{"received":true}',
    hasCreatedAt: true,
  },
  {
    name: 'adyen',
    provider: () => adyenProvider({ validator: adyenValidator, hmacKey: ADYEN_HMAC_KEY }),
    delivery: (n, at) => adyenDelivery([adyenItem(`PSP${n}`, 'AUTHORISATION', 'true', at)]),
    forged: (n) => adyenDelivery([adyenItem(`PSP${n}`, 'AUTHORISATION', 'true', undefined, '00'.repeat(32))]),
    eventId: (n) => `PSP${n}:AUTHORISATION:true`,
    acceptedBody: '[accepted]',
    hasCreatedAt: true,
  },
  {
    name: 'paypal',
    provider: () =>
      paypalProvider({ verify: createPayPalVerifier({ clientId: 'client', clientSecret: 'secret', baseUrl: paypal.baseUrl }), webhookId: 'WH-ID-1' }),
    delivery: (n, at) => paypalDelivery(`WH-EVT-${n}`, at),
    forged: (n) => paypalDelivery(`WH-EVT-${n}`, '2026-01-01T00:00:00Z', 'forged-signature'),
    eventId: (n) => `WH-EVT-${n}`,
    acceptedBody: '{"received":true}',
    hasCreatedAt: true,
  },
  {
    name: 'standard-webhooks',
    provider: () => standardWebhooksProvider({ webhook: standardWebhook, account: 'acme' }),
    delivery: (n, at) => standardDelivery(`msg_${n}`, at),
    forged: (n) => standardDelivery(`msg_${n}`, '2026-01-01T00:00:00Z', new Webhook(`whsec_${Buffer.from('another-secret-of-32-bytes-long!').toString('base64')}`)),
    eventId: (n) => `msg_${n}`,
    acceptedBody: '{"received":true}',
    hasCreatedAt: true,
  },
  {
    name: 'github',
    provider: () => githubProvider({ verify: octokitVerify, secret: GITHUB_SECRET }),
    delivery: (n) => githubDelivery(`72d3162e-cc78-11e3-81ab-${String(n).padStart(12, '0')}`),
    forged: (n) => githubDelivery(`72d3162e-cc78-11e3-81ab-${String(n).padStart(12, '0')}`, 'push', 'wrong-secret'),
    eventId: (n) => `72d3162e-cc78-11e3-81ab-${String(n).padStart(12, '0')}`,
    acceptedBody: '{"received":true}',
    hasCreatedAt: false,
  },
];

describe.each(cases)('$name webhooks', (c) => {
  it('runs the handler once, answers the replay 200 without running it again', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const webhook = createWebhookHandler({ idempotency, provider: c.provider(), handler: counter.handler });
    const delivery = await c.delivery(1, '2026-12-01T10:00:00Z');
    const first = await webhook.handle(delivery);
    expect(first.response.status).toBe(200);
    expect(decode(first.response.body)).toBe(c.acceptedBody);
    expect(first.outcomes).toEqual([{ id: c.eventId(1), outcome: 'processed' }]);
    const replay = await webhook.handle(await c.delivery(1, '2026-12-01T10:00:00Z')); // a fresh signature, same event
    expect(replay.response.status).toBe(200);
    expect(replay.response.headers['idempotent-replayed']).toBe('true');
    expect(replay.outcomes).toEqual([{ id: c.eventId(1), outcome: 'duplicate' }]);
    expect(counter.runs.get(c.eventId(1))).toBe(1);
    expect(store.records.size).toBe(1);
  });

  it('refuses a bad signature with 400 problem+json and stores nothing', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const webhook = createWebhookHandler({ idempotency, provider: c.provider(), handler: counter.handler });
    const { response, outcomes } = await webhook.handle(await c.forged(2));
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(decode(response.body))).toMatchObject({ code: 'invalid_signature', status: 400 });
    expect(outcomes).toEqual([]);
    expect(counter.total()).toBe(0);
    expect(store.records.size).toBe(0);
    // a delivery whose signature header is missing altogether is the same refusal
    let unsigned = await c.delivery(3, '2026-12-01T10:00:00Z');
    if (c.name === 'adyen') {
      // Adyen's signature is in the body: an item without additionalData.hmacSignature
      const { additionalData: _signed, ...item } = adyenItem('PSP3', 'AUTHORISATION');
      unsigned = adyenDelivery([item as ReturnType<typeof adyenItem>]);
    }
    const stripped = Object.fromEntries(Object.entries(unsigned.headers).filter(([name]) => !/signature|paypal-transmission-sig/.test(name)));
    const missing = await webhook.handle({ ...unsigned, headers: stripped });
    expect(missing.response.status).toBe(400);
    expect(JSON.parse(decode(missing.response.body)).code).toBe('invalid_signature');
    expect(store.records.size).toBe(0);
    expect(counter.total()).toBe(0);
  });

  it('dedupes but never reorders: each event runs once in arrival order with its created time', async () => {
    const { idempotency } = engine();
    const seen: { id: string; createdAt: Date | null }[] = [];
    // the documented rule: the handler compares createdAt with the state it already applied
    let state: { id: string; at: number } | undefined;
    const webhook = createWebhookHandler({
      idempotency,
      provider: c.provider(),
      handler: (event) => {
        seen.push({ id: event.id, createdAt: event.createdAt });
        const at = event.createdAt?.getTime() ?? 0;
        if (!state || at >= state.at) state = { id: event.id, at };
      },
    });
    const newer = await c.delivery(11, '2026-12-01T10:05:00Z');
    const older = await c.delivery(10, '2026-12-01T10:00:00Z');
    for (const delivery of [newer, older, newer, older]) expect((await webhook.handle(delivery)).response.status).toBe(200);
    expect(seen.map((entry) => entry.id)).toEqual([c.eventId(11), c.eventId(10)]);
    if (c.hasCreatedAt) {
      expect(seen.map((entry) => entry.createdAt?.toISOString())).toEqual(['2026-12-01T10:05:00.000Z', '2026-12-01T10:00:00.000Z']);
      expect(state?.id).toBe(c.eventId(11)); // the late, older event did not overwrite the newer state
    } else {
      expect(seen.every((entry) => entry.createdAt === null)).toBe(true);
    }
  });

  it('runs a burst of concurrent duplicate deliveries exactly once; the others get 409 while it runs', async () => {
    const { idempotency } = engine();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const webhook = createWebhookHandler({
      idempotency,
      provider: c.provider(),
      handler: async () => {
        runs++;
        await gate; // the first delivery holds the event until every duplicate was answered
      },
    });
    const deliveries = await Promise.all(Array.from({ length: 8 }, () => c.delivery(20, '2026-12-01T10:00:00Z')));
    const pending = deliveries.map((delivery) => webhook.handle(delivery));
    const answered: Awaited<(typeof pending)[number]>[] = [];
    for (const promise of pending) void promise.then((result) => answered.push(result));
    await vi.waitFor(() => expect(answered).toHaveLength(7), { timeout: 5_000 });
    for (const result of answered) {
      expect(result.response.status).toBe(409); // in progress: the provider redelivers later
      expect(result.response.headers['retry-after']).toMatch(/^\d+$/);
      expect(JSON.parse(decode(result.response.body)).code).toBe('in_progress');
    }
    release();
    const all = await Promise.all(pending);
    expect(all.filter((result) => result.outcomes[0]?.outcome === 'processed')).toHaveLength(1);
    expect(runs).toBe(1);
    // the provider's later redelivery is acknowledged without a second run
    const later = await webhook.handle(deliveries[0]!);
    expect(later.response.status).toBe(200);
    expect(later.outcomes[0]?.outcome).toBe('duplicate');
    expect(runs).toBe(1);
  });
});

describe('provider specifics', () => {
  it('adyen: a batch is verified whole; one bad item refuses all, nothing stored', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const webhook = createWebhookHandler({ idempotency, provider: adyenProvider({ validator: adyenValidator, hmacKey: ADYEN_HMAC_KEY }), handler: counter.handler });
    const good = adyenItem('PSP100', 'AUTHORISATION');
    const bad = { ...adyenItem('PSP101', 'CAPTURE'), success: 'false' }; // signed as success=true, altered
    expect((await webhook.handle(adyenDelivery([good, bad]))).response.status).toBe(400);
    expect(store.records.size).toBe(0);
    const batch = await webhook.handle(adyenDelivery([good, adyenItem('PSP101', 'CAPTURE'), adyenItem('PSP101', 'CAPTURE', 'false')]));
    expect(decode(batch.response.body)).toBe('[accepted]');
    expect(batch.response.headers['content-type']).toBe('text/plain');
    expect(batch.outcomes.map((o) => o.id)).toEqual(['PSP100:AUTHORISATION:true', 'PSP101:CAPTURE:true', 'PSP101:CAPTURE:false']);
    expect([...store.records.values()].map((r) => `${r.scope}/${r.key}`).sort()).toEqual([
      'AcmeECOM/adyen:PSP100:AUTHORISATION:true',
      'AcmeECOM/adyen:PSP101:CAPTURE:false',
      'AcmeECOM/adyen:PSP101:CAPTURE:true',
    ]);
    // a redelivered batch with one new item runs only the new one
    const again = await webhook.handle(adyenDelivery([good, adyenItem('PSP102', 'REFUND')]));
    expect(again.outcomes).toEqual([
      { id: 'PSP100:AUTHORISATION:true', outcome: 'duplicate' },
      { id: 'PSP102:REFUND:true', outcome: 'processed' },
    ]);
    expect(counter.total()).toBe(4);
  });

  it('adyen: a failing item leaves the processed ones recorded; the redelivery runs only the rest', async () => {
    const { idempotency } = engine();
    let failOnce = true;
    const ran: string[] = [];
    const webhook = createWebhookHandler({
      idempotency,
      provider: adyenProvider({ validator: adyenValidator, hmacKey: ADYEN_HMAC_KEY }),
      handler: (event) => {
        if (event.id.startsWith('PSP201') && failOnce) {
          failOnce = false;
          throw new Error('ledger briefly down');
        }
        ran.push(event.id);
      },
    });
    const delivery = adyenDelivery([adyenItem('PSP200', 'AUTHORISATION'), adyenItem('PSP201', 'AUTHORISATION')]);
    const failed = await webhook.handle(delivery);
    expect(failed.response.status).toBe(500);
    expect(JSON.parse(decode(failed.response.body)).code).toBe('handler_failed');
    const retried = await webhook.handle(delivery);
    expect(decode(retried.response.body)).toBe('[accepted]');
    expect(ran).toEqual(['PSP200:AUTHORISATION:true', 'PSP201:AUTHORISATION:true']);
  });

  it('stripe: a Connect event is scoped to its account; a platform event to the configured account', async () => {
    const { idempotency, store } = engine();
    const webhook = createWebhookHandler({ idempotency, provider: stripeProvider({ stripe, secret: STRIPE_SECRET, account: 'acct_platform' }), handler: () => {} });
    await webhook.handle(stripeDelivery('evt_connect', 1_700_000_000, { account: 'acct_123' }));
    await webhook.handle(stripeDelivery('evt_platform', 1_700_000_000));
    expect([...store.records.values()].map((r) => `${r.scope}/${r.key}`).sort()).toEqual(['acct_123/stripe:evt_connect', 'acct_platform/stripe:evt_platform']);
  });

  it('stripe: a signature older than the tolerance is refused', async () => {
    const { idempotency } = engine();
    const webhook = createWebhookHandler({ idempotency, provider: stripeProvider({ stripe, secret: STRIPE_SECRET }), handler: () => {} });
    const body = JSON.stringify({ id: 'evt_old', object: 'event', type: 'x', created: 1 });
    const header = stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const { response } = await webhook.handle({ rawBody: new TextEncoder().encode(body), headers: { 'stripe-signature': header } });
    expect(response.status).toBe(400);
  });

  it('paypal: verification asks the API once per delivery with a cached token; an unreachable API answers 503', async () => {
    const before = { verify: paypal.verifyCalls, token: paypal.tokenCalls };
    const { idempotency, store } = engine();
    const verify = createPayPalVerifier({ clientId: 'client', clientSecret: 'secret', baseUrl: paypal.baseUrl });
    const webhook = createWebhookHandler({ idempotency, provider: paypalProvider({ verify, webhookId: 'WH-ID-1' }), handler: () => {} });
    await webhook.handle(paypalDelivery('WH-EVT-A', '2026-12-01T10:00:00Z'));
    await webhook.handle(paypalDelivery('WH-EVT-A', '2026-12-01T10:00:00Z'));
    expect(paypal.verifyCalls - before.verify).toBe(2);
    expect(paypal.tokenCalls - before.token).toBe(1);
    const offline = createWebhookHandler({
      idempotency,
      provider: paypalProvider({ verify: createPayPalVerifier({ clientId: 'client', clientSecret: 'secret', baseUrl: 'http://127.0.0.1:9', timeoutMs: 500 }), webhookId: 'WH-ID-1' }),
      handler: () => {},
    });
    const { response } = await offline.handle(paypalDelivery('WH-EVT-B', '2026-12-01T10:00:00Z'));
    expect(response.status).toBe(503);
    expect(JSON.parse(decode(response.body)).code).toBe('verification_unavailable');
    expect(store.records.size).toBe(1);
  });

  it('standard webhooks: an id outside the key charset is hashed, still deduped', async () => {
    const { idempotency, store } = engine();
    const counter = countingHandler();
    const webhook = createWebhookHandler({ idempotency, provider: standardWebhooksProvider({ webhook: new Webhook(STANDARD_SECRET), account: 'acme' }), handler: counter.handler });
    await webhook.handle(standardDelivery('msg with spaces/and#signs', '2026-12-01T10:00:00Z'));
    await webhook.handle(standardDelivery('msg with spaces/and#signs', '2026-12-01T10:00:00Z'));
    expect(counter.total()).toBe(1);
    expect([...store.records.values()][0]!.key).toMatch(/^standard-webhooks:h:[0-9a-f]{64}$/);
  });

  it('a permanent handler failure is recorded and acknowledged, and its redelivery too', async () => {
    const { store } = engine();
    const { createIdempotency } = await import('../../src/core/engine.js');
    const idempotency = createIdempotency({ store, isPermanent: (error) => error instanceof RangeError });
    let runs = 0;
    const webhook = createWebhookHandler({
      idempotency,
      provider: stripeProvider({ stripe, secret: STRIPE_SECRET }),
      handler: () => {
        runs++;
        throw new RangeError('unknown price');
      },
    });
    const first = await webhook.handle(stripeDelivery('evt_poison', 1));
    const second = await webhook.handle(stripeDelivery('evt_poison', 1));
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    expect([first.outcomes[0]?.outcome, second.outcomes[0]?.outcome]).toEqual(['failed-permanently', 'failed-permanently']);
    expect(runs).toBe(1);
    expect([...store.records.values()][0]!.status).toBe('FAILED');
  });

  it('validates options at creation', () => {
    const { idempotency } = engine();
    expect(() => stripeProvider({ stripe: {} as never, secret: 'x' })).toThrow(/stripe/);
    expect(() => adyenProvider({ validator: adyenValidator, hmacKey: 'not-hex' })).toThrow(/hmacKey/);
    expect(() => githubProvider({ verify: octokitVerify, secret: '' })).toThrow(/secret/);
    expect(() => createWebhookHandler({ idempotency, provider: stripeProvider({ stripe, secret: 'x' }), handler: () => {}, scope: 'bad scope' })).toThrow(/scope/);
  });
});
