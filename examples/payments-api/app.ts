/**
 * The payments API: `POST /payments` runs at most once per Idempotency-Key and user, `GET
 * /payments` lists the caller's payments. Everything idempotency-related is the one middleware.
 */
import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { idempotencyMiddleware } from '@idempotency-builder/runtime/express';
import type { Idempotency } from '@idempotency-builder/runtime';
import type { Ledger } from './ledger.js';
import type { MetricsExposition } from './metrics.js';

/**
 * The demo's whole authentication: a fixed token -> user map. Use your real auth; what matters is
 * that the idempotency scope is the authenticated user, never something the client picks.
 */
export const DEMO_TOKENS: Readonly<Record<string, string>> = {
  'tok_alice': 'user_alice',
  'tok_bob': 'user_bob',
};

export function userFromAuthorization(header: string | undefined): string | undefined {
  const token = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  return token === undefined ? undefined : DEMO_TOKENS[token];
}

/** Stands in for the call to a payment provider (where the money moves). */
const PROVIDER_LATENCY_MS = 50;

/** A refusal as RFC 9457 problem+json: the same shape the idempotency middleware answers with. */
function sendProblem(res: Response, status: number, code: string, title: string): void {
  res.status(status).type('application/problem+json').json({ type: `urn:idempotency-builder:problem:${code}`, title, status, code });
}

/**
 * Express's default error handler answers a body parser's refusal with an HTML page and, outside
 * production, a stack trace. Here every error is problem+json; a client's mistake keeps its 4xx.
 */
function problemErrors(error: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (res.headersSent) return next(error);
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.parse.failed') return sendProblem(res, 400, 'invalid_body', 'The request body is not valid JSON.');
  if (type === 'entity.too.large') return sendProblem(res, 413, 'body_too_large', 'The request body is too large.');
  if (typeof status === 'number' && status >= 400 && status < 500) return sendProblem(res, status, 'bad_request', 'The request was refused.');
  console.error(error); // for the operator's log; the client gets no detail
  sendProblem(res, 500, 'internal_error', 'The request could not be processed.');
}

export function createPaymentsApp({ idempotency, ledger, metrics }: { idempotency: Idempotency; ledger: Ledger; metrics?: MetricsExposition }): express.Express {
  const app = express();
  if (metrics) {
    // Prometheus scrapes this. It names no user and no key (scope_bucket is 1 of 64 hashes), but
    // in production serve it on an internal port or behind the scraper's credentials.
    app.get('/metrics', async (_req: Request, res: Response) => {
      res.type(metrics.contentType).send(await metrics.metrics());
    });
  }
  app.use(express.json({ limit: '16kb' })); // a payment is a few fields: refuse anything larger (413)

  const requireUser = (req: Request, res: Response, next: NextFunction) => {
    if (userFromAuthorization(req.get('authorization'))) return next();
    res.status(401).type('application/problem+json').json({ type: 'about:blank', title: 'Unknown or missing bearer token.', status: 401 });
  };

  const idempotent = idempotencyMiddleware({
    idempotency,
    // Keys are scoped to the authenticated user: two users can never see each other's responses.
    scope: (req) => userFromAuthorization(req.headers.authorization as string | undefined),
    // The fields that make the intent. A retry with the same key and other values gets a 409.
    fingerprint: { bodyFields: ['amount', 'currency', 'recipient_id'] },
    // Abuse guard: at most 100 new payment keys per user per minute (429 past it).
    rateLimit: { newKeysPerWindow: 100, windowMs: 60_000 },
  });

  app.post('/payments', requireUser, idempotent, async (req: Request, res: Response) => {
    const { amount, currency, recipient_id: recipientId } = (req.body ?? {}) as Record<string, unknown>;
    if (!Number.isInteger(amount) || (amount as number) <= 0 || typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency) || typeof recipientId !== 'string' || recipientId === '') {
      // A 4xx like this is deterministic: it is stored and replayed for the same key.
      res.status(422).type('application/problem+json').json({
        type: 'about:blank',
        title: 'amount (positive integer, minor units), currency (ISO 4217) and recipient_id are required.',
        status: 422,
      });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, PROVIDER_LATENCY_MS));
    const payment = await ledger.insert({
      id: `pay_${randomUUID()}`,
      userId: userFromAuthorization(req.get('authorization'))!,
      amount: amount as number,
      currency,
      recipientId,
      idempotencyKey: req.get('idempotency-key')!,
    });
    res.status(201).location(`/payments/${payment.id}`).json(payment);
  });

  app.get('/payments', requireUser, async (req: Request, res: Response) => {
    res.json({ payments: await ledger.listFor(userFromAuthorization(req.get('authorization'))!) });
  });

  app.use(problemErrors); // last: after every route
  return app;
}
