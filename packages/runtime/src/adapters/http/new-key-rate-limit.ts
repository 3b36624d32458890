/**
 * The spec's `keys_created_per_user` limit: how many NEW keys one principal may open per window.
 * Replays, in-progress answers and mismatches cost nothing; only a claim that runs the handler
 * does. Counting is rate-limiter-flexible's: in memory by default, or any of its backends
 * (RateLimiterRedis for many instances) passed as `limiter`.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { InvalidOptionsError } from '../../core/errors.js';

/** What is used of a rate-limiter-flexible limiter (any backend). */
export interface RateLimiterLike {
  /** Resolves when allowed; rejects with `{ msBeforeNext }` when over, or an Error when its store fails. */
  consume(key: string, points?: number): Promise<unknown>;
}

export type NewKeyRateLimitOptions =
  | {
      /** New keys one principal may create per window, e.g. 100. */
      readonly newKeysPerWindow: number;
      /** Window length; at least 1000 ms. */
      readonly windowMs: number;
    }
  | {
      /** Bring your own: `new RateLimiterRedis({ storeClient, points: 100, duration: 60 })`. */
      readonly limiter: RateLimiterLike;
    };

export type RateDecision =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'limited'; readonly retryAfterMs: number }
  | { readonly kind: 'unavailable'; readonly cause: unknown };

export type NewKeyLimiter = (principal: string) => Promise<RateDecision>;

/**
 * Validates the option once and returns the per-request check.
 * @example
 * const check = createNewKeyLimiter({ newKeysPerWindow: 100, windowMs: 60_000 });
 * (await check('user-42')).kind // 'allowed'
 */
export function createNewKeyLimiter(options: NewKeyRateLimitOptions): NewKeyLimiter {
  let limiter: RateLimiterLike;
  if ('limiter' in options) {
    if (typeof options.limiter?.consume !== 'function') {
      throw new InvalidOptionsError('Option "rateLimit.limiter" must be a rate-limiter-flexible limiter (with consume()).');
    }
    limiter = options.limiter;
  } else {
    const { newKeysPerWindow, windowMs } = options;
    if (!Number.isInteger(newKeysPerWindow) || newKeysPerWindow < 1) {
      throw new InvalidOptionsError('Option "rateLimit.newKeysPerWindow" must be an integer >= 1.');
    }
    if (!Number.isInteger(windowMs) || windowMs < 1000) {
      throw new InvalidOptionsError('Option "rateLimit.windowMs" must be an integer >= 1000.');
    }
    // rate-limiter-flexible counts in seconds; the option stays in ms like every duration here.
    limiter = new RateLimiterMemory({ points: newKeysPerWindow, duration: windowMs / 1000 });
  }

  return async (principal) => {
    try {
      await limiter.consume(principal, 1);
      return { kind: 'allowed' };
    } catch (rejection) {
      if (rejection instanceof Error) return { kind: 'unavailable', cause: rejection };
      const msBeforeNext = (rejection as { msBeforeNext?: unknown } | null)?.msBeforeNext;
      return { kind: 'limited', retryAfterMs: typeof msBeforeNext === 'number' ? msBeforeNext : 1000 };
    }
  };
}
