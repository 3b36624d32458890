/** Claim inputs and outcome filters shared by the store race tests. */
import { fingerprintFields } from '../../src/index.js';
import type { ClaimInput, ClaimResult } from '../../src/core/store-contract.js';

/** The fingerprint the race tests claim with. */
export const RACE_FINGERPRINT = fingerprintFields(['race', 1]);

/**
 * A claim of `key` for user-1: 30 s lease, 60 s ttl, expired records replaced.
 * @example await store.claim(claimInput('k', { leaseMs: 50 }))
 */
export const claimInput = (key: string, overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  key,
  scope: 'user-1',
  fingerprint: RACE_FINGERPRINT,
  owner: null,
  leaseMs: 30_000,
  ttlMs: 60_000,
  replaceExpired: true,
  ...overrides,
});

/** The claims that won. */
export const winnersOf = (results: readonly ClaimResult[]) => results.flatMap((r) => (r.outcome === 'claimed' ? [r] : []));

/** The claims that found the record instead. */
export const losersOf = (results: readonly ClaimResult[]) => results.flatMap((r) => (r.outcome === 'existing' ? [r] : []));
