/**
 * The engine switched off (`enabled: false`, for tests): `begin()` validates the request and
 * hands back a claim that holds nothing, so every call runs its work and nothing is stored.
 */
import type { Begin } from './begin.js';
import type { HeldClaim } from './held-claim.js';
import type { ResolvedOptions } from './options.js';
import { validateRunRequest } from './run-request.js';

/** The warning every disabled engine logs once, at creation. */
export const DISABLED_WARNING = 'idempotency is DISABLED (enabled: false): every request runs, nothing is deduplicated. Never use this in production.';

/**
 * `begin` of a disabled engine; warns once at creation through the logger and `process.emitWarning`.
 * @example const begin = createDisabledBegin(resolveOptions({ store, enabled: false }));
 */
export function createDisabledBegin(resolved: ResolvedOptions): Begin {
  resolved.logger.warn({}, DISABLED_WARNING);
  // Also where nobody configured a logger: a test switch that leaks into production must be seen.
  process.emitWarning(DISABLED_WARNING, { code: 'IDEMPOTENCY_DISABLED' });
  return async function begin<T>(request: Parameters<Begin>[0], options: Parameters<Begin>[1] = {}) {
    validateRunRequest(request, resolved.maxKeyLength);
    const caller = typeof options.signal === 'function' ? options.signal() : options.signal;
    const signal = caller ?? new AbortController().signal;
    const held: HeldClaim<T> = {
      outcome: 'claimed',
      lockVersion: 0,
      reclaimed: false,
      signal,
      lost: false,
      complete: async () => undefined,
      fail: async () => undefined,
      release: async () => true,
    };
    return held;
  };
}
