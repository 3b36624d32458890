/**
 * The least adapter, one per framework, for the HTTP bench's in-situ floor: the work no protected
 * request can skip (hash the request, claim its key, capture the serialized response and record
 * it before it leaves), done directly on the store inside the framework's own hooks or
 * middleware, and nothing else — no key validation beyond presence, no principal, no lease, no
 * heartbeat, no problem responses, no single-flight. Not safe to use (a second claim of a key
 * simply fails the request with 500): it exists to measure, under the same load as the real
 * adapters, what the framework's request path plus that work costs.
 *
 * bench/http/floor.ts measures the same work in a tight loop; in a server it costs more (the
 * framework's code and the store's share the caches, the hook machinery and the response capture
 * are the framework's), so this route is the ceiling that carries over to a real server.
 */
import type { IdempotencyStore, StoredResponse } from '@idempotency-builder/runtime';
import { importRuntime } from '../runtime-import.js';

const LEASE_MS = 30_000;
const TTL_MS = 600_000;
const KEY_HEADER = 'idempotency-key';
const SCOPE_HEADER = 'x-user';

type RequestFingerprint = (typeof import('@idempotency-builder/runtime/http'))['requestFingerprint'];

/** Claim or throw: the bench sends a new key per request to this route. */
async function claim(store: IdempotencyStore, key: string, scope: string, fingerprint: string): Promise<number> {
  const claimed = await store.claim({ key, scope, fingerprint, owner: null, leaseMs: LEASE_MS, ttlMs: TTL_MS, replaceExpired: true });
  if (claimed.outcome !== 'claimed') throw new Error(`least adapter: ${key} was not new`);
  return claimed.lockVersion;
}

const responseOf = (statusCode: number, contentType: string | undefined, body: Uint8Array): StoredResponse => ({
  encoding: 'json',
  body,
  statusCode,
  headers: contentType === undefined ? {} : { 'content-type': contentType },
});

async function complete(store: IdempotencyStore, key: string, scope: string, lockVersion: number, response: StoredResponse): Promise<void> {
  if ((await store.complete({ key, scope, lockVersion, response, ttlMs: TTL_MS })) !== 'applied') throw new Error(`least adapter: ${key} was lost`);
}

const fingerprinter = async (): Promise<RequestFingerprint> =>
  (await importRuntime<typeof import('@idempotency-builder/runtime/http')>('http')).requestFingerprint;

/** Express middleware: claims, then records the body `res.send` is given before sending it. */
export async function leastExpress(store: IdempotencyStore) {
  const requestFingerprint = await fingerprinter();
  type Req = import('express').Request;
  type Res = import('express').Response;
  return (req: Req, res: Res, next: (error?: unknown) => void) => {
    const key = req.headers[KEY_HEADER] as string;
    const scope = req.headers[SCOPE_HEADER] as string;
    claim(store, key, scope, requestFingerprint({ method: req.method, path: req.path, body: req.body as unknown })).then((lockVersion) => {
      const send = res.send.bind(res);
      res.send = (body?: unknown) => {
        const bytes = typeof body === 'string' ? Buffer.from(body) : (body as Buffer);
        complete(store, key, scope, lockVersion, responseOf(res.statusCode, res.get('content-type'), bytes)).then(() => send(body), next);
        return res;
      };
      next();
    }, next);
  };
}

/** Fastify plugin body: preHandler claims, onSend records the serialized payload. */
export async function leastFastify(store: IdempotencyStore) {
  const requestFingerprint = await fingerprinter();
  type Instance = import('fastify').FastifyInstance;
  const held = new WeakMap<object, number>();
  return (scope: Instance) => {
    scope.addHook('preHandler', async (request) => {
      const fingerprint = requestFingerprint({ method: request.method, path: request.url, body: request.body });
      held.set(request, await claim(store, request.headers[KEY_HEADER] as string, request.headers[SCOPE_HEADER] as string, fingerprint));
    });
    scope.addHook('onSend', async (request, reply, payload) => {
      const body = typeof payload === 'string' ? Buffer.from(payload) : (payload as Buffer);
      const contentType = reply.getHeader('content-type');
      const response = responseOf(reply.statusCode, contentType === undefined ? undefined : String(contentType), body);
      await complete(store, request.headers[KEY_HEADER] as string, request.headers[SCOPE_HEADER] as string, held.get(request)!, response);
      return payload;
    });
  };
}

/** Hono middleware: claims, runs the handler, reads its Response's bytes, records them and answers with a copy. */
export async function leastHono(store: IdempotencyStore) {
  const requestFingerprint = await fingerprinter();
  return async (c: import('hono').Context, next: () => Promise<void>) => {
    const key = c.req.header(KEY_HEADER)!;
    const scope = c.req.header(SCOPE_HEADER)!;
    const lockVersion = await claim(store, key, scope, requestFingerprint({ method: c.req.method, path: c.req.path, body: await c.req.json() }));
    await next();
    const { status, headers } = c.res;
    const body = new Uint8Array(await c.res.arrayBuffer());
    await complete(store, key, scope, lockVersion, responseOf(status, headers.get('content-type') ?? undefined, body));
    c.res = undefined;
    c.res = new Response(body, { status, headers });
  };
}
