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

type Method = 'writeHead' | 'write' | 'end' | 'flushHeaders';
type Methods = Record<Method, AnyFn | undefined>;

/** Where a held response keeps its capture, for the methods installed on it. */
const kCapture = Symbol('idempotency-builder response capture');
type Held = NodeResponseLike & { [kCapture]?: ResponseCapture };

const captureOf = (res: unknown) => {
  const capture = (res as Held | undefined)?.[kCapture];
  if (!capture) throw new TypeError('A held response method was called on something that is not the held response.');
  return capture;
};

/**
 * The methods a held response gets: the same four functions for every response, reaching their
 * capture through `this` (so every response keeps one shape in V8, and nothing is allocated per
 * method per request). Node's own methods need `this` too.
 */
const HELD: Methods = {
  writeHead(this: unknown, ...args: unknown[]) {
    return captureOf(this).writeHead(args);
  },
  write(this: unknown, ...args: unknown[]) {
    return captureOf(this).write(args);
  },
  end(this: unknown, ...args: unknown[]) {
    return captureOf(this).end(args);
  },
  flushHeaders(this: unknown) {
    captureOf(this).startStreaming();
  },
};

class ResponseCapture implements NodeResponseCapture {
  readonly response: Promise<HttpResponse>;
  #resolve!: (response: HttpResponse) => void;
  readonly #res: Held;
  readonly #maxBodyBytes: number;
  readonly #original: Methods;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;
  #state: 'holding' | 'ended' | 'streaming' | 'restored' = 'holding';
  readonly #endCallbacks: Callback[] = [];

  constructor(res: NodeResponseLike, maxBodyBytes: number) {
    this.#res = res as Held;
    this.#maxBodyBytes = maxBodyBytes;
    this.response = new Promise<HttpResponse>((resolve) => {
      this.#resolve = resolve;
    });
    const target = res as unknown as Methods;
    this.#original = { writeHead: target.writeHead, write: target.write, end: target.end, flushHeaders: target.flushHeaders };
    this.#res[kCapture] = this;
    target.writeHead = HELD.writeHead;
    target.write = HELD.write;
    target.end = HELD.end;
    target.flushHeaders = HELD.flushHeaders;
  }

  writeHead(args: unknown[]): NodeResponseLike {
    applyHeadArgs(this.#res, args);
    return this.#res;
  }

  write(args: unknown[]): boolean {
    const [chunk, encoding, callback] = args;
    if (!this.#hold(chunk, encoding)) return this.#original.write!.apply(this.#res, args) as boolean;
    const done = (typeof encoding === 'function' ? encoding : callback) as Callback | undefined;
    if (done) process.nextTick(done);
    return true;
  }

  end(args: unknown[]): unknown {
    const [chunk, encoding, callback] = args;
    if (this.#state !== 'holding' || !this.#hold(chunk, encoding)) return this.#original.end!.apply(this.#res, args);
    const done = [chunk, encoding, callback].find((arg) => typeof arg === 'function') as Callback | undefined;
    if (done) this.#endCallbacks.push(done);
    this.#state = 'ended';
    this.#resolve(this.#snapshot(false));
    return this.#res;
  }

  /** Sends what is held and lets the rest through: the body will not be stored. */
  startStreaming(): void {
    const held = this.#snapshot(true);
    this.#restoreMethods();
    this.#state = 'streaming';
    if (this.#chunks.length === 0) this.#original.flushHeaders?.call(this.#res);
    for (const chunk of this.#chunks) this.#original.write!.call(this.#res, chunk);
    this.#resolve(held);
  }

  restore(): void {
    this.#restoreMethods();
    this.#state = 'restored';
  }

  flush(): void {
    const ended = this.#state === 'ended';
    this.restore();
    if (!ended) return;
    const body = concatBytes(this.#chunks);
    const callbacks = this.#endCallbacks;
    this.#original.end!.call(this.#res, body.byteLength === 0 ? undefined : body, () => callbacks.forEach((callback) => callback()));
  }

  #restoreMethods(): void {
    if (this.#state === 'restored') return;
    const target = this.#res as unknown as Methods;
    target.writeHead = this.#original.writeHead;
    target.write = this.#original.write;
    target.end = this.#original.end;
    target.flushHeaders = this.#original.flushHeaders;
    this.#res[kCapture] = undefined;
    // Only the replay path may ever set it; a handler echoing it must not fake a replay.
    if (!this.#res.headersSent) this.#res.removeHeader(REPLAYED_HEADER);
  }

  #snapshot(bodyOmitted: boolean): HttpResponse {
    const res = this.#res;
    return {
      status: res.statusCode,
      headers: flattenHeaders(res.getHeaders()),
      body: bodyOmitted ? new Uint8Array(0) : concatBytes(this.#chunks),
      ...(bodyOmitted ? { bodyOmitted: true } : {}),
    };
  }

  #isEventStream(): boolean {
    return /^text\/event-stream\b/i.test(String(this.#res.getHeader('content-type') ?? ''));
  }

  /** Holds a chunk; returns false once the response switched to streaming (chunk not held). */
  #hold(chunk: unknown, encoding: unknown): boolean {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return true;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : toBytes(chunk);
    if (this.#isEventStream() || this.#size + bytes.byteLength > this.#maxBodyBytes) {
      this.startStreaming();
      return false;
    }
    this.#chunks.push(bytes);
    this.#size += bytes.byteLength;
    return true;
  }
}

/**
 * Starts holding the response's writes.
 * @example
 * const capture = captureNodeResponse(res, 1024 * 1024);
 * next(); const response = await capture.response; await store(response); capture.flush();
 */
export function captureNodeResponse(res: NodeResponseLike, maxBodyBytes: number): NodeResponseCapture {
  return new ResponseCapture(res, maxBodyBytes);
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
