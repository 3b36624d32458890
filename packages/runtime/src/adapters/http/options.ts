/** Options every HTTP adapter takes, their defaults, and their one-time validation at creation. */
import type { Idempotency } from '../../core/engine.js';
import { InvalidOptionsError } from '../../core/errors.js';
import { DEFAULT_REPLAY_HEADERS, FORBIDDEN_REPLAY_HEADERS } from './http-response.js';
import { resolveKeySource, type KeySource } from './key-from-body.js';
import { createNewKeyLimiter, type NewKeyLimiter, type NewKeyRateLimitOptions } from './new-key-rate-limit.js';
import { DEFAULT_PROBLEM_TYPE_BASE, type HttpProfile } from './problem.js';
import { resolveFingerprintOptions, type HttpFingerprintOptions, type ResolvedFingerprintOptions } from './request-fingerprint.js';
import type { HttpRequestView } from './request-view.js';
import type { BeforeStoreHook, OnReplayHook } from './response-hooks.js';

/**
 * The authenticated principal of a request (user, account or tenant id), or nothing. Declared as
 * a method so its parameter is bivariant: `(req: express.Request) => req.user.id` and
 * `(request: FastifyRequest) => …` fit without casts, though the adapters type the request structurally.
 */
export type PrincipalResolver<Ctx> = {
  resolve(ctx: Ctx, request: HttpRequestView): string | null | undefined | Promise<string | null | undefined>;
}['resolve'];

/** True: bypass idempotency for this request. A method type, for bivariance like `PrincipalResolver`. */
export type SkipPredicate<Ctx> = {
  skip(ctx: Ctx, request: HttpRequestView): boolean | Promise<boolean>;
}['skip'];

export interface HttpIdempotencyOptions<Ctx> {
  /** The engine: `createIdempotency({ store, leaseMs, ttlMs, onExpired })`. */
  readonly idempotency: Idempotency;
  /**
   * Whose key namespace a request uses: a resolver of the authenticated principal (keys of two
   * users never meet), or `'global'` — one namespace for everyone, chosen explicitly.
   * Required: a route without it refuses to start.
   */
  readonly scope: PrincipalResolver<Ctx> | 'global';
  /** With `scope: 'global'`: who made the request; another owner's key answers 404. */
  readonly owner?: PrincipalResolver<Ctx>;
  /** Header carrying the key. Default `Idempotency-Key`. */
  readonly header?: string;
  /**
   * Take the key from the body instead of a header: `{ fromBody: 'order.id' }` (a string or an
   * integer at that path). Absent: 400 `key_required` (or unprotected with `required: false`).
   * Not with `header`. Default: the header.
   */
  readonly key?: KeySource;
  /**
   * Requests this returns true for bypass idempotency entirely (run unprotected, nothing claimed):
   * health checks, admin tools, internal retries that bring their own dedup. Default: none.
   */
  readonly skip?: SkipPredicate<Ctx>;
  /** Observe each replay (logs, metrics); see response-hooks.ts. Errors are logged, never sent. */
  readonly onReplay?: OnReplayHook<Ctx>;
  /** Adjust (return a response) or veto (`false`) what is recorded; see response-hooks.ts. */
  readonly beforeStore?: BeforeStoreHook<Ctx>;
  /** Without a key: `true` answers 400, `false` runs the handler unprotected. Default true. */
  readonly required?: boolean;
  /** `spec` (default): a reused key with other parameters is 409; `ietf`: 422. */
  readonly profile?: HttpProfile;
  readonly fingerprint?: HttpFingerprintOptions;
  /**
   * Which handler statuses are stored and replayed. Default: 2xx, 3xx and the deterministic 4xx
   * (400, 404, 405, 410, 413, 414, 415, 422). A 5xx is decided by `serverErrors`, whatever this says.
   */
  readonly storeStatus?: (status: number) => boolean;
  /**
   * A 5xx (or a thrown handler) once the handler began: `'release'` (default) gives the key back
   * and the retry runs again; `'store'` records it and replays it (Stripe's rule: a half-done
   * side effect is never run twice). A thrown handler is then replayed as a 500 `replayed_failure`.
   */
  readonly serverErrors?: 'release' | 'store';
  /** Response headers kept for replay. Default `DEFAULT_REPLAY_HEADERS`. */
  readonly replayHeaders?: readonly string[];
  /**
   * Largest body kept for replay. A response past it (or any `text/event-stream`) is sent as it
   * streams and recorded with status and headers only. Default 1 MiB.
   */
  readonly maxBodyBytes?: number;
  /** An in-flight duplicate waits up to this long for the first to finish, then replays. Default 0. */
  readonly waitMs?: number;
  /** Per-route lease and retention; default: the engine's. */
  readonly leaseMs?: number;
  readonly ttlMs?: number;
  /** Limit of new keys per principal (429 + Retry-After past it). Default: none. */
  readonly rateLimit?: NewKeyRateLimitOptions;
  /**
   * When the store is unreachable: `false` (default) answers 503 and runs nothing (fail closed);
   * `true` runs the handler unprotected. Opt in per route, where a duplicate is cheaper than an outage.
   */
  readonly failOpen?: boolean;
  /** Prefix of every problem `type`. Default `urn:idempotency-builder:problem:`. */
  readonly problemTypeBase?: string;
}

export interface ResolvedHttpOptions<Ctx> {
  readonly idempotency: Idempotency;
  readonly scope: PrincipalResolver<Ctx> | 'global';
  readonly owner: PrincipalResolver<Ctx> | null;
  /** Lower-case header name. */
  readonly header: string;
  /** The body path of the key, or null: the header. */
  readonly keyFromBody: readonly string[] | null;
  readonly skip: SkipPredicate<Ctx> | null;
  readonly onReplay: OnReplayHook<Ctx> | null;
  readonly beforeStore: BeforeStoreHook<Ctx> | null;
  readonly serverErrors: 'release' | 'store';
  readonly required: boolean;
  readonly profile: HttpProfile;
  readonly fingerprint: ResolvedFingerprintOptions;
  readonly storeStatus: (status: number) => boolean;
  readonly replayHeaders: readonly string[];
  readonly maxBodyBytes: number;
  readonly waitMs: number;
  readonly leaseMs: number | undefined;
  readonly ttlMs: number | undefined;
  readonly rateLimit: NewKeyLimiter | null;
  readonly failOpen: boolean;
  readonly problemTypeBase: string;
}

const DETERMINISTIC_4XX: ReadonlySet<number> = new Set([400, 404, 405, 410, 413, 414, 415, 422]);

/**
 * The default storage rule: outcomes a retry would see again; never 5xx or 401/403/409/429.
 * @example [201, 422, 409, 503].map(defaultStoreStatus) // [true, true, false, false]
 */
export function defaultStoreStatus(status: number): boolean {
  return (status >= 200 && status < 400) || DETERMINISTIC_4XX.has(status);
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function fail(message: string): never {
  throw new InvalidOptionsError(message);
}

function stringList(field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    fail(`Option "${field}" must be an array of non-empty strings.`);
  }
  return value as string[];
}

function optionalInteger(field: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(`Option "${field}" must be an integer >= ${min}.`);
  return value;
}

function resolveReplayHeaders(value: readonly string[] | undefined): readonly string[] {
  if (value === undefined) return DEFAULT_REPLAY_HEADERS;
  const names = stringList('replayHeaders', value).map((name) => name.toLowerCase());
  const forbidden = names.filter((name) => FORBIDDEN_REPLAY_HEADERS.has(name));
  if (forbidden.length > 0) fail(`Option "replayHeaders" may not include ${forbidden.join(', ')}: they are never stored.`);
  return names;
}

/**
 * Validates once, at creation: a bad option stops the app from starting instead of failing
 * requests. Above all, a route without a scope resolver refuses to start unless `scope: 'global'`
 * is chosen explicitly — keys of different users must never share a namespace by accident.
 * @example resolveHttpOptions({ idempotency, scope: (req) => req.user?.id })
 */
export function resolveHttpOptions<Ctx>(options: HttpIdempotencyOptions<Ctx>): ResolvedHttpOptions<Ctx> {
  if (options === null || typeof options !== 'object') fail('The idempotency middleware needs an options object.');
  if (typeof options.idempotency?.run !== 'function') {
    fail('Option "idempotency" must be the engine from createIdempotency({ store }).');
  }
  const { scope } = options;
  if (scope !== 'global' && typeof scope !== 'function') {
    fail('Option "scope" is required: a resolver of the authenticated principal, e.g. (req) => req.user.id, or scope: "global" to share one key namespace explicitly.');
  }
  if (options.owner !== undefined && (scope !== 'global' || typeof options.owner !== 'function')) {
    fail('Option "owner" is a resolver and only applies with scope: "global".');
  }
  const header = options.header ?? 'Idempotency-Key';
  if (typeof header !== 'string' || !TOKEN.test(header)) fail('Option "header" must be an HTTP header name.');
  const profile = options.profile ?? 'spec';
  if (profile !== 'spec' && profile !== 'ietf') fail('Option "profile" must be "spec" or "ietf".');
  if (options.required !== undefined && typeof options.required !== 'boolean') fail('Option "required" must be a boolean.');
  if (options.failOpen !== undefined && typeof options.failOpen !== 'boolean') fail('Option "failOpen" must be a boolean.');
  if (options.storeStatus !== undefined && typeof options.storeStatus !== 'function') {
    fail('Option "storeStatus" must be a function (status) => boolean.');
  }
  const storeStatus = options.storeStatus ?? defaultStoreStatus;
  const serverErrors = options.serverErrors ?? 'release';
  if (serverErrors !== 'release' && serverErrors !== 'store') fail('Option "serverErrors" must be "release" or "store".');
  for (const hook of ['skip', 'onReplay', 'beforeStore'] as const) {
    if (options[hook] !== undefined && typeof options[hook] !== 'function') fail(`Option "${hook}" must be a function.`);
  }
  if (options.key !== undefined && options.header !== undefined) fail('Options "key" and "header" exclude each other: the key comes from one place.');
  const keyFromBody = options.key === undefined ? null : resolveKeySource(options.key);
  const problemTypeBase = options.problemTypeBase ?? DEFAULT_PROBLEM_TYPE_BASE;
  if (typeof problemTypeBase !== 'string' || problemTypeBase === '') fail('Option "problemTypeBase" must be a non-empty string.');
  const leaseMs = optionalInteger('leaseMs', options.leaseMs, 10);
  const ttlMs = optionalInteger('ttlMs', options.ttlMs, 1);
  // A record that expires before its lease ends would let a retry run beside a live holder.
  const effectiveLeaseMs = leaseMs ?? options.idempotency.options?.leaseMs;
  const effectiveTtlMs = ttlMs ?? options.idempotency.options?.ttlMs;
  if (effectiveLeaseMs !== undefined && effectiveTtlMs !== undefined && effectiveTtlMs < effectiveLeaseMs) {
    fail(`Option "ttlMs" (${effectiveTtlMs}) must be at least "leaseMs" (${effectiveLeaseMs}).`);
  }
  return {
    idempotency: options.idempotency,
    scope,
    owner: options.owner ?? null,
    header: header.toLowerCase(),
    keyFromBody,
    skip: options.skip ?? null,
    onReplay: options.onReplay ?? null,
    beforeStore: options.beforeStore ?? null,
    serverErrors,
    required: options.required ?? true,
    profile,
    fingerprint: resolveFingerprintOptions(options.fingerprint),
    storeStatus: (status) => (status >= 500 ? serverErrors === 'store' && status <= 599 : storeStatus(status)),
    replayHeaders: resolveReplayHeaders(options.replayHeaders),
    maxBodyBytes: optionalInteger('maxBodyBytes', options.maxBodyBytes, 0) ?? DEFAULT_MAX_BODY_BYTES,
    waitMs: optionalInteger('waitMs', options.waitMs, 0) ?? 0,
    leaseMs,
    ttlMs,
    rateLimit: options.rateLimit === undefined ? null : createNewKeyLimiter(options.rateLimit),
    failOpen: options.failOpen ?? false,
    problemTypeBase,
  };
}
