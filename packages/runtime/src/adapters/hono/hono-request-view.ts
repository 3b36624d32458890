/**
 * The request view of the Hono adapter. A body of announced length is read once through Hono's
 * own body cache (`c.req.arrayBuffer()`), so the handler's `c.req.json()`/`text()` reuse those
 * bytes instead of a second read of a tee'd stream; `c.req.raw` is then a Request carrying the
 * same bytes, so a handler that reads the raw Request still can. A body without a length
 * (chunked) is read from a clone, up to the cap, as the fetch adapter does.
 */
import { fetchRequestView } from '../http/fetch-exchange.js';
import { checkAnnouncedLength, interpretBody } from '../http/request-body.js';
import type { HttpRequestView } from '../http/request-view.js';

/** The part of Hono's request used here (structural: no import of hono). */
export interface HonoRequestLike {
  /** Replaced by a Request over the bytes read, so it stays readable for the handler. */
  raw: Request;
  readonly path: string;
  header(name: string): string | undefined;
  /** Hono's cached read; absent on a stand-in request, which then takes the clone path. */
  arrayBuffer?(): Promise<ArrayBuffer>;
  /** Hono's per-request body cache (`text`, `json`, `arrayBuffer`… -> promise). */
  readonly bodyCache?: { text?: unknown };
}

const utf8 = new TextDecoder();

/**
 * A view over a Hono request, reading its body at most once.
 * @example const view = honoRequestView(c.req, 1024 * 1024); await view.body();
 */
export function honoRequestView(req: HonoRequestLike, maxRequestBytes: number): HttpRequestView {
  const request = req.raw;
  const view = fetchRequestView(request, { path: req.path, maxRequestBytes });
  const length = request.headers.get('content-length');
  if (length === null || typeof req.arrayBuffer !== 'function' || request.headers.has('transfer-encoding')) return view;
  let body: Promise<unknown> | undefined;
  return {
    method: view.method,
    path: view.path,
    query: view.query,
    header: view.header,
    body() {
      body ??= readCached(req, request, length, maxRequestBytes);
      return body;
    },
  };
}

async function readCached(req: HonoRequestLike, request: Request, length: string, maxRequestBytes: number): Promise<unknown> {
  // The announced length bounds what arrives (the HTTP layer enforces it): refused before reading.
  checkAnnouncedLength(length, maxRequestBytes);
  const buffer = await req.arrayBuffer!();
  req.raw = new Request(request.url, { method: request.method, headers: request.headers, body: buffer, signal: request.signal });
  const bytes = new Uint8Array(buffer);
  const parsed = interpretBody(bytes, request.headers.get('content-type') ?? undefined);
  // A handler's c.req.text()/json() then decode these bytes as Request.text() would (UTF-8,
  // replacing invalid sequences); without this, Hono would rebuild a Response to decode them.
  if (req.bodyCache && !(parsed instanceof Uint8Array) && req.bodyCache.text === undefined) {
    req.bodyCache.text = Promise.resolve(utf8.decode(bytes));
  }
  return parsed;
}
