/**
 * The request view of the Hono adapter. A body of announced length is read once through Hono's
 * own body cache (`c.req.arrayBuffer()`), so the handler's `c.req.json()`/`text()` reuse those
 * bytes instead of a second read of a tee'd stream. Before the handler runs (`beforeHandler`),
 * `c.req.raw` becomes a Request carrying the same bytes, so a handler that reads the raw Request
 * still can; a replay or a refusal never builds it (a Request costs about 40–50 µs on Node 20).
 * A body without a length (chunked) is read from a clone, up to the cap, as the fetch adapter does.
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

/** The view, and what the middleware calls just before the handler runs. */
export interface HonoRequestView extends HttpRequestView {
  /** Puts a readable Request over the bytes already read back on `c.req.raw` (no-op if none were read). */
  beforeHandler(): void;
}

/**
 * A view over a Hono request, reading its body at most once.
 * @example const view = honoRequestView(c.req, 1024 * 1024); await view.body();
 */
export function honoRequestView(req: HonoRequestLike, maxRequestBytes: number): HonoRequestView {
  const request = req.raw;
  const view = fetchRequestView(request, { path: req.path, maxRequestBytes });
  const length = request.headers.get('content-length');
  if (length === null || typeof req.arrayBuffer !== 'function' || request.headers.has('transfer-encoding')) return { ...view, beforeHandler() {} };
  let body: Promise<unknown> | undefined;
  let read: ArrayBuffer | undefined;
  return {
    method: view.method,
    path: view.path,
    query: view.query,
    header: view.header,
    body() {
      body ??= readCached(req, length, maxRequestBytes).then(({ buffer, parsed }) => {
        read = buffer;
        return parsed;
      });
      return body;
    },
    beforeHandler() {
      if (read === undefined || req.raw !== request) return;
      req.raw = new Request(request.url, { method: request.method, headers: request.headers, body: read, signal: request.signal });
    },
  };
}

async function readCached(req: HonoRequestLike, length: string, maxRequestBytes: number): Promise<{ buffer: ArrayBuffer; parsed: unknown }> {
  const request = req.raw;
  // The announced length bounds what arrives (the HTTP layer enforces it): refused before reading.
  checkAnnouncedLength(length, maxRequestBytes);
  const buffer = await req.arrayBuffer!();
  const bytes = new Uint8Array(buffer);
  const parsed = interpretBody(bytes, request.headers.get('content-type') ?? undefined);
  // A handler's c.req.text()/json() then decode these bytes as Request.text() would (UTF-8,
  // replacing invalid sequences); without this, Hono would rebuild a Response to decode them.
  if (req.bodyCache && !(parsed instanceof Uint8Array) && req.bodyCache.text === undefined) {
    req.bodyCache.text = Promise.resolve(utf8.decode(bytes));
  }
  return { buffer, parsed };
}
