/**
 * The least adapter, one per framework, for the HTTP bench's in-situ floor: the work no protected
 * request can skip (hash the request, claim its key, capture the serialized response and record
 * it before it leaves), done inside the framework's own hooks or middleware and nothing else — no
 * key validation beyond presence, no problem responses. Not safe to use (a second claim of a key
 * fails the request with a 500): it exists to measure, under the same load as the real adapters,
 * what the framework's request path plus that work costs.
 *
 * bench/http/floor.ts measures the same work in a tight loop; in a server it costs more (the
 * framework's code and ours share the caches, the hook machinery and the capture are the
 * framework's), so this route is the ceiling that carries over to a real server.
 *
 * A request whose key is already completed is answered from the hook with the stored bytes (the
 * fingerprint compared, nothing else): the in-situ floor of a replay.
 *
 * The same glue runs two more rungs, so a gap to the real adapter can be placed (opt-in cases):
 * `engine` — the engine's begin()/complete() instead of the bare store (lease, heartbeat,
 * single-flight, store timeouts); `layer` — the shared HTTP layer's begin()/finish() (key
 * parsing, principal, fingerprint policy, replay serializer). The real adapter adds its own
 * capture and hooks on top.
 */
import type { Idempotency, IdempotencyStore, StoredResponse } from '@idempotency-builder/runtime';
import { importRuntime } from '../runtime-import.js';

export const RUNGS = ['least', 'engine', 'layer'] as const;
export type Rung = (typeof RUNGS)[number];

const LEASE_MS = 30_000;
const TTL_MS = 600_000;
const KEY_HEADER = 'idempotency-key';
const SCOPE_HEADER = 'x-user';

/** What the glue knows of a request once the framework parsed it. */
interface Parsed {
  readonly method: string;
  readonly path: string;
  header(name: string): string | undefined;
  readonly body: unknown;
}

/** Records the handler's serialized response once it is known. */
type Recorder = (status: number, contentType: string | undefined, body: Uint8Array) => Promise<void>;

/** A stored response, answered instead of running the handler. */
interface Replay {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** One rung: claim before the handler, record its serialized response after; or a replay. */
interface Protector {
  start(request: Parsed): Promise<Recorder | Replay>;
}

const isReplay = (started: Recorder | Replay): started is Replay => typeof started !== 'function';

type Http = typeof import('@idempotency-builder/runtime/http');

function leastProtector(store: IdempotencyStore, http: Http): Protector {
  return {
    async start(request) {
      const key = request.header(KEY_HEADER)!;
      const scope = request.header(SCOPE_HEADER)!;
      const fingerprint = http.requestFingerprint({ method: request.method, path: request.path, body: request.body });
      const claimed = await store.claim({ key, scope, fingerprint, owner: null, leaseMs: LEASE_MS, ttlMs: TTL_MS, replaceExpired: true });
      if (claimed.outcome !== 'claimed') {
        const { record } = claimed;
        if (record.status !== 'COMPLETED' || record.fingerprint !== fingerprint || !record.response) throw new Error(`least adapter: ${key} is not a replay`);
        const { statusCode, headers, body } = record.response;
        return { status: statusCode ?? 200, headers: headers ?? {}, body };
      }
      return async (statusCode, contentType, body) => {
        const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
        const response: StoredResponse = { encoding: 'json', body, statusCode, headers };
        if ((await store.complete({ key, scope, lockVersion: claimed.lockVersion, response, ttlMs: TTL_MS })) !== 'applied') throw new Error(`least adapter: ${key} was lost`);
      };
    },
  };
}

function engineProtector(idempotency: Idempotency, http: Http): Protector {
  // Stored as the adapters store it: the HTTP layer's serializer (status, headers, body bytes).
  const serializer = http.createHttpSerializer();
  return {
    async start(request) {
      const fingerprint = http.requestFingerprint({ method: request.method, path: request.path, body: request.body });
      const begun = await idempotency.begin({ key: request.header(KEY_HEADER)!, scope: request.header(SCOPE_HEADER)!, fingerprint }, { serializer });
      if (begun.outcome !== 'claimed') throw new Error('engine rung: the key was not new');
      return (status, contentType, body) => begun.complete({ status, headers: contentType === undefined ? {} : { 'content-type': contentType }, body });
    },
  };
}

function layerProtector(idempotency: Idempotency, http: Http): Protector {
  const layer = http.createHttpIdempotency<Parsed>({ idempotency, scope: (request) => request.header(SCOPE_HEADER) });
  return {
    async start(request) {
      const view = { method: request.method, path: request.path, header: request.header, body: () => request.body };
      const begun = await layer.begin(request, view);
      if (begun.kind !== 'held') throw new Error(`layer rung: answered ${begun.kind}`);
      return (status, contentType, body) => begun.finish({ status, headers: contentType === undefined ? {} : { 'content-type': contentType }, body });
    },
  };
}

/**
 * The protector of one rung over the bench server's engine (and its store).
 * @example const protector = await protectorFor('least', idempotency);
 */
export async function protectorFor(rung: Rung, idempotency: Idempotency): Promise<Protector> {
  const http = await importRuntime<Http>('http');
  if (rung === 'least') return leastProtector(idempotency.options.store, http);
  return rung === 'engine' ? engineProtector(idempotency, http) : layerProtector(idempotency, http);
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
const bytesOf = (body: unknown) => (typeof body === 'string' ? Buffer.from(body) : (body as Buffer));

/** Express middleware: claims, then records the body `res.send` is given before sending it. */
export function expressGlue(protector: Protector) {
  type Req = import('express').Request;
  type Res = import('express').Response;
  return (req: Req, res: Res, next: (error?: unknown) => void) => {
    const parsed: Parsed = { method: req.method, path: req.path, header: (name) => single(req.headers[name]), body: req.body as unknown };
    protector.start(parsed).then((record) => {
      if (isReplay(record)) {
        res.status(record.status).set(record.headers).end(record.body);
        return;
      }
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        record(res.statusCode, res.get('content-type'), bytesOf(body)).then(() => send(body), next);
        return res;
      };
      next();
    }, next);
  };
}

/** Fastify plugin body: preHandler claims, onSend records the serialized payload. */
export function fastifyGlue(protector: Protector) {
  type Instance = import('fastify').FastifyInstance;
  const held = new WeakMap<object, Recorder>();
  return (scope: Instance) => {
    scope.addHook('preHandler', async (request, reply) => {
      const parsed: Parsed = { method: request.method, path: request.url, header: (name) => single(request.headers[name]), body: request.body };
      const started = await protector.start(parsed);
      if (isReplay(started)) return reply.code(started.status).headers(started.headers).send(Buffer.from(started.body.buffer, started.body.byteOffset, started.body.byteLength));
      held.set(request, started);
      return undefined;
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      const record = held.get(request);
      if (!record) return payload; // a replay: nothing to record
      const contentType = reply.getHeader('content-type');
      await record(reply.statusCode, contentType === undefined ? undefined : String(contentType), bytesOf(payload));
      return payload;
    });
  };
}

/** Hono middleware: claims, runs the handler, reads its Response's bytes, records them and answers with a copy. */
export function honoGlue(protector: Protector) {
  return async (c: import('hono').Context, next: () => Promise<void>) => {
    const record = await protector.start({ method: c.req.method, path: c.req.path, header: (name) => c.req.header(name), body: await c.req.json() });
    if (isReplay(record)) return new Response(record.body as Uint8Array<ArrayBuffer>, { status: record.status, headers: record.headers });
    await next();
    const { status, headers } = c.res;
    const body = new Uint8Array(await c.res.arrayBuffer());
    await record(status, headers.get('content-type') ?? undefined, body);
    c.res = undefined;
    c.res = new Response(body, { status, headers });
    return undefined;
  };
}

/** Koa middleware: claims, runs the handler, records the body Koa will send (as JSON) before it is sent. */
export function koaGlue(protector: Protector) {
  type Ctx = import('koa').ParameterizedContext;
  return async (ctx: Ctx, next: () => Promise<unknown>) => {
    const started = await protector.start({ method: ctx.method, path: ctx.path, header: (name) => ctx.get(name) || undefined, body: (ctx.request as { body?: unknown }).body });
    if (isReplay(started)) {
      ctx.status = started.status;
      ctx.set(started.headers);
      ctx.body = Buffer.from(started.body.buffer, started.body.byteOffset, started.body.byteLength);
      return;
    }
    await next();
    const bytes = Buffer.from(JSON.stringify(ctx.body));
    await started(ctx.status, 'application/json; charset=utf-8', bytes);
    ctx.body = bytes;
  };
}
