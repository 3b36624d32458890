/**
 * Koa's response as the HTTP layer sees it, both ways: what a handler left on `ctx` (status,
 * headers, `ctx.body` as Koa itself would serialize it) becomes an `HttpResponse` to store, and a
 * replay or problem is put back on `ctx` for Koa to send. Koa writes the response only after the
 * whole middleware chain has settled, so reading `ctx` after `await next()` sees the answer before
 * the client does: the record is written first, as on every adapter.
 */
import { Readable } from 'node:stream';
import { collectBody } from '../http/body-collector.js';
import { flattenHeaders, type HttpResponse } from '../http/http-response.js';

/** What is used of Koa's `ctx.res` (Node's `ServerResponse`). */
export interface KoaNodeResponseLike {
  readonly headersSent: boolean;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  once?(event: 'close', listener: () => void): unknown;
  readonly writableFinished?: boolean;
  readonly destroyed?: boolean;
}

/** The response side of a Koa context (structural: Koa 2 and 3 both fit). */
export interface KoaResponseContextLike {
  status: number;
  body: unknown;
  /** The status text Koa sends as the body when a handler set a status but no body. */
  readonly message: string;
  /** `false`: the handler bypassed Koa and writes `ctx.res` itself. */
  respond?: boolean;
  readonly req: { readonly httpVersionMajor?: number };
  readonly res: KoaNodeResponseLike;
  set(field: string, value: string): unknown;
  remove(field: string): unknown;
}

/** Koa's `statuses.empty`: answered without a body, whatever `ctx.body` holds. */
const KOA_EMPTY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);
/** What `ctx.type = 'text'` sets: Koa's type for a status-message body. */
const KOA_TEXT_TYPE = 'text/plain; charset=utf-8';

/** Koa's own test for a Node stream body (lib/is-stream.js, reduced to what is read here). */
const isNodeStream = (body: unknown): body is Readable =>
  body instanceof Readable || (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function' && typeof (body as { read?: unknown }).read === 'function');

/**
 * Koa 3 also sends a Blob, a web ReadableStream or a fetch Response; Koa 2 serializes them as
 * JSON. Either way they pass through unrecorded rather than be stored as bytes one major would not send.
 */
const isWebBody = (body: unknown): boolean =>
  (typeof Blob !== 'undefined' && body instanceof Blob) ||
  (typeof ReadableStream !== 'undefined' && body instanceof ReadableStream) ||
  (typeof Response !== 'undefined' && body instanceof Response);

/** A stream's first chunks, read for the cap, then the rest of it, as one Node stream. */
function readableThenRest(head: readonly Uint8Array[], rest: AsyncIterator<Uint8Array>): Readable {
  return Readable.from(
    (async function* () {
      try {
        yield* head;
        for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
      } finally {
        // A client that goes away stops this stream: the handler's stream is destroyed with it.
        await rest.return?.();
      }
    })(),
  );
}

/**
 * What the handler's answer will be, read from `ctx` after `await next()`. A body is stored as the
 * bytes Koa would send (an object as `JSON.stringify`, a string as UTF-8, a Buffer as is, `null`
 * or an empty status as nothing, no body at all as Koa's status text), and `ctx.body` becomes
 * those bytes, so middleware before this one sees the same value now and on every replay. A
 * stream is read up to `maxBodyBytes` and stored whole when it ends within it; an event stream, a
 * web body, or a body past the cap passes through with status and headers recorded
 * (`bodyOmitted`). Null when the handler bypassed Koa (`ctx.respond = false`, or headers already
 * sent): nothing reliable can be recorded.
 * @example
 * await next();
 * const response = await captureKoaResponse(ctx, 1024 * 1024);
 * if (response) await held.finish(response);
 */
export async function captureKoaResponse(ctx: KoaResponseContextLike, maxBodyBytes: number): Promise<HttpResponse | null> {
  if (ctx.respond === false || ctx.res.headersSent) return null;
  const status = ctx.status;
  const body = ctx.body;
  // Read once, when first needed: every path below records the headers as they stand now.
  let flat: Record<string, string> | undefined;
  const headers = () => (flat ??= flattenHeaders(ctx.res.getHeaders()));
  const omitted = (): HttpResponse => ({ status, headers: headers(), body: new Uint8Array(0), bodyOmitted: true });
  const recorded = (bytes: Uint8Array, extra?: Record<string, string>): HttpResponse =>
    bytes.byteLength > maxBodyBytes ? omitted() : { status, headers: extra ? { ...headers(), ...extra } : headers(), body: bytes };

  if (KOA_EMPTY_STATUSES.has(status) || body === null) {
    // Koa strips the content headers of a body-less answer when it sends it; so does the record.
    const { 'content-type': _type, ...rest } = headers();
    return { status, headers: rest, body: new Uint8Array(0) };
  }
  if (body === undefined) {
    // Koa answers a status without a body with its text ("Created"); HTTP/2 with the code alone.
    const text = (ctx.req.httpVersionMajor ?? 1) >= 2 ? String(status) : ctx.message || String(status);
    return recorded(Buffer.from(text), { 'content-type': KOA_TEXT_TYPE });
  }
  // The bytes Koa would send become ctx.body (unless past the cap, then Koa sends the value itself).
  const asBody = (bytes: Buffer): HttpResponse => {
    const response = recorded(bytes);
    if (!response.bodyOmitted) ctx.body = bytes;
    return response;
  };
  if (Buffer.isBuffer(body)) return recorded(body);
  if (typeof body === 'string') return asBody(Buffer.from(body));
  if (isWebBody(body)) return omitted();
  if (isNodeStream(body)) {
    // An event stream is meant to arrive as it is written: never held back to be stored.
    if (/^text\/event-stream\b/i.test(headers()['content-type'] ?? '')) return omitted();
    const collected = await collectBody(body[Symbol.asyncIterator](), maxBodyBytes);
    if (collected.kind === 'overflow') {
      const length = headers()['content-length'];
      ctx.body = readableThenRest(collected.head, collected.rest);
      // Koa drops the length when one stream replaces another; these are the same bytes.
      if (length !== undefined) ctx.set('content-length', length);
      return omitted();
    }
    return asBody(Buffer.from(collected.body.buffer, collected.body.byteOffset, collected.body.byteLength));
  }
  // Anything else Koa sends as JSON. A value JSON cannot encode throws here, as it would in Koa.
  return asBody(Buffer.from(JSON.stringify(body)));
}

/**
 * Puts a replay or a problem on `ctx` for Koa to send: status, headers, the exact bytes. Headers
 * that middleware before this one set (CORS, say) stay; the stored ones win where they overlap.
 * @example sendOnKoa(ctx, outcome.response);
 */
export function sendOnKoa(ctx: KoaResponseContextLike, response: HttpResponse): void {
  for (const [name, value] of Object.entries(response.headers)) ctx.set(name, value);
  const typed = response.headers['content-type'] !== undefined;
  if (KOA_EMPTY_STATUSES.has(response.status)) {
    ctx.status = response.status;
    ctx.body = null;
    return;
  }
  if (response.body.byteLength === 0 && !typed) {
    // A null body first (Koa turns it into a 204), then the stored status: Koa sends it empty.
    ctx.body = null;
    ctx.status = response.status;
    return;
  }
  ctx.status = response.status;
  ctx.body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  // Koa types a Buffer without a Content-Type as application/octet-stream; the stored answer had none.
  if (!typed) ctx.remove('content-type');
}
