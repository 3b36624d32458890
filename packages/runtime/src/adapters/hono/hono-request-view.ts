/**
 * The request view of the Hono adapter: the body is read once for the fingerprint, and the
 * handler can still read it, through Hono (`c.req.json()`, `text()`, validators) or through
 * `c.req.raw` (`json()`, `body`, `clone()`, `new Request(c.req.raw)`). Three ways, cheapest first:
 *
 * - **@hono/node-server** (`c.env.incoming` is Node's request, nothing has started reading it):
 *   the bytes are read from the Node stream and left on `incoming.rawBody`, where the server
 *   reads a body from for every later read of `c.req.raw` (since 1.13.8; Google Cloud Functions
 *   fill it the same way). Nothing is rebuilt: the request the handler sees is the server's own
 *   lightweight one, its `signal` and headers included. A new Request with the bytes cost ≈ 100 µs
 *   of server CPU per new key here (docs/benchmarks.md). Servers older than 1.19.1 have turned
 *   the Node stream into a web stream by the time the middleware runs, as has a middleware
 *   before this one that touched `c.req.raw.body`: those take the next way.
 * - **A body of announced length elsewhere**: read through Hono's own cache (`c.req.arrayBuffer()`),
 *   so the handler's `c.req.json()`/`text()` reuse those bytes; before the handler runs
 *   (`beforeHandler`) `c.req.raw` becomes a Request over the same bytes. A replay or a refusal
 *   never builds it.
 * - **A body without a length** (chunked): read from a clone, up to the cap, as the fetch adapter does.
 */
import { fetchRequestView } from '../http/fetch-exchange.js';
import { checkAnnouncedLength, interpretBody, readBounded } from '../http/request-body.js';
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

/** Node's request under @hono/node-server (`c.env.incoming`), as far as it is used here. */
interface NodeIncomingLike {
  readonly readableDidRead: boolean;
  readonly readableFlowing: boolean | null;
  rawBody?: unknown;
  listenerCount(event: string): number;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

const utf8 = new TextDecoder();

/** The view, and what the middleware calls just before the handler runs. */
export interface HonoRequestView extends HttpRequestView {
  /** Puts a readable Request over the bytes already read back on `c.req.raw` (no-op if none were read). */
  beforeHandler(): void;
}

/**
 * The own state of a @hono/node-server request (1.19.1 and later) while no web Request was built
 * from it: its Node request, method, URL, headers and abort controller — nothing that reads the
 * body. Once one is built (`c.req.raw.body`, `clone()`…, by a middleware before this one), it
 * holds a web stream that pulls from Node's request, and reading that request here would leave
 * the stream empty. An allowlist, so a server that stores anything else falls back to the way
 * that works everywhere.
 */
const UNREAD_SERVER_STATE: ReadonlySet<string | undefined> = new Set(['incomingKey', 'methodKey', 'urlKey', 'headersKey', 'abortControllerKey']);

const untouchedByServer = (request: Request) => Object.getOwnPropertySymbols(request).every((symbol) => UNREAD_SERVER_STATE.has(symbol.description));

/**
 * Node's request behind a Hono context, when its body is the middleware's to read: the platform
 * already buffered it (`rawBody`), or nobody has read, paused or subscribed to the stream, nor
 * built a web Request over it.
 */
function unreadIncoming(env: unknown, request: Request): NodeIncomingLike | null {
  const incoming = (env as { incoming?: Partial<NodeIncomingLike> } | null | undefined)?.incoming;
  if (typeof incoming !== 'object' || incoming === null) return null;
  if (Buffer.isBuffer(incoming.rawBody)) return incoming as NodeIncomingLike;
  const untouched =
    incoming.readableDidRead === false &&
    incoming.readableFlowing === null &&
    typeof incoming.listenerCount === 'function' &&
    incoming.listenerCount('data') === 0 &&
    typeof incoming[Symbol.asyncIterator] === 'function' &&
    untouchedByServer(request);
  return untouched ? (incoming as NodeIncomingLike) : null;
}

/**
 * A view over a Hono request, reading its body at most once. `env` is the context's `c.env`
 * (on @hono/node-server it carries Node's request).
 * @example const view = honoRequestView(c.req, 1024 * 1024, c.env); await view.body();
 */
export function honoRequestView(req: HonoRequestLike, maxRequestBytes: number, env?: unknown): HonoRequestView {
  const request = req.raw;
  const view = fetchRequestView(request, { path: req.path, maxRequestBytes });
  const length = request.headers.get('content-length');
  if (length === null || request.headers.has('transfer-encoding')) return { ...view, beforeHandler() {} };
  const incoming = unreadIncoming(env, request);
  if (incoming) return { ...view, body: once(() => readIncoming(incoming, length, request, maxRequestBytes)), beforeHandler() {} };
  if (typeof req.arrayBuffer !== 'function') return { ...view, beforeHandler() {} };
  let read: ArrayBuffer | undefined;
  return {
    ...view,
    body: once(() =>
      readCached(req, length, maxRequestBytes).then(({ buffer, parsed }) => {
        read = buffer;
        return parsed;
      }),
    ),
    beforeHandler() {
      if (read === undefined || req.raw !== request) return;
      req.raw = new Request(request.url, { method: request.method, headers: request.headers, body: read, signal: request.signal });
    },
  };
}

const once = (read: () => Promise<unknown>) => {
  let body: Promise<unknown> | undefined;
  return () => (body ??= read());
};

async function readIncoming(incoming: NodeIncomingLike, length: string, request: Request, maxRequestBytes: number): Promise<unknown> {
  // The announced length bounds what arrives (Node's parser holds the client to it): refused before reading.
  checkAnnouncedLength(length, maxRequestBytes);
  let bytes: Uint8Array;
  if (Buffer.isBuffer(incoming.rawBody)) {
    bytes = incoming.rawBody;
  } else {
    bytes = await readBounded(incoming[Symbol.asyncIterator](), maxRequestBytes);
    incoming.rawBody = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return interpretBody(bytes, request.headers.get('content-type') ?? undefined);
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
