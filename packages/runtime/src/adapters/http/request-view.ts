/** The few facts about a request the HTTP layer reads, whatever framework carried it. */
import { checkAnnouncedLength, DEFAULT_MAX_REQUEST_BYTES, interpretBody, readBounded } from './request-body.js';

export interface HttpRequestView {
  /** Upper-case method. */
  readonly method: string;
  /** The concrete path, without the query string: `/accounts/42/transfers`, not the route pattern. */
  readonly path: string;
  /** The raw query string without `?` (`''` or absent when there is none); see `fingerprint.query`. */
  readonly query?: string;
  /** A header by lower-case name; several values joined with ", ". */
  header(name: string): string | undefined;
  /**
   * The request body as the framework parsed it (an object, a string) or raw bytes
   * (`Uint8Array`); `undefined` when there is none. May return a promise, and may throw (or
   * reject with) a `RequestBodyError` for a body it cannot read within its limits.
   */
  body(): unknown;
}

/** Methods that are safe by definition: never claimed, never answered from the store. */
export const PASSTHROUGH_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A Node-style request, as Express, Fastify and NestJS hand it over. */
export interface NodeRequestLike {
  readonly method?: string;
  /** Express keeps the full URL here when a router is mounted under a prefix. */
  readonly originalUrl?: string;
  readonly url?: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body?: unknown;
  /** Node's `IncomingMessage`: false while nobody has read the body stream. */
  readonly readableEnded?: boolean;
  [Symbol.asyncIterator]?(): AsyncIterator<unknown>;
}

/**
 * Pathname of a request target, without query or fragment.
 * @example pathOf('/payments?dry_run=1') // '/payments'
 */
export function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/**
 * Query string of a request target, without `?` and fragment (`''` when none).
 * @example queryOf('/pay?amount=1#x') // 'amount=1'
 */
export function queryOf(target: string): string {
  const start = target.indexOf('?');
  if (start === -1) return '';
  const end = target.indexOf('#', start);
  return target.slice(start + 1, end === -1 ? undefined : end);
}

/**
 * Whether a Node request announced a body.
 * @example announcesBody({ 'content-length': '12' }) // true
 */
export function announcesBody(headers: NodeRequestLike['headers']): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

export interface NodeRequestViewOptions {
  /** Cap for a body no parser read (default 1 MiB): past it, `body()` rejects with `body_too_large`. */
  readonly maxRequestBytes?: number;
}

/**
 * A view over a Node-style request. A body a parser already read (`express.json()`,
 * `express.urlencoded()`, `express.text()`, Fastify's or Nest's parsers) is used as parsed. A body
 * no parser read (text/plain behind `express.json()`, a `+json` type, no Content-Type) is read
 * here, up to `maxRequestBytes`, interpreted by its Content-Type (see `interpretBody`) and left
 * on `request.body` for the handler, as a body parser would.
 * @example const view = nodeRequestView(req, { maxRequestBytes: 64 * 1024 }); await view.body();
 */
export function nodeRequestView(request: NodeRequestLike, { maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES }: NodeRequestViewOptions = {}): HttpRequestView {
  const target = request.originalUrl ?? request.url ?? '/';
  let body: Promise<unknown> | undefined;
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    path: pathOf(target),
    query: queryOf(target),
    header: (name) => single(request.headers[name]),
    body() {
      // Checked for a parsed body too: a parser's own limit may be larger than this route's.
      checkAnnouncedLength(single(request.headers['content-length']), maxRequestBytes);
      const iterate = request[Symbol.asyncIterator];
      const unread = request.readableEnded === false && typeof iterate === 'function' && announcesBody(request.headers);
      if (!unread) return request.body;
      body ??= (async () => {
        const bytes = await readBounded(iterate.call(request), maxRequestBytes);
        const parsed = interpretBody(bytes, single(request.headers['content-type']));
        const value = parsed instanceof Uint8Array ? Buffer.from(parsed.buffer, parsed.byteOffset, parsed.byteLength) : parsed;
        (request as { body?: unknown }).body = value;
        // body-parser 1.x (Express 4, and the parser routing-controllers adds per action after its
        // `@UseBefore` middleware) skips a request marked `_body`; unmarked, it reads the ended stream and fails.
        (request as { _body?: boolean })._body = true;
        return value;
      })();
      return body;
    },
  };
}
