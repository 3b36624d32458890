/** The core's stable error codes as data (docs/errors.md): what `IdempotencyError.code` can be. */
export { ERROR_CODES, type IdempotencyErrorCode } from '../core/errors.js';
