/**
 * Fastify 5 plugin. `preHandler` claims the key (or answers a replay/problem at once); `onSend`
 * captures the serialized reply, stores it, then lets it out. Register it in the scope of the
 * routes it protects; a route opts out with `config: { idempotency: false }`.
 */
import { Readable } from 'node:stream';
import { collectBody, toBytes } from '../http/body-collector.js';
import { createHttpIdempotency, type HttpOutcome } from '../http/http-idempotency.js';
import { flattenHeaders, REPLAYED_HEADER, type HttpResponse } from '../http/http-response.js';
import type { HttpIdempotencyOptions } from '../http/options.js';
import { nodeRequestView, PASSTHROUGH_METHODS, type NodeRequestLike } from '../http/request-view.js';

/** What is used of a Fastify request. */
export interface FastifyRequestLike extends NodeRequestLike {
  readonly routeOptions?: { readonly config?: unknown };
}

/** What is used of a Fastify reply. */
export interface FastifyReplyLike {
  readonly statusCode: number;
  code(statusCode: number): unknown;
  header(name: string, value: string): unknown;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  removeHeader(name: string): unknown;
  send(payload?: unknown): unknown;
}

/** What is used of a Fastify instance: three hooks. */
export interface FastifyInstanceLike {
  addHook(name: 'preHandler', hook: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>): unknown;
  addHook(name: 'onSend', hook: (request: FastifyRequestLike, reply: FastifyReplyLike, payload: unknown) => Promise<unknown>): unknown;
  addHook(name: 'onResponse', hook: (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<void>): unknown;
}

export type FastifyIdempotencyOptions = HttpIdempotencyOptions<FastifyRequestLike>;

/** One protected request between its preHandler and its onSend. */
interface Exchange {
  outcome: Promise<HttpOutcome>;
  captured: boolean;
  resolve(response: HttpResponse): void;
  reject(error: Error): void;
}

const isStream = (payload: unknown): payload is AsyncIterable<unknown> =>
  payload !== null && typeof payload === 'object' && Symbol.asyncIterator in payload && typeof (payload as { pipe?: unknown }).pipe === 'function';

/** The serialized payload as stored bytes, and what Fastify sends instead of it. */
async function capturePayload(payload: unknown, reply: FastifyReplyLike, maxBodyBytes: number): Promise<{ captured: HttpResponse; send: unknown }> {
  const headers = flattenHeaders(reply.getHeaders());
  const omitted = (send: unknown) => ({ captured: { status: reply.statusCode, headers, body: new Uint8Array(0), bodyOmitted: true }, send });
  if (payload === null || payload === undefined) return { captured: { status: reply.statusCode, headers, body: new Uint8Array(0) }, send: payload };
  if (!isStream(payload)) {
    const body = toBytes(payload);
    if (body.byteLength > maxBodyBytes) return omitted(payload);
    return { captured: { status: reply.statusCode, headers, body }, send: payload };
  }
  if (/^text\/event-stream\b/i.test(headers['content-type'] ?? '')) return omitted(payload);
  const collected = await collectBody(payload[Symbol.asyncIterator](), maxBodyBytes);
  if (collected.kind === 'complete') return { captured: { status: reply.statusCode, headers, body: collected.body }, send: Buffer.from(collected.body) };
  const { head, rest } = collected;
  return omitted(Readable.from((async function* () {
    yield* head;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  })()));
}

function sendResponse(reply: FastifyReplyLike, response: HttpResponse): void {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  reply.send(Buffer.from(response.body));
}

/**
 * The plugin. Options are validated when it is registered: a missing scope resolver makes
 * `app.ready()` reject.
 * @example
 * import Fastify from 'fastify';
 * import { idempotencyPlugin } from '@idempotency-builder/runtime/fastify';
 * const app = Fastify();
 * await app.register(idempotencyPlugin, { idempotency, scope: (request) => request.headers['x-user-id'] as string });
 * app.post('/payments', async (request, reply) => reply.code(201).send(await createPayment(request.body)));
 */
export async function idempotencyPlugin(fastify: FastifyInstanceLike, options: FastifyIdempotencyOptions): Promise<void> {
  const http = createHttpIdempotency(options);
  const { maxBodyBytes } = http.options;
  const exchanges = new WeakMap<FastifyRequestLike, Exchange>();

  fastify.addHook('preHandler', async (request, reply) => {
    delete request.headers[REPLAYED_HEADER];
    const config = request.routeOptions?.config as { idempotency?: unknown } | undefined;
    if (config?.idempotency === false || PASSTHROUGH_METHODS.has((request.method ?? 'GET').toUpperCase())) return;

    let started!: () => void;
    const handlerStarts = new Promise<'started'>((resolve) => (started = () => resolve('started')));
    const exchange = { captured: false } as Exchange;
    const response = new Promise<HttpResponse>((resolve, reject) => Object.assign(exchange, { resolve, reject }));
    exchange.outcome = http.handle(request, nodeRequestView(request), () => {
      exchanges.set(request, exchange);
      started();
      return response;
    });
    exchange.outcome.catch(() => {}); // awaited in onSend; a hijacked reply never gets there

    const first = await Promise.race([handlerStarts, exchange.outcome]);
    if (first === 'started' || first.kind === 'pass') return;
    if (first.kind === 'respond') {
      sendResponse(reply, first.response);
      return reply;
    }
  });

  fastify.addHook('onSend', async (request, reply, payload) => {
    const exchange = exchanges.get(request);
    if (!exchange || exchange.captured) return payload;
    exchange.captured = true;
    reply.removeHeader(REPLAYED_HEADER);
    const { captured, send } = await capturePayload(payload, reply, maxBodyBytes);
    exchange.resolve(captured);
    await exchange.outcome.catch(() => undefined); // recording failed: the handler's reply still goes out
    return send;
  });

  // A reply that bypassed onSend (reply.hijack()) was never captured: release its key.
  fastify.addHook('onResponse', async (request) => {
    const exchange = exchanges.get(request);
    if (exchange && !exchange.captured) exchange.reject(new Error('The reply was not captured (hijacked); the key is released.'));
  });
}

// Like fastify-plugin: the hooks apply to the scope the plugin is registered in, not a child.
(idempotencyPlugin as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')] = true;
(idempotencyPlugin as unknown as Record<symbol, unknown>)[Symbol.for('fastify.display-name')] = 'idempotency-builder';
