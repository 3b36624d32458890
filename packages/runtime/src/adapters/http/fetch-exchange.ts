/**
 * The Web Fetch side of the HTTP layer (Request/Response), shared by the fetch and Hono adapters:
 * a request view, the capture of a handler's Response, and the Response for a replay or problem.
 */
import { collectBody, replayThenRest, streamIterator } from './body-collector.js';
import { NULL_BODY_STATUSES, REPLAYED_HEADER, type HttpResponse } from './http-response.js';
import { checkAnnouncedLength, DEFAULT_MAX_REQUEST_BYTES, interpretBody, readBounded } from './request-body.js';
import { queryOf, type HttpRequestView } from './request-view.js';
import { unreadBodyOf } from './lightweight-response.js';

const utf8 = new TextEncoder();

/** Stored bodies are plain ArrayBuffer-backed bytes; TypeScript cannot know that. */
const asBodyInit = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

export interface FetchRequestViewOptions {
  /** The concrete path (a router may know it better); default: the URL's pathname. */
  readonly path?: string;
  /** Cap on the body read for the fingerprint (default 1 MiB); past it, `body()` rejects with `body_too_large`. */
  readonly maxRequestBytes?: number;
}

/**
 * A view over a fetch Request. The body is read from a clone, so the handler can still read the
 * original, and only up to `maxRequestBytes`: a larger body is refused (413) without buffering it.
 * A JSON body (`application/json` or any `+json` type) is parsed so its fingerprint is canonical;
 * other types are read as `interpretBody` says.
 * @example const view = fetchRequestView(request, { maxRequestBytes: 64 * 1024 }); await view.body();
 */
export function fetchRequestView(request: Request, { path, maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES }: FetchRequestViewOptions = {}): HttpRequestView {
  // request.url is a serialized URL, so its query is the text after the first '?' (up to '#');
  // only the path needs a parse, and only when the router did not give it.
  let body: Promise<unknown> | undefined;
  return {
    method: request.method.toUpperCase(),
    path: path ?? new URL(request.url).pathname,
    query: queryOf(request.url),
    header: (name) => request.headers.get(name) ?? undefined,
    body() {
      body ??= readBody(request, maxRequestBytes);
      return body;
    },
  };
}

async function readBody(request: Request, maxRequestBytes: number): Promise<unknown> {
  if (request.body === null) return undefined;
  checkAnnouncedLength(request.headers.get('content-length') ?? undefined, maxRequestBytes);
  // A tee: the handler's branch buffers what this one reads, so stopping at the cap bounds both.
  const bytes = await readBounded(streamIterator(request.clone().body!), maxRequestBytes);
  return interpretBody(bytes, request.headers.get('content-type') ?? undefined);
}

/** The headers a handler's response goes out with: all of them, minus a replay marker it set. */
function outgoingHeaders(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.delete(REPLAYED_HEADER);
  return headers;
}

export interface CapturedFetchResponse {
  /** What is stored. */
  readonly captured: HttpResponse;
  /** What is sent to the client (the handler's full response, headers included). */
  readonly send: Response;
}

/**
 * Reads a handler's Response for storage. A `text/event-stream` passes through untouched; a body
 * past `maxBodyBytes` is sent as it streams; both are recorded with status and headers only.
 * @example const { captured, send } = await captureFetchResponse(await handler(request), 1024 * 1024);
 */
export async function captureFetchResponse(response: Response, maxBodyBytes: number): Promise<CapturedFetchResponse> {
  const unread = unreadBodyOf(response);
  if (unread !== undefined) return captureUnread(response, unread, maxBodyBytes);
  const headers = outgoingHeaders(response);
  const init = { status: response.status, statusText: response.statusText, headers };
  const recorded = Object.fromEntries(headers.entries());
  const omitted = (send: Response): CapturedFetchResponse => ({
    captured: { status: response.status, headers: recorded, body: new Uint8Array(0), bodyOmitted: true },
    send,
  });
  if (response.body === null) {
    return { captured: { status: response.status, headers: recorded, body: new Uint8Array(0) }, send: new Response(null, init) };
  }
  if (/^text\/event-stream\b/i.test(headers.get('content-type') ?? '')) return omitted(new Response(response.body, init));
  const collected = await collectBody(streamIterator(response.body), maxBodyBytes);
  if (collected.kind === 'overflow') return omitted(new Response(replayThenRest(collected.head, collected.rest), init));
  const body = collected.body;
  return {
    captured: { status: response.status, headers: recorded, body },
    send: new Response(NULL_BODY_STATUSES.has(response.status) ? null : asBodyInit(body), init),
  };
}

/**
 * A response whose body was never read (see lightweight-response.ts): stored from the body it
 * holds, and sent as it is — the handler's own object, minus a replay marker it set — so the
 * bytes that go out are the ones the server would have written without the middleware.
 */
function captureUnread(response: Response, unread: string | Uint8Array | null, maxBodyBytes: number): CapturedFetchResponse {
  response.headers.delete(REPLAYED_HEADER);
  const headers = Object.fromEntries(response.headers.entries());
  const body = unread === null ? new Uint8Array(0) : typeof unread === 'string' ? utf8.encode(unread) : new Uint8Array(unread);
  if (body.byteLength > maxBodyBytes) return { captured: { status: response.status, headers, body: new Uint8Array(0), bodyOmitted: true }, send: response };
  return { captured: { status: response.status, headers, body: NULL_BODY_STATUSES.has(response.status) ? new Uint8Array(0) : body }, send: response };
}

/**
 * A replay or problem as a fetch Response.
 * @example return toFetchResponse(outcome.response);
 */
export function toFetchResponse(response: HttpResponse): Response {
  const empty = response.body.byteLength === 0 || NULL_BODY_STATUSES.has(response.status);
  return new Response(empty ? null : asBodyInit(response.body), { status: response.status, headers: response.headers });
}

/**
 * The request the handler sees: without a client-sent `Idempotent-Replayed`, so nothing a client
 * sends can look like a replay. Removed in place where the headers are mutable; rebuilt only
 * where they are not (a rebuilt Request takes over the body stream, which a server may then no
 * longer drain when the body is never read).
 * @example const request = withoutReplayMarker(incoming); await handler(request);
 */
export function withoutReplayMarker(request: Request): Request {
  if (!request.headers.has(REPLAYED_HEADER)) return request;
  try {
    request.headers.delete(REPLAYED_HEADER);
    return request;
  } catch {
    const headers = new Headers(request.headers);
    headers.delete(REPLAYED_HEADER);
    return new Request(request, { headers });
  }
}
