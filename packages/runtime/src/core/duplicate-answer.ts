/**
 * How a request is answered when its key already has a record: the one decision shared by the
 * engine and by transactional mode, so both refuse, replay and report in the same order.
 */
import type { ResponseCodec } from './codec.js';
import {
  ExpiredKeyRejectedError,
  FingerprintMismatchError,
  InProgressError,
  KeyNotFoundError,
  ReplayedFailureError,
  StoreUnavailableError,
} from './errors.js';
import { fingerprintsEqual } from './fingerprint.js';
import { METRICS, noopMetrics, type MetricsSink } from './metrics.js';
import type { IdempotencyRecord, StoredResponse } from './record.js';
import { deserializeFailure, type ResultSerializer } from './serializer.js';

export interface DuplicateContext<T> {
  readonly request: { readonly fingerprint: string; readonly owner?: string };
  readonly record: IdempotencyRecord;
  /** The store clock when the record was read. */
  readonly now: number;
  readonly codec: ResponseCodec;
  readonly serializer: ResultSerializer<T>;
  readonly metrics?: MetricsSink;
}

/**
 * Another owner's key → `key_not_found` (checked first, so nothing about the record leaks);
 * other parameters → `fingerprint_mismatch` (constant-time); expired → `expired_key_rejected`;
 * COMPLETED → the replayed value; FAILED → `replayed_failure`. A live PROCESSING record is
 * returned as an `InProgressError`, not thrown, so a caller in wait mode can poll.
 * @example
 * const answer = await answerDuplicate({ request, record, now, codec, serializer });
 * if (answer instanceof InProgressError) throw answer;
 */
export async function answerDuplicate<T>({
  request,
  record,
  now,
  codec,
  serializer,
  metrics = noopMetrics,
}: DuplicateContext<T>): Promise<{ value: T; replayed: true } | InProgressError> {
  if (record.owner !== null && record.owner !== (request.owner ?? null)) throw new KeyNotFoundError();
  if (!fingerprintsEqual(record.fingerprint, request.fingerprint)) {
    metrics.increment(METRICS.fingerprintMismatches);
    throw new FingerprintMismatchError();
  }
  if (record.status !== 'PROCESSING' && record.expiresAt <= now) throw new ExpiredKeyRejectedError();
  metrics.increment(METRICS.duplicatesBlocked, { status: record.status.toLowerCase() });
  if (record.status === 'PROCESSING') return new InProgressError((record.lockedUntil ?? now) - now);
  // The record's identity goes with it, so a codec can refuse a response copied from another record.
  const stored = await codec.decode(storedResponse(record), { key: record.key, scope: record.scope, status: record.status });
  if (record.status === 'FAILED') throw new ReplayedFailureError(deserializeFailure(stored));
  return { value: serializer.deserialize(stored), replayed: true };
}

function storedResponse(record: IdempotencyRecord): StoredResponse {
  if (record.response === null) {
    throw new StoreUnavailableError('replay', new Error(`A ${record.status} record has no stored response.`));
  }
  return record.response;
}
