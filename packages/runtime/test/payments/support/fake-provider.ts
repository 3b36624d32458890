/**
 * A fake payment provider for the tests, on 127.0.0.1 and a free port, speaking just enough of
 * Stripe (PaymentIntents create/search), Adyen Checkout (/payments) and PayPal Orders (OAuth token,
 * create order) for the real SDKs. It dedupes by each provider's idempotency header like the real
 * ones do, and records every request's idempotency header and reference.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, createServer as createTlsServer, type AgentOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';

export interface RecordedRequest {
  readonly provider: 'stripe' | 'adyen' | 'paypal';
  readonly method: string;
  readonly path: string;
  /** Stripe/Adyen `Idempotency-Key`, PayPal `PayPal-Request-Id`. */
  readonly idempotencyKey: string | null;
  /** Adyen `reference`. */
  readonly reference: string | null;
}

export interface Charge {
  readonly id: string;
  readonly provider: 'stripe' | 'adyen' | 'paypal';
  readonly amount: number;
  readonly currency: string;
  readonly metadata: Record<string, string>;
}

export interface FakeProvider {
  readonly port: number;
  readonly url: string;
  /** The same fake over TLS, for SDKs that only speak https (Adyen, PayPal). */
  readonly tlsPort: number;
  /** PEM of the fake's self-signed certificate (CN fits Adyen's pinned-certificate check). */
  readonly certificatePath: string;
  readonly certificate: Buffer;
  /** An https agent that sends every connection (whatever host) to the fake's TLS port, trusting its certificate. */
  readonly redirectingAgent: HttpsAgent;
  readonly requests: RecordedRequest[];
  /** Every charge (object) the provider created: the count a test compares with 1. */
  readonly charges: Charge[];
  /** Delay the answer (not the processing) of the next `count` Stripe creates: the client times out, the charge exists. */
  delayNextStripeCreates(count: number, ms: number): void;
  /** Adds a charge as if a second, unkeyed request had charged the same intent (split brain). */
  addStripeCharge(charge: Omit<Charge, 'id' | 'provider'>): Charge;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (data += chunk));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts the fake on 127.0.0.1:0. */
export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: RecordedRequest[] = [];
  const charges: Charge[] = [];
  const cache = new Map<string, { status: number; body: string }>();
  let delays: number[] = [];
  let seq = 0;

  const stripeIntent = (charge: Charge) => ({
    id: charge.id,
    object: 'payment_intent',
    amount: charge.amount,
    currency: charge.currency,
    status: 'succeeded',
    metadata: charge.metadata,
  });

  function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++seq}`, ...headers });
    res.end(body);
  }

  async function stripe(req: IncomingMessage, res: ServerResponse, path: string, url: URL) {
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ provider: 'stripe', method: req.method!, path, idempotencyKey: key, reference: null });
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const form = new URLSearchParams(await readBody(req));
      const cached = key ? cache.get(`stripe:${key}`) : undefined;
      if (cached) return send(res, cached.status, cached.body, { 'idempotent-replayed': 'true', 'idempotency-key': key! });
      const metadata: Record<string, string> = {};
      for (const [name, value] of form) {
        const match = /^metadata\[(.+)\]$/.exec(name);
        if (match) metadata[match[1]!] = value;
      }
      const charge: Charge = { id: `pi_${++seq}`, provider: 'stripe', amount: Number(form.get('amount')), currency: form.get('currency') ?? 'eur', metadata };
      charges.push(charge);
      const body = JSON.stringify(stripeIntent(charge));
      if (key) cache.set(`stripe:${key}`, { status: 200, body });
      const delay = delays.shift();
      if (delay) await sleep(delay);
      if (res.destroyed) return;
      return send(res, 200, body, key ? { 'idempotency-key': key } : {});
    }
    if (req.method === 'GET' && path === '/v1/payment_intents/search') {
      // Only the shape stripeLookup sends: metadata['a']:'x' AND metadata['b']:'y'.
      const query = url.searchParams.get('query') ?? '';
      const clauses = [...query.matchAll(/metadata\['((?:[^'\\]|\\.)*)'\]:'((?:[^'\\]|\\.)*)'/g)].map((m) => [m[1]!.replace(/\\(.)/g, '$1'), m[2]!.replace(/\\(.)/g, '$1')]);
      const data = charges.filter((c) => c.provider === 'stripe' && clauses.every(([name, value]) => c.metadata[name!] === value)).map(stripeIntent);
      return send(res, 200, JSON.stringify({ object: 'search_result', url: path, has_more: false, data, next_page: null }));
    }
    return send(res, 404, JSON.stringify({ error: { type: 'invalid_request_error', message: `no route ${path}` } }));
  }

  async function adyen(req: IncomingMessage, res: ServerResponse, path: string) {
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    const body = JSON.parse((await readBody(req)) || '{}') as { reference?: string; amount?: { value: number; currency: string } };
    requests.push({ provider: 'adyen', method: req.method!, path, idempotencyKey: key, reference: body.reference ?? null });
    const cached = key ? cache.get(`adyen:${key}`) : undefined;
    if (cached) return send(res, cached.status, cached.body);
    const charge: Charge = { id: `PSP${++seq}`, provider: 'adyen', amount: body.amount?.value ?? 0, currency: body.amount?.currency ?? 'EUR', metadata: { reference: body.reference ?? '' } };
    charges.push(charge);
    const answer = JSON.stringify({ pspReference: charge.id, resultCode: 'Authorised', merchantReference: body.reference, amount: body.amount });
    if (key) cache.set(`adyen:${key}`, { status: 200, body: answer });
    return send(res, 200, answer);
  }

  async function paypal(req: IncomingMessage, res: ServerResponse, path: string) {
    const key = (req.headers['paypal-request-id'] as string | undefined) ?? null;
    const text = await readBody(req);
    requests.push({ provider: 'paypal', method: req.method!, path, idempotencyKey: key, reference: null });
    if (path === '/v1/oauth2/token') return send(res, 200, JSON.stringify({ access_token: 'A21-fake', token_type: 'Bearer', expires_in: 32400 }));
    if (req.method === 'POST' && path === '/v2/checkout/orders') {
      const cached = key ? cache.get(`paypal:${key}`) : undefined;
      if (cached) return send(res, cached.status, cached.body);
      const body = JSON.parse(text || '{}') as { purchase_units?: { amount?: { value?: string; currency_code?: string } }[] };
      const amount = body.purchase_units?.[0]?.amount;
      const charge: Charge = { id: `ORDER${++seq}`, provider: 'paypal', amount: Number(amount?.value ?? 0), currency: amount?.currency_code ?? 'USD', metadata: {} };
      charges.push(charge);
      const answer = JSON.stringify({ id: charge.id, status: 'CREATED', purchase_units: body.purchase_units });
      if (key) cache.set(`paypal:${key}`, { status: 201, body: answer });
      return send(res, 201, answer);
    }
    return send(res, 404, JSON.stringify({ name: 'RESOURCE_NOT_FOUND' }));
  }

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // PayPal's SDK reaches us as an HTTP proxy: its request line carries the absolute https URL.
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const handler = path.startsWith('/v1/payment_intents') ? stripe(req, res, path, url) : /^\/v\d+\/payments/.test(path) ? adyen(req, res, path) : paypal(req, res, path);
    handler.catch((error: unknown) => send(res, 500, JSON.stringify({ error: String(error) })));
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  // A throwaway self-signed certificate: valid for 127.0.0.1 and PayPal's sandbox host name.
  const dir = mkdtempSync(join(tmpdir(), 'fake-provider-'));
  const certificatePath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=fake-provider.test.terminal.adyen.com',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:api-m.sandbox.paypal.com',
    '-keyout', keyPath, '-out', certificatePath,
  ], { stdio: 'ignore' });
  const certificate = readFileSync(certificatePath);
  const tls = createTlsServer({ cert: certificate, key: readFileSync(keyPath) }, handle);
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  const tlsPort = (tls.address() as AddressInfo).port;

  class RedirectingAgent extends HttpsAgent {
    override createConnection(options: AgentOptions & { servername?: string; host?: string }) {
      return tlsConnect({ host: '127.0.0.1', port: tlsPort, ca: certificate, servername: options.servername ?? options.host ?? 'localhost' });
    }
  }
  const redirectingAgent = new RedirectingAgent({ keepAlive: false });

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    tlsPort,
    certificatePath,
    certificate,
    redirectingAgent,
    requests,
    charges,
    delayNextStripeCreates(count, ms) {
      delays = Array.from({ length: count }, () => ms);
    },
    addStripeCharge(charge) {
      const added: Charge = { ...charge, id: `pi_${++seq}`, provider: 'stripe' };
      charges.push(added);
      return added;
    },
    async close() {
      redirectingAgent.destroy();
      for (const each of [server, tls]) {
        each.closeAllConnections();
        await new Promise<void>((resolve) => each.close(() => resolve()));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
