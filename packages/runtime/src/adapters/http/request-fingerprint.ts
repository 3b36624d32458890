/**
 * The HTTP fingerprint: method and path always, then the configured body fields or the canonical
 * body, then the selected headers. Built from the core's `fingerprintFields`/`fingerprintJson`, so
 * key order and number formatting in a JSON body never turn a retry into a "different request".
 */
import { DEFAULT_EXCLUDED_PATHS, fingerprintBytes, fingerprintFields, fingerprintJson } from '../../core/fingerprint.js';
import type { HttpRequestView } from './request-view.js';

export interface HttpFingerprintOptions {
  /**
   * Dot paths of the body fields that make the intent (`['amount', 'currency', 'recipient.id']`).
   * Default: the whole body, canonicalised.
   */
  readonly bodyFields?: readonly string[];
  /** Dot paths left out of the whole-body fingerprint. Default `DEFAULT_EXCLUDED_PATHS`. */
  readonly exclude?: readonly string[];
  /** Request headers that are part of the intent, e.g. `['x-tenant-id']`. */
  readonly headers?: readonly string[];
}

export interface ResolvedFingerprintOptions {
  readonly bodyFields: readonly string[] | null;
  readonly exclude: readonly string[];
  readonly headers: readonly string[];
}

export const DEFAULT_FINGERPRINT: ResolvedFingerprintOptions = {
  bodyFields: null,
  exclude: DEFAULT_EXCLUDED_PATHS,
  headers: [],
};

function valueAt(body: unknown, path: string): unknown {
  let current = body;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** The body's share of the fingerprint, tagged by kind so bytes and JSON of one text differ. */
function bodyPart(body: unknown, options: ResolvedFingerprintOptions): [kind: string, digest: string] {
  if (body === undefined || body === null) return ['none', ''];
  if (body instanceof Uint8Array) return ['bytes', fingerprintBytes(body)];
  if (typeof body === 'string') return ['text', fingerprintBytes(body)];
  if (options.bodyFields !== null) {
    return ['fields', fingerprintJson(options.bodyFields.map((path) => valueAt(body, path)), { exclude: [] })];
  }
  return ['json', fingerprintJson(body, { exclude: options.exclude })];
}

/**
 * SHA-256 hex of one request's intent.
 * @example
 * const fingerprint = await httpFingerprint(view, { ...DEFAULT_FINGERPRINT, bodyFields: ['amount', 'currency'] });
 */
export async function httpFingerprint(view: HttpRequestView, options: ResolvedFingerprintOptions = DEFAULT_FINGERPRINT): Promise<string> {
  const [kind, digest] = bodyPart(await view.body(), options);
  return fingerprintFields([view.method, view.path, kind, digest, ...options.headers.map((name) => view.header(name))]);
}
