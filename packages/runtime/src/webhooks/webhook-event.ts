/** What every webhook provider yields after verification, and the errors of a refused delivery. */
import { IdempotencyError } from '../core/errors.js';

/** The request as the provider sent it: exact body bytes (never re-serialized) and lower-case headers. */
export interface WebhookRequest {
  readonly rawBody: Uint8Array;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** One verified event (an Adyen batch yields several). */
export interface WebhookEvent<P = unknown> {
  /** `stripe`, `adyen`, `paypal`, `standard-webhooks`, `github` or your own provider's name. */
  readonly provider: string;
  /** The provider's event identity, stable across its retries: the dedupe key. */
  readonly id: string;
  /** Event type (`payment_intent.succeeded`, `AUTHORISATION`, `push`, …). */
  readonly type: string;
  /** The provider account the event belongs to: the default idempotency scope. */
  readonly account: string;
  /**
   * When the provider created the event (not when it was delivered), or null when the provider
   * does not say. The runtime dedupes; it never reorders: compare this with your own state.
   */
  readonly createdAt: Date | null;
  readonly payload: P;
}

/**
 * A provider: verifies a delivery with the provider's own SDK and yields its events. Throws
 * `WebhookVerificationError` (bad or missing signature) or `WebhookPayloadError` (verified but
 * unreadable) — nothing is claimed or stored then.
 */
export interface WebhookProvider<P = unknown> {
  readonly name: string;
  verify(request: WebhookRequest): Promise<readonly WebhookEvent<P>[]>;
  /** The 2xx body the provider expects (Adyen: `[accepted]`). Default `{"received":true}`. */
  readonly accepted?: { readonly contentType: string; readonly body: string };
}

/** The signature is missing, malformed, stale or wrong: answered 400, nothing stored. */
export class WebhookVerificationError extends IdempotencyError {
  declare readonly code: 'invalid_signature';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_signature', message, options);
  }
}

/** The delivery is authentic but lacks what the provider promises (no event id, bad JSON). */
export class WebhookPayloadError extends IdempotencyError {
  declare readonly code: 'invalid_payload';

  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_payload', message, options);
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The raw body as text; a body that is not UTF-8 cannot carry a JSON event. */
export function bodyText(request: WebhookRequest): string {
  try {
    return utf8.decode(request.rawBody);
  } catch (error) {
    throw new WebhookPayloadError('The webhook body is not UTF-8.', { cause: error });
  }
}

/** JSON of a verified body, or `WebhookPayloadError`. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new WebhookPayloadError('The webhook body is not JSON.', { cause: error });
  }
}

/** A header that must be present; its absence is a verification failure, not a server error. */
export function requiredHeader(request: WebhookRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string' || value.length === 0) throw new WebhookVerificationError(`Missing ${name} header.`);
  return value;
}

/** Seconds or an ISO string to a Date; anything unreadable is null (the handler decides). */
export function toDate(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value)) return new Date(value * 1000);
  if (typeof value === 'string' && value.length > 0) {
    const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
    return Number.isFinite(ms) ? new Date(ms) : null;
  }
  return null;
}

/** Lower-case header names with one string per header (Node gives arrays for repeats). */
export function normalizeHeaders(headers: Readonly<Record<string, string | readonly string[] | number | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}
