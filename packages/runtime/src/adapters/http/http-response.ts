/** The framework-neutral HTTP response, its allow-listed storage form, and the replay it becomes. */
import type { StoredResponse } from '../../core/record.js';
import type { ResultSerializer } from '../../core/serializer.js';

export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The exact body bytes; empty when `bodyOmitted`. */
  readonly body: Uint8Array;
  /**
   * True when the body was not kept: the response streamed (`text/event-stream`) or grew past
   * `maxBodyBytes`. Such a record replays its status and headers with an empty body.
   */
  readonly bodyOmitted?: boolean;
}

/** Set on every replayed response; a client can never cause it (see `REPLAYED_HEADER` stripping). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Headers kept for replay by default: what a client needs to read the body and find what was
 * created. Cookies, auth challenges and anything user-specific are left out on purpose.
 */
export const DEFAULT_REPLAY_HEADERS: readonly string[] = [
  'content-type',
  'content-encoding',
  'content-language',
  'content-disposition',
  'location',
  'etag',
  'last-modified',
  'cache-control',
  'link',
];

/**
 * Never stored, whatever the allow-list says: hop-by-hop and framing headers are recomputed on
 * replay, the replay marker is the server's alone, and cookies (session tokens) must not rest in
 * the idempotency store.
 */
export const FORBIDDEN_REPLAY_HEADERS: ReadonlySet<string> = new Set([
  REPLAYED_HEADER,
  'set-cookie',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'trailer',
  'date',
]);

/** Statuses that by definition carry no body (a Response with one would be invalid). */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

const BYTES = 'bytes';
const OMITTED = 'omitted';

/**
 * The serializer the HTTP adapters hand to `run()`: status, the allow-listed headers, and the
 * body bytes exactly as sent (binary-safe, never re-encoded).
 * @example
 * const serializer = createHttpSerializer(['content-type', 'location']);
 * const stored = serializer.serialize({ status: 201, headers: { 'content-type': 'application/json' }, body });
 */
export function createHttpSerializer(allowList: readonly string[] = DEFAULT_REPLAY_HEADERS): ResultSerializer<HttpResponse> {
  const allowed = allowList.map((name) => name.toLowerCase()).filter((name) => !FORBIDDEN_REPLAY_HEADERS.has(name));
  return {
    serialize(response) {
      const headers: Record<string, string> = {};
      for (const name of allowed) {
        const value = response.headers[name];
        if (value !== undefined) headers[name] = value;
      }
      return {
        statusCode: response.status,
        headers,
        body: response.bodyOmitted ? new Uint8Array(0) : response.body,
        encoding: response.bodyOmitted ? OMITTED : BYTES,
      };
    },
    deserialize(stored: StoredResponse) {
      if (stored.encoding !== BYTES && stored.encoding !== OMITTED) {
        throw new TypeError(`Stored response has encoding "${stored.encoding}", expected an HTTP response.`);
      }
      return {
        status: stored.statusCode ?? 200,
        headers: { ...(stored.headers ?? {}) },
        body: stored.body,
        bodyOmitted: stored.encoding === OMITTED,
      };
    },
  };
}

/**
 * What a replay sends: the stored response plus `Idempotent-Replayed: true`. A response whose
 * body was omitted loses its content headers too, so no client parses an empty body as JSON.
 * @example replayOf(stored).headers['idempotent-replayed'] // 'true'
 */
export function replayOf(stored: HttpResponse): HttpResponse {
  const headers: Record<string, string> = { ...stored.headers, [REPLAYED_HEADER]: 'true' };
  if (stored.bodyOmitted) {
    delete headers['content-type'];
    delete headers['content-encoding'];
  }
  return { status: stored.status, headers, body: stored.bodyOmitted ? new Uint8Array(0) : stored.body };
}

/**
 * Node header values (string, number or string[]) as one string per lower-case name. Several
 * values are joined with ", " (RFC 9110 list syntax); `set-cookie` is never stored, so its
 * non-list syntax does not matter here.
 * @example flattenHeaders({ 'Content-Type': 'text/plain', Vary: ['a', 'b'] }) // { 'content-type': 'text/plain', vary: 'a, b' }
 */
export function flattenHeaders(headers: Readonly<Record<string, string | number | readonly string[] | undefined>>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}
