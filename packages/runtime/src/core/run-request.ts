/** Validation of one request to the engine, shared by `begin()`/`run()` and transactional mode. */
import { isFingerprint } from './fingerprint.js';
import { GLOBAL_SCOPE, validateKey, validateScope } from './key.js';

/** What identifies one protected request. */
export interface RunRequest {
  /** The idempotency key, validated: 1..255 chars of `[A-Za-z0-9_.:~-]`. */
  readonly key: string;
  /** The authenticated user/account/tenant id, or `'global'` by explicit choice. */
  readonly scope: string;
  /** SHA-256 hex of the significant fields (see `fingerprintFields` / `fingerprintJson`). */
  readonly fingerprint: string;
  /**
   * With `scope: 'global'`: the caller's identity. A key created by another owner answers
   * `key_not_found`, never that owner's response.
   */
  readonly owner?: string;
}

/**
 * Checks key, scope, fingerprint and owner before anything touches the store; throws
 * `InvalidKeyError`, `InvalidScopeError` or a `TypeError` for a programming error.
 * @example validateRunRequest({ key, scope: user.id, fingerprint }, 255);
 */
export function validateRunRequest(request: RunRequest, maxKeyLength?: number): void {
  validateKey(request?.key, maxKeyLength);
  validateScope(request.scope);
  if (!isFingerprint(request.fingerprint)) {
    throw new TypeError('request.fingerprint must be 64 lowercase hex characters (SHA-256).');
  }
  if (request.owner !== undefined && request.scope !== GLOBAL_SCOPE) {
    throw new TypeError('request.owner only applies to scope "global"; scope the key to the user instead.');
  }
}
