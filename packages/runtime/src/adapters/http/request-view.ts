/** The few facts about a request the HTTP layer reads, whatever framework carried it. */

export interface HttpRequestView {
  /** Upper-case method. */
  readonly method: string;
  /** The concrete path, without the query string: `/accounts/42/transfers`, not the route pattern. */
  readonly path: string;
  /** A header by lower-case name; several values joined with ", ". */
  header(name: string): string | undefined;
  /**
   * The request body as the framework parsed it (an object, a string) or raw bytes
   * (`Uint8Array`); `undefined` when there is none.
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
 * Whether a Node request announced a body (so a missing parsed body means a missing parser).
 * @example announcesBody({ 'content-length': '12' }) // true
 */
export function announcesBody(headers: NodeRequestLike['headers']): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A view over a Node-style request whose body a parser already read (`express.json()`, Fastify's
 * content-type parsers, Nest's body parser). A body the client sent but no parser read cannot be
 * fingerprinted, so it is an error at once rather than a key that silently ignores the body.
 * @example const view = nodeRequestView(req); view.header('idempotency-key');
 */
export function nodeRequestView(request: NodeRequestLike): HttpRequestView {
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    path: pathOf(request.originalUrl ?? request.url ?? '/'),
    header(name) {
      const value = request.headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    body() {
      if (request.body === undefined && announcesBody(request.headers)) {
        throw new Error(
          'The request has a body but no parser read it: mount a body parser (e.g. express.json()) before the idempotency middleware, so the body is part of the fingerprint.',
        );
      }
      return request.body;
    },
  };
}
