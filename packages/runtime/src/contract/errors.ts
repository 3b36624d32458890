/** The core's stable error codes as data (docs/errors.md): what `IdempotencyError.code` can be. */
import type { IdempotencyErrorCode } from '../core/errors.js';

/**
 * Every `IdempotencyErrorCode`. The type check below fails the build when a code is added to the
 * core without being listed here.
 * @example ERROR_CODES.includes('lease_lost') // true
 */
export const ERROR_CODES = [
  'invalid_key',
  'invalid_scope',
  'invalid_options',
  'fingerprint_mismatch',
  'in_progress',
  'key_not_found',
  'expired_key_rejected',
  'store_unavailable',
  'lease_lost',
  'replayed_failure',
  'store_busy',
  'execution_timeout',
  'result_not_serializable',
] as const satisfies readonly IdempotencyErrorCode[];

type Missing = Exclude<IdempotencyErrorCode, (typeof ERROR_CODES)[number]>;
// Compile-time exhaustiveness: `never` unless a core code is missing from the list.
const exhaustive: [Missing] extends [never] ? true : Missing = true;
void exhaustive;
