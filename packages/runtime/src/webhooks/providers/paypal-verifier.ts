/** The PayPal verifier that asks PayPal: OAuth client-credentials token, then verify-webhook-signature. */
import { InvalidOptionsError } from '../../core/errors.js';
import type { PayPalVerifier } from './paypal.js';

export interface PayPalVerifierOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Default the live API; `https://api-m.sandbox.paypal.com` for the sandbox; a local fake in tests. */
  readonly baseUrl?: string;
  /** Injected for tests and runtimes without a global fetch. */
  readonly fetch?: typeof fetch;
  /** Per-request timeout. Default 10 s. */
  readonly timeoutMs?: number;
}

/**
 * A verifier that calls PayPal. The access token is cached until a minute before it expires.
 * @example const verify = createPayPalVerifier({ clientId, clientSecret, baseUrl: 'https://api-m.sandbox.paypal.com' });
 */
export function createPayPalVerifier({
  clientId,
  clientSecret,
  baseUrl = 'https://api-m.paypal.com',
  fetch: fetchImpl = globalThis.fetch,
  timeoutMs = 10_000,
}: PayPalVerifierOptions): PayPalVerifier {
  if (!clientId || !clientSecret) throw new InvalidOptionsError('Options "clientId" and "clientSecret" are required.');
  if (typeof fetchImpl !== 'function') throw new InvalidOptionsError('No fetch available: pass options.fetch.');
  const base = baseUrl.replace(/\/+$/, '');
  let token: { value: string; until: number } | undefined;

  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const response = await fetchImpl(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`PayPal token request failed with ${response.status}.`);
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error('PayPal token response has no access_token.');
    token = { value: body.access_token, until: Date.now() + Math.max(0, (body.expires_in ?? 0) - 60) * 1000 };
    return token.value;
  }

  return async function verifyWithPayPal(request) {
    const response = await fetchImpl(`${base}/v1/notifications/verify-webhook-signature`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status === 401) token = undefined;
    if (!response.ok) throw new Error(`PayPal verify-webhook-signature failed with ${response.status}.`);
    const body = (await response.json()) as { verification_status?: string };
    return body.verification_status === 'SUCCESS';
  };
}
