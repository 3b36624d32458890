/**
 * The HTTP fingerprint: method and path always, the query string (by default), then the configured
 * body fields or the canonical body, then the selected headers. Built from the core's
 * `fingerprintFields`/`fingerprintJson`, so key order and number formatting in a JSON body never
 * turn a retry into a "different request". A body it cannot hash raises a typed `RequestBodyError`.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { DEFAULT_EXCLUDED_PATHS, fingerprintBytes, fingerprintFields, fingerprintJson } from '../../core/fingerprint.js';
import { interpretBody } from './request-body.js';
import { asRequestBodyError } from './request-errors.js';
import type { HttpRequestView } from './request-view.js';

export interface HttpFingerprintOptions {
  /**
   * Dot paths of the body fields that make the intent (`['amount', 'currency', 'recipient.id']`).
   * A missing field and an explicit `null` differ. Default: the whole body, canonicalised.
   */
  readonly bodyFields?: readonly string[];
  /** Dot paths left out of the whole-body fingerprint. Default `DEFAULT_EXCLUDED_PATHS`. */
  readonly exclude?: readonly string[];
  /** Request headers that are part of the intent, e.g. `['x-tenant-id']`. */
  readonly headers?: readonly string[];
  /**
   * Query parameters that are part of the intent: `true` (default) all of them, a list of names
   * (`['amount']`) only those, `false` none. The query is part of the target URI, so by default
   * `POST /pay?amount=1000000` with a used `?amount=1` key is a 409, never that key's replay.
   * Parameters are sorted by name (repeated names keep their order). A request without a query
   * string fingerprints exactly as before this option existed.
   */
  readonly query?: boolean | readonly string[];
}

export interface ResolvedFingerprintOptions {
  readonly bodyFields: readonly string[] | null;
  readonly exclude: readonly string[];
  readonly headers: readonly string[];
  /** Absent means the default, `true`. */
  readonly query?: boolean | readonly string[];
}

export const DEFAULT_FINGERPRINT: ResolvedFingerprintOptions = {
  bodyFields: null,
  exclude: DEFAULT_EXCLUDED_PATHS,
  headers: [],
  query: true,
};

function stringList(field: string, value: unknown): readonly string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    throw new InvalidOptionsError(`Option "${field}" must be an array of non-empty strings.`);
  }
  return value as string[];
}

/**
 * Validates the `fingerprint` option once, at creation.
 * @example resolveFingerprintOptions({ bodyFields: ['amount'], query: ['currency'] })
 */
export function resolveFingerprintOptions(options: HttpFingerprintOptions | undefined): ResolvedFingerprintOptions {
  if (options === undefined) return DEFAULT_FINGERPRINT;
  if (options === null || typeof options !== 'object') throw new InvalidOptionsError('Option "fingerprint" must be an object.');
  const { query } = options;
  if (query !== undefined && typeof query !== 'boolean') stringList('fingerprint.query', query);
  return {
    bodyFields: options.bodyFields === undefined ? null : stringList('fingerprint.bodyFields', options.bodyFields),
    exclude: options.exclude === undefined ? DEFAULT_FINGERPRINT.exclude : stringList('fingerprint.exclude', options.exclude),
    headers: options.headers === undefined ? [] : stringList('fingerprint.headers', options.headers).map((name) => name.toLowerCase()),
    query: query ?? true,
  };
}

const MISSING = [0] as const;
const utf8 = new TextEncoder();

/** `[1, value]` when the path exists (even as `null`), `[0]` when it does not: they must differ. */
function fieldAt(body: unknown, path: string): readonly unknown[] {
  let current = body;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return MISSING;
    current = (current as Record<string, unknown>)[part];
  }
  return current === undefined ? MISSING : [1, current];
}

/** The body's share of the fingerprint, tagged by kind so bytes and JSON of one text differ. */
function bodyPart(body: unknown, options: ResolvedFingerprintOptions): [kind: string, digest: string] {
  if (body === undefined || body === null) return ['none', ''];
  if (body instanceof Uint8Array) return ['bytes', fingerprintBytes(body)];
  if (typeof body === 'string') return ['text', fingerprintBytes(body)];
  if (options.bodyFields !== null) {
    // 'fields2': the tagged form; the old untagged one let a missing field equal an explicit null.
    return ['fields2', fingerprintJson(options.bodyFields.map((path) => fieldAt(body, path)), { exclude: [] })];
  }
  return ['json', fingerprintJson(body, { exclude: options.exclude })];
}

/**
 * The query's share: nothing when the option is off or the request has no query string (so such
 * requests keep the fingerprints they always had), else the selected pairs sorted by name.
 */
function queryPart(query: string | undefined, selection: boolean | readonly string[]): string[] {
  if (selection === false || query === undefined || query === '') return [];
  const wanted = selection === true ? null : new Set(selection);
  const pairs = [...new URLSearchParams(query)].filter(([name]) => wanted === null || wanted.has(name));
  if (pairs.length === 0 && wanted !== null) return [];
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); // stable: repeated names keep their order
  return ['query', fingerprintJson(pairs, { exclude: [] })];
}

/** A request as the fingerprint sees it, its body already read (JSON parsed, form fields, text or bytes). */
export interface RequestParts {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly body: unknown;
  /** The raw query string without `?`, or undefined. */
  readonly query?: string;
  /** Header lookup for `options.headers` (lower-case names). */
  readonly header?: (name: string) => string | undefined;
}

/**
 * The fingerprint of a request whose body is already read: the one definition every adapter, the
 * builder's documents and its generated code share.
 * @example requestFingerprint({ method: 'POST', path: '/payments', body: { amount: 4999 } }, resolveFingerprintOptions({ bodyFields: ['amount'] }))
 */
export function requestFingerprint(parts: RequestParts, options: ResolvedFingerprintOptions = DEFAULT_FINGERPRINT): string {
  const [kind, digest] = bodyPart(parts.body, options);
  const headers = options.headers.map((name) => parts.header?.(name));
  return fingerprintFields([parts.method, parts.path, kind, digest, ...headers, ...queryPart(parts.query, options.query ?? true)]);
}

/**
 * SHA-256 hex of one request's intent. A body it cannot hash throws `RequestBodyError`
 * (`invalid_body`, `unsupported_media_type` or `body_too_large`), before anything is claimed.
 * @example
 * const fingerprint = await httpFingerprint(view, { ...DEFAULT_FINGERPRINT, bodyFields: ['amount', 'currency'] });
 */
export async function httpFingerprint(view: HttpRequestView, options: ResolvedFingerprintOptions = DEFAULT_FINGERPRINT): Promise<string> {
  try {
    let body = await view.body();
    // Raw bytes or text a framework handed over unparsed are read by their Content-Type, so a
    // `+json` body is canonical JSON and a form is its fields on every adapter alike (and raw
    // multipart, whose random boundary differs on every retry, is refused).
    if (body instanceof Uint8Array || typeof body === 'string') {
      body = interpretBody(typeof body === 'string' ? utf8.encode(body) : body, view.header('content-type'));
    }
    return requestFingerprint({ method: view.method, path: view.path, body, query: view.query, header: (name) => view.header(name) }, options);
  } catch (error) {
    throw asRequestBodyError(error) ?? error;
  }
}
