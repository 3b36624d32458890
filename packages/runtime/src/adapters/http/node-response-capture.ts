/**
 * Capturing what a handler writes to a Node `ServerResponse` (Express, NestJS): writes are held
 * until the handler ends the response, so it can be stored BEFORE the client sees it — a retry
 * can then never race ahead of its own record. Streams (`text/event-stream`, `flushHeaders()`)
 * and bodies past `maxBodyBytes` switch to pass-through and are recorded with status and headers only.
 */
import { concatBytes, toBytes } from './body-collector.js';
import { flattenHeaders, NULL_BODY_STATUSES, REPLAYED_HEADER, type HttpResponse } from './http-response.js';

/** The part of `http.ServerResponse` that is touched. */
export interface NodeResponseLike {
  statusCode: number;
  statusMessage?: string;
  readonly headersSent: boolean;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  getHeader(name: string): number | string | string[] | undefined;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  removeHeader(name: string): void;
  writeHead: (...args: never[]) => unknown;
  write: (...args: never[]) => boolean;
  end: (...args: never[]) => unknown;
  flushHeaders?: () => void;
}

export interface NodeResponseCapture {
  /** The handler's response, once it ended it or once it started streaming. */
  readonly response: Promise<HttpResponse>;
  /** Sends the held response for real; after a switch to streaming, only restores. */
  flush(): void;
  /** Puts the original methods back without sending anything. */
  restore(): void;
}

type Callback = (error?: Error | null) => void;
type AnyFn = (...args: unknown[]) => unknown;

function applyHeadArgs(res: NodeResponseLike, args: unknown[]): void {
  const [status, second, third] = args;
  if (typeof status === 'number') res.statusCode = status;
  if (typeof second === 'string') res.statusMessage = second;
  const headers = typeof second === 'string' ? third : second;
  if (Array.isArray(headers)) {
    // writeHead(status, ['name', 'value', 'name', 'value']) — Node's raw form.
    for (let index = 0; index + 1 < headers.length; index += 2) res.setHeader(String(headers[index]), String(headers[index + 1]));
  } else if (headers && typeof headers === 'object') {
    for (const [name, value] of Object.entries(headers as Record<string, string | number | string[]>)) {
      if (value !== undefined) res.setHeader(name, value);
    }
  }
}

/**
 * Starts holding the response's writes.
 * @example
 * const capture = captureNodeResponse(res, 1024 * 1024);
 * next(); const response = await capture.response; await store(response); capture.flush();
 */
export function captureNodeResponse(res: NodeResponseLike, maxBodyBytes: number): NodeResponseCapture {
  const target = res as unknown as Record<'writeHead' | 'write' | 'end' | 'flushHeaders', AnyFn | undefined>;
  const original = { writeHead: target.writeHead!, write: target.write!, end: target.end!, flushHeaders: target.flushHeaders };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let state: 'holding' | 'ended' | 'streaming' | 'restored' = 'holding';
  const endCallbacks: Callback[] = [];
  let resolveResponse!: (response: HttpResponse) => void;
  const response = new Promise<HttpResponse>((resolve) => {
    resolveResponse = resolve;
  });

  const snapshot = (bodyOmitted: boolean): HttpResponse => ({
    status: res.statusCode,
    headers: flattenHeaders(res.getHeaders()),
    body: bodyOmitted ? new Uint8Array(0) : concatBytes(chunks),
    ...(bodyOmitted ? { bodyOmitted: true } : {}),
  });

  function restore(): void {
    if (state === 'restored') return;
    target.writeHead = original.writeHead;
    target.write = original.write;
    target.end = original.end;
    target.flushHeaders = original.flushHeaders;
    // Only the replay path may ever set it; a handler echoing it must not fake a replay.
    if (!res.headersSent) res.removeHeader(REPLAYED_HEADER);
  }

  /** Sends what is held and lets the rest through: the body will not be stored. */
  function startStreaming(): void {
    const held = snapshot(true);
    restore();
    state = 'streaming';
    if (chunks.length === 0) original.flushHeaders?.call(res);
    for (const chunk of chunks) original.write.call(res, chunk);
    resolveResponse(held);
  }

  const isEventStream = () => /^text\/event-stream\b/i.test(String(res.getHeader('content-type') ?? ''));

  /** Holds a chunk; returns false once the response switched to streaming (chunk not held). */
  function hold(chunk: unknown, encoding: unknown): boolean {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : toBytes(chunk);
    if (isEventStream() || size + bytes.byteLength > maxBodyBytes) {
      startStreaming();
      return false;
    }
    chunks.push(bytes);
    size += bytes.byteLength;
    return true;
  }

  target.writeHead = (...args: unknown[]) => {
    applyHeadArgs(res, args);
    return res;
  };
  target.flushHeaders = () => startStreaming();
  target.write = (...args: unknown[]) => {
    const [chunk, encoding, callback] = args;
    if (!hold(chunk, encoding)) return original.write.apply(res, args) as boolean;
    const done = (typeof encoding === 'function' ? encoding : callback) as Callback | undefined;
    if (done) process.nextTick(done);
    return true;
  };
  target.end = (...args: unknown[]) => {
    const [chunk, encoding, callback] = args;
    if (state !== 'holding') return original.end.apply(res, args);
    if (!hold(chunk, encoding)) return original.end.apply(res, args);
    const done = [chunk, encoding, callback].find((arg) => typeof arg === 'function') as Callback | undefined;
    if (done) endCallbacks.push(done);
    state = 'ended';
    resolveResponse(snapshot(false));
    return res;
  };

  return {
    response,
    restore() {
      restore();
      state = 'restored';
    },
    flush() {
      const ended = state === 'ended';
      restore();
      state = 'restored';
      if (!ended) return;
      const body = concatBytes(chunks);
      original.end.call(res, body.byteLength === 0 ? undefined : body, () => endCallbacks.forEach((callback) => callback()));
    },
  };
}

/**
 * Sends a replay or problem on a Node response. Headers that earlier middleware set (CORS, say)
 * stay; the stored ones win where they overlap.
 * @example writeNodeResponse(res, outcome.response);
 */
export function writeNodeResponse(res: NodeResponseLike, response: HttpResponse): void {
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (!NULL_BODY_STATUSES.has(response.status)) res.setHeader('content-length', String(response.body.byteLength));
  (res.end as (body?: Uint8Array) => unknown)(response.body.byteLength === 0 ? undefined : response.body);
}
