/**
 * Suite routes for the features users of other idempotency libraries expect: storing a 5xx,
 * `skip`, the response hooks, the disabled engine and the key taken from the body.
 */
import { randomUUID } from 'node:crypto';
import type { Idempotency } from '../core/engine.js';
import type { HttpResponse } from '../adapters/http/http-response.js';
import type { SuiteRequest, SuiteResponse, SuiteRoute } from './adapter-suite-routes.js';

type RouteFactory = (path: string, options: SuiteRoute['options'], handle: SuiteRoute['handle']) => SuiteRoute;
type Scoped = Pick<SuiteRoute['options'], 'idempotency' | 'scope'>;

const utf8 = new TextDecoder();
const json = (status: number, body: unknown): SuiteResponse => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * The peer-feature routes; `run` counts a handler run by the body's probe (or `x-probe`).
 * @example routes.push(...peerRoutes(state, route, payment, scoped, disabled, run));
 */
export function peerRoutes(
  state: { readonly replaysSeen: { status: number; body: string }[] },
  route: RouteFactory,
  payment: (request: SuiteRequest) => Promise<SuiteResponse>,
  scoped: Scoped,
  disabled: Idempotency,
  run: (request: SuiteRequest) => { run: number },
): SuiteRoute[] {
  return [
    // Stripe's rule: once the handler began, its 5xx (or its crash) is the answer for this key.
    route('/store-5xx', { ...scoped, serverErrors: 'store' }, async (request) => {
      const { run: n } = run(request);
      return json(502, { error: 'charge half done', run: n, id: randomUUID() });
    }),
    route('/store-throws', { ...scoped, serverErrors: 'store' }, async (request) => {
      run(request);
      throw new Error('handler crashed midway');
    }),
    route('/skippable', { ...scoped, skip: (_ctx, request) => request.header('x-health-check') === '1' }, (request) => payment(request)),
    route(
      '/hooks',
      {
        ...scoped,
        onReplay: (_ctx, _request, stored: HttpResponse) => {
          state.replaysSeen.push({ status: stored.status, body: utf8.decode(stored.body) });
          throw new Error('a broken hook must not change the replay');
        },
        beforeStore: (_ctx, request, response) => {
          if (request.header('x-veto') === '1') return false;
          if (request.header('x-redact') === '1') return { ...response, body: new TextEncoder().encode('{"redacted":true}') };
          return undefined;
        },
      },
      (request) => payment(request),
    ),
    route('/disabled', { idempotency: disabled, scope: scoped.scope }, (request) => payment(request)),
    route('/body-key', { ...scoped, key: { fromBody: 'order.id' } }, (request) => payment(request)),
  ];
}
