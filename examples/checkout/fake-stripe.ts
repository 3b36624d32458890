/**
 * A stand-in for api.stripe.com on 127.0.0.1 so the example runs offline: PaymentIntents create
 * with Stripe's idempotency semantics (same Idempotency-Key → the cached answer, marked
 * `Idempotent-Replayed: true`), and a declined card for `pm_card_chargeDeclined`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripe {
  readonly port: number;
  /** PaymentIntents created (charges), whatever the number of requests. */
  readonly charges: { id: string; amount: number; idempotencyKey: string | null }[];
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port. */
export async function startFakeStripe(): Promise<FakeStripe> {
  const charges: FakeStripe['charges'] = [];
  const cache = new Map<string, { status: number; body: string }>();
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      const cached = key ? cache.get(key) : undefined;
      if (cached) {
        res.writeHead(cached.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return res.end(cached.body);
      }
      const form = new URLSearchParams(text);
      let status = 200;
      let body: string;
      if (form.get('payment_method') === 'pm_card_chargeDeclined') {
        status = 402;
        body = JSON.stringify({ error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } });
      } else {
        const intent = { id: `pi_${charges.length + 1}`, object: 'payment_intent', amount: Number(form.get('amount')), currency: form.get('currency'), status: 'succeeded' };
        charges.push({ id: intent.id, amount: intent.amount, idempotencyKey: key });
        body = JSON.stringify(intent);
      }
      if (key) cache.set(key, { status, body });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    charges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
