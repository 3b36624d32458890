/** Idempotency keys from provider event ids: readable when they fit the key charset, hashed otherwise. */
import { fingerprintFields } from '../core/fingerprint.js';
import { MAX_KEY_LENGTH } from '../core/key.js';

const KEY_PART = /^[A-Za-z0-9_.:~-]+$/;

/**
 * `provider:id` (e.g. `stripe:evt_1Nx…`), or `provider:h:<sha256>` for an id with characters a
 * key may not hold — a Standard Webhooks sender may use any string as `webhook-id`.
 * @example eventKey('github', '72d3162e-cc78-11e3-81ab-4c9367dc0958') // 'github:72d3162e-…'
 */
export function eventKey(provider: string, id: string): string {
  const key = `${provider}:${id}`;
  if (KEY_PART.test(key) && key.length <= MAX_KEY_LENGTH) return key;
  return `${provider.replace(/[^A-Za-z0-9_.~-]/g, '-').slice(0, 100)}:h:${fingerprintFields([id])}`;
}
