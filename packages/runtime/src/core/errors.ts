/**
 * Typed errors. Callers branch on `instanceof` or on the literal `code`; the codes are a stable,
 * documented set (docs/errors.md) that HTTP adapters map to statuses. The core never knows HTTP.
 */

/** Every code an `IdempotencyError` can carry: the stable, documented set (docs/errors.md). */
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
  'unhashable_input',
  'invalid_body',
  'unsupported_media_type',
  'body_too_large',
  'response_unreadable',
  'invalid_signature',
  'invalid_payload',
] as const;

export type IdempotencyErrorCode = (typeof ERROR_CODES)[number];

export class IdempotencyError extends Error {
  readonly code: IdempotencyErrorCode;

  constructor(code: IdempotencyErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The key is empty, too long, or has characters outside `[A-Za-z0-9_.:~-]`. */
export class InvalidKeyError extends IdempotencyError {
  constructor(message: string) {
    super('invalid_key', message);
  }
}

/** The scope (user, account, tenant) is missing or malformed. */
export class InvalidScopeError extends IdempotencyError {
  constructor(message: string) {
    super('invalid_scope', message);
  }
}

/** A factory was given a bad option; the message names the field. Thrown at creation only. */
export class InvalidOptionsError extends IdempotencyError {
  constructor(message: string) {
    super('invalid_options', message);
  }
}

/**
 * The key was used before with other parameters. Deliberately says nothing about the original
 * request: neither its body nor its fingerprint.
 */
export class FingerprintMismatchError extends IdempotencyError {
  constructor() {
    super('fingerprint_mismatch', 'This idempotency key was already used with different request parameters.');
  }
}

/** Another holder is still processing this key; `retryAfterMs` is when its lease ends. */
export class InProgressError extends IdempotencyError {
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number) {
    // A refusal, not a fault: no stack trace. Capturing one costs more than answering the
    // duplicate, and a flood answers 10^5 of them while the holder's heartbeat waits its turn.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super('in_progress', 'A request with this idempotency key is still being processed.');
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.retryAfterMs = Math.max(0, Math.ceil(retryAfterMs));
  }
}

/** The key belongs to someone else in a shared namespace: answered as if it did not exist. */
export class KeyNotFoundError extends IdempotencyError {
  constructor() {
    super('key_not_found', 'No request with this idempotency key was found.');
  }
}

/** The key's record has expired and policy `onExpired: 'reject'` forbids reusing it. */
export class ExpiredKeyRejectedError extends IdempotencyError {
  constructor() {
    super('expired_key_rejected', 'This idempotency key has expired and cannot be reused.');
  }
}

/** The store could not be reached or answered wrongly: the action was NOT run (fail closed). */
export class StoreUnavailableError extends IdempotencyError {
  constructor(operation: string, cause: unknown) {
    super('store_unavailable', `The idempotency store failed during ${operation}.`, { cause });
  }
}

/**
 * Load shedding: this process already has as many store claims in flight and queued as it
 * allows (`maxInFlightClaims` + `maxQueuedClaims`). Nothing was claimed and the action did not
 * run; retry after `retryAfterMs`. Bounding the queue keeps a holder's own writes from waiting
 * behind an unbounded pile of duplicates' claims.
 */
export class StoreBusyError extends IdempotencyError {
  readonly retryAfterMs: number;

  constructor(retryAfterMs = 1000) {
    super('store_busy', 'The idempotency store is busy; the request was not processed. Retry later.');
    this.retryAfterMs = Math.max(0, Math.ceil(retryAfterMs));
  }
}

/**
 * The action ran past `maxExecutionMs`: its signal was aborted with this error and nothing it
 * returns is stored. The claim is released once the action settles, or lapses with its lease if
 * it never does (docs/engine.md, "Maximum execution time").
 */
export class ExecutionTimeoutError extends IdempotencyError {
  readonly maxExecutionMs: number;

  constructor(maxExecutionMs: number) {
    super('execution_timeout', `The action did not finish within ${maxExecutionMs} ms; its result is not stored.`);
    this.maxExecutionMs = maxExecutionMs;
  }
}

/**
 * The action's result could not be encoded by the serializer (a BigInt, a cycle, …). The claim
 * was released, so the key is not left PROCESSING; the action's effects happened, unrecorded.
 */
export class ResultNotSerializableError extends IdempotencyError {
  constructor(cause: unknown) {
    super('result_not_serializable', 'The action\'s result cannot be stored by the serializer; the claim was released.', { cause });
  }
}

/**
 * This worker's lease was taken over (it stalled past its lease, or an operator released it).
 * Its result is not stored; the newer holder's outcome wins.
 */
export class LeaseLostError extends IdempotencyError {
  constructor(message = 'The lease on this idempotency key was lost to a newer holder.') {
    super('lease_lost', message);
  }
}

/** Replay of a permanent failure recorded by the first attempt. */
export class ReplayedFailureError extends IdempotencyError {
  /** The stored error as serialized by the engine's error serializer. */
  readonly stored: StoredFailure;

  constructor(stored: StoredFailure) {
    super('replayed_failure', stored.message);
    this.stored = stored;
  }
}

/** What is kept of a permanent error: enough to answer the retry the same way, nothing more. */
export interface StoredFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly statusCode?: number;
  readonly details?: unknown;
}
