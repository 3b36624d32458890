/**
 * The engine: claim -> run -> store -> replay, made safe (ARCHITECTURE.md, "Engine flow").
 *
 * Lease timeline of one key (store clock):
 *
 *   claim(v=1)      extend        extend        complete(v=1)
 *   |---leaseMs---->|---leaseMs--->|---leaseMs--->|        record COMPLETED until expiresAt
 *        a duplicate arriving here gets `in_progress` (Retry-After = lockedUntil - now)
 *
 *   claim(v=1)  worker dies            lease over   retry: claim -> PROCESSING(v=2), reclaimed
 *   |---leaseMs----X....................|           the dead worker's late complete(v=1) is 'lost'
 */
import { answerDuplicate } from './duplicate-answer.js';
import { IdempotencyError, InProgressError, LeaseLostError, StoreUnavailableError } from './errors.js';
import { isFingerprint } from './fingerprint.js';
import { startHeartbeat } from './heartbeat.js';
import { LeaseSignal } from './lease-signal.js';
import { GLOBAL_SCOPE, validateKey, validateScope } from './key.js';
import { redact, type LogFields } from './logger.js';
import { METRICS } from './metrics.js';
import { resolveOptions, type IdempotencyOptions, type ResolvedOptions } from './options.js';
import {
  jsonSerializer,
  serializeFailure,
  toStoredFailure,
  type ResultSerializer,
} from './serializer.js';
import type { ClaimResult, FencedResult } from './store-contract.js';

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

export interface ActionContext {
  /** Aborted when the lease is lost: stop work; nothing this run returns will be stored. */
  readonly signal: AbortSignal;
  /** This holder's fencing token; pass it to downstream writes that can check it. */
  readonly lockVersion: number;
  /** True when this run took over an orphaned claim of a crashed or stalled worker. */
  readonly reclaimed: boolean;
}

export interface RunOptions<T> {
  /** How the result is kept and replayed. Default: JSON. */
  readonly serializer?: ResultSerializer<T>;
  /**
   * Instead of answering `in_progress` at once, wait up to this long for the first holder to
   * finish and replay its result (or take over if its lease ends). Default 0.
   */
  readonly waitMs?: number;
  /** Per-call overrides of the engine's lease and retention. */
  readonly leaseMs?: number;
  readonly ttlMs?: number;
  /**
   * Decide per result whether it is stored. `false` releases the claim as if the action had
   * failed transiently (HTTP: a 5xx), and the result is returned unstored.
   */
  readonly shouldStore?: (value: T) => boolean;
}

export interface RunResult<T> {
  readonly value: T;
  /** True when the value is the stored result of an earlier run; the action did not run now. */
  readonly replayed: boolean;
}

export type Action<T> = (context: ActionContext) => Promise<T> | T;

export interface Idempotency {
  /**
   * Run `action` at most once per (scope, key) while the record lives; duplicates get the stored
   * result or a typed `IdempotencyError`.
   * @example
   * const { value, replayed } = await idempotency.run(
   *   { key, scope: user.id, fingerprint: fingerprintFields([amount, currency, recipientId]) },
   *   async ({ signal }) => charge({ amount, currency, recipientId }, { signal }),
   * );
   */
  run<T = unknown>(request: RunRequest, action: Action<T>, options?: RunOptions<T>): Promise<RunResult<T>>;
  /** The resolved options, for adapters and ops tooling. */
  readonly options: ResolvedOptions;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates the engine over a store.
 * @example
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
 * const idempotency = createIdempotency({ store: createSqliteStore({ filename: 'idem.db' }), leaseMs: 10_000 });
 */
export function createIdempotency(options: IdempotencyOptions): Idempotency {
  const resolved = resolveOptions(options);
  const { store, metrics, logger, codec } = resolved;

  async function storeCall<R>(operation: string, call: () => Promise<R>): Promise<R> {
    try {
      return await call();
    } catch (error) {
      // A store that already classified its failure keeps its own typed error.
      throw error instanceof IdempotencyError ? error : new StoreUnavailableError(operation, error);
    }
  }

  async function finish(
    operation: 'complete' | 'fail',
    id: { key: string; scope: string; lockVersion: number },
    write: () => Promise<FencedResult>,
    log: () => LogFields,
  ): Promise<FencedResult> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= resolved.finishAttempts; attempt++) {
      try {
        const result = await write();
        if (result === 'lost' && attempt > 1 && (await finishedByUs(id))) return 'applied';
        return result;
      } catch (error) {
        lastError = error;
        logger.warn({ ...log(), attempt }, `idempotency ${operation} failed; retrying`);
        await sleep(20 * 2 ** attempt);
      }
    }
    throw new StoreUnavailableError(operation, lastError);
  }

  /**
   * After a write whose reply was lost, a retry finds the record finished: it was our own write
   * if the record is finished at our lockVersion (finishing never changes the version).
   */
  async function finishedByUs(id: { key: string; scope: string; lockVersion: number }): Promise<boolean> {
    const record = await store.get(id).catch(() => null);
    return record !== null && record.status !== 'PROCESSING' && record.lockVersion === id.lockVersion;
  }

  async function execute<T>(
    request: RunRequest,
    claim: Extract<ClaimResult, { outcome: 'claimed' }>,
    action: Action<T>,
    leaseMs: number,
    ttlMs: number,
    serializer: ResultSerializer<T>,
    shouldStore: ((value: T) => boolean) | undefined,
  ): Promise<RunResult<T>> {
    // Hashing is deferred to the rare lines that log: it is not free on the hot path.
    const log = (): LogFields => ({ key: redact(request.key), scope: redact(request.scope) });
    const id = { key: request.key, scope: request.scope, lockVersion: claim.lockVersion };
    if (claim.reclaimed) {
      metrics.increment(METRICS.orphanReclaims);
      metrics.increment(METRICS.lockTimeouts);
      logger.warn({ ...log(), lockVersion: claim.lockVersion }, 'idempotency orphaned claim reclaimed');
    } else {
      metrics.increment(METRICS.keysCreatedPerUser);
    }

    const lease = new LeaseSignal();
    const heartbeat = resolved.heartbeat ? startHeartbeat(store, { ...id, leaseMs }, lease, logger, log) : undefined;
    const started = performance.now();
    let value: T;
    try {
      value = await action({
        get signal() {
          return lease.signal;
        },
        lockVersion: claim.lockVersion,
        reclaimed: claim.reclaimed,
      });
    } catch (error) {
      await heartbeat?.stop();
      metrics.observe(METRICS.processingDurationMs, performance.now() - started, { outcome: 'error' });
      if (lease.lost) {
        metrics.increment(METRICS.lockTimeouts);
        throw error; // someone else holds the key now; write nothing
      }
      if (resolved.classify(error) === 'permanent') {
        const response = await codec.encode(serializeFailure(toStoredFailure(error)));
        const result = await finish('fail', id, () => store.fail({ ...id, response, ttlMs }), log);
        if (result === 'lost') logger.warn(log(), 'idempotency failure not recorded: lease lost');
      } else {
        await store.release(id).catch((releaseError: unknown) => {
          // The lease will lapse by itself; the caller's own error matters more here.
          logger.warn({ ...log(), error: String(releaseError) }, 'idempotency release failed; the lease will expire');
        });
      }
      throw error;
    }
    await heartbeat?.stop();
    metrics.observe(METRICS.processingDurationMs, performance.now() - started, { outcome: 'ok' });
    if (lease.lost) {
      metrics.increment(METRICS.lockTimeouts);
      throw new LeaseLostError();
    }
    if (shouldStore && !shouldStore(value)) {
      await storeCall('release', () => store.release(id));
      return { value, replayed: false };
    }
    const response = await codec.encode(serializer.serialize(value));
    const result = await finish('complete', id, () => store.complete({ ...id, response, ttlMs }), log);
    if (result === 'lost') throw new LeaseLostError();
    return { value, replayed: false };
  }

  async function run<T>(request: RunRequest, action: Action<T>, runOptions: RunOptions<T> = {}): Promise<RunResult<T>> {
    validateKey(request?.key, resolved.maxKeyLength);
    validateScope(request.scope);
    if (!isFingerprint(request.fingerprint)) {
      throw new TypeError('request.fingerprint must be 64 lowercase hex characters (SHA-256).');
    }
    if (request.owner !== undefined && request.scope !== GLOBAL_SCOPE) {
      throw new TypeError('request.owner only applies to scope "global"; scope the key to the user instead.');
    }
    const serializer = runOptions.serializer ?? (jsonSerializer as ResultSerializer<T>);
    const leaseMs = runOptions.leaseMs ?? resolved.leaseMs;
    const ttlMs = runOptions.ttlMs ?? resolved.ttlMs;
    const deadline = Date.now() + (runOptions.waitMs ?? 0);
    let pollMs = 25;

    for (;;) {
      const claim = await storeCall('claim', () =>
        store.claim({
          key: request.key,
          scope: request.scope,
          fingerprint: request.fingerprint,
          owner: request.owner ?? null,
          leaseMs,
          ttlMs,
          replaceExpired: resolved.onExpired === 'new',
        }),
      );
      if (claim.outcome === 'claimed') {
        return execute(request, claim, action, leaseMs, ttlMs, serializer, runOptions.shouldStore);
      }
      const answer = await answerDuplicate({ request, record: claim.record, now: claim.now, codec, serializer, metrics });
      if (!(answer instanceof InProgressError)) return answer;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw answer;
      await sleep(Math.min(pollMs, remaining, Math.max(answer.retryAfterMs, 5)));
      pollMs = Math.min(pollMs * 2, 250);
    }
  }

  return { run, options: resolved };
}
