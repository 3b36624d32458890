/**
 * The Fastify plugin's per-request state, on each Fastify major the peer range names: the held
 * key's context reaches the handler through `idempotencyContext(request)` (and only on protected
 * requests), and the plugin's request decorators allow it to be registered in sibling and nested
 * scopes of one app.
 */
import { describe, expect, it } from 'vitest';
import { idempotencyContext, idempotencyPlugin } from '../../src/adapters/fastify/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { frameworkMajors } from '../support/framework-majors.js';

type FastifyFactory = typeof import('fastify').default;

for (const { major, loaded: Fastify } of await frameworkMajors<FastifyFactory>('Fastify', [[5, 'fastify'], [4, 'fastify4']], 'keeps per-request state')) {
  describe(`fastify ${major}: per-request state`, () => {
    async function app() {
      const fastify = Fastify({ logger: false });
      const idempotency = createIdempotency({ store: createMemoryStore() });
      const seen = (request: Parameters<typeof idempotencyContext>[0]) => {
        const context = idempotencyContext(request);
        return { held: context !== undefined, lockVersion: context?.lockVersion ?? null, signal: context?.signal instanceof AbortSignal };
      };
      // Two sibling scopes, each with its own registration, and a child scope under the first.
      await fastify.register(async (scope) => {
        await scope.register(idempotencyPlugin, { idempotency, scope: () => 'a' });
        scope.post('/a', async (request) => seen(request));
        scope.post('/a/open', { config: { idempotency: false } }, async (request) => seen(request));
        scope.get('/a/read', async (request) => seen(request));
        await scope.register(async (child) => {
          child.post('/a/child', async (request) => seen(request));
        });
      });
      await fastify.register(async (scope) => {
        await scope.register(idempotencyPlugin, { idempotency, scope: () => 'b' });
        scope.post('/b', async (request) => seen(request));
      });
      fastify.post('/outside', async (request) => seen(request));
      await fastify.ready();
      return fastify;
    }

    const post = (fastify: Awaited<ReturnType<typeof app>>, url: string, key?: string) =>
      fastify.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, payload: '{"n":1}' });

    it('hands the held context to the handler on protected routes, in every scope', async () => {
      const fastify = await app();
      try {
        for (const url of ['/a', '/a/child', '/b']) {
          const first = await post(fastify, url, `k${url.replaceAll('/', '-')}`);
          expect(first.statusCode, url).toBe(200);
          const body = first.json<{ held: boolean; lockVersion: number | null; signal: boolean }>();
          expect(body.held, url).toBe(true);
          expect(body.signal, url).toBe(true);
          expect(Number.isSafeInteger(body.lockVersion), url).toBe(true);
          const replay = await post(fastify, url, `k${url.replaceAll('/', '-')}`);
          expect(replay.headers['idempotent-replayed'], url).toBe('true');
          expect(replay.json(), url).toEqual(body);
        }
      } finally {
        await fastify.close();
      }
    });

    it('has no context where nothing was claimed: an opted-out route, a GET, a route outside the scopes', async () => {
      const fastify = await app();
      try {
        expect((await post(fastify, '/a/open', 'k-open')).json()).toEqual({ held: false, lockVersion: null, signal: false });
        expect((await fastify.inject({ method: 'GET', url: '/a/read' })).json()).toEqual({ held: false, lockVersion: null, signal: false });
        expect((await post(fastify, '/outside', 'k-outside')).json()).toEqual({ held: false, lockVersion: null, signal: false });
      } finally {
        await fastify.close();
      }
    });
  });
}
