/**
 * Generated TypeScript for Next.js pages-router API routes (`pages/api/**`): `(req, res)` handlers
 * on Node's objects whose body Next has already parsed into `req.body`, wrapped on the runtime's
 * public HTTP adapter SDK (`@idempotency-builder/runtime/http`). App-router `route.ts` handlers
 * keep the Fetch-API glue (fetch.ts).
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { isGraphqlMutation } from './graphql-file.js';
import { isServerAction } from './server-actions-file.js';
import { intentRule, isHttp } from './protect-file.js';

/**
 * True for an action found in a pages-router API file.
 * @example isPagesRoute({ action: { location: 'src/pages/api/orders.ts:4', … } }) // true
 */
export const isPagesRoute = (a: ActionPlan): boolean => /(^|\/)pages\/api\//.test(a.action.location ?? '');

/**
 * The header-keyed HTTP actions next-pages.ts wraps: pages-router routes of a Next.js (Fetch-API) stack.
 * @example pagesActions(plan) // ['createOrder']
 */
export function pagesActions(plan: Plan): string[] {
  if (plan.stack.framework !== 'fetch') return [];
  return plan.actions.filter((a) => isHttp(a) && intentRule(a) === 'header' && !isGraphqlMutation(a) && !isServerAction(a) && isPagesRoute(a)).map((a) => a.action.name);
}

/**
 * `next-pages.ts`, or undefined when no header-keyed action is a pages-router route.
 * @example nextPagesFile(plan)?.includes('export function withIdempotency')
 */
export function nextPagesFile(plan: Plan): string | undefined {
  const actions = pagesActions(plan);
  if (actions.length === 0) return undefined;
  const union = actions.map((name) => JSON.stringify(name)).join(' | ');
  return `// Next.js pages router (pages/api): each header-keyed protected route wrapped on the runtime's HTTP
// adapter SDK. Next has parsed the body into req.body before the handler runs; the wrapper hashes
// the action's significant fields, runs the handler once per (user, key), stores its status,
// headers and body before the client sees them, and replays them with Idempotent-Replayed: true.
// Refusals (409, 400, 401, 429, …) are application/problem+json. \`next\` is typed structurally:
// NextApiRequest and NextApiResponse fit the interfaces below, so this file does not import it.
import type { IncomingHttpHeaders } from 'node:http';
import type { ActionContext } from '@idempotency-builder/runtime';
import {
  asRequestBodyError, captureNodeResponse, createHttpIdempotency, nodeRequestView, PASSTHROUGH_METHODS, REPLAYED_HEADER,
  requestBodyProblem, resolveMaxRequestBytes, writeNodeResponse,
  type HttpIdempotencyOptions, type NodeResponseCapture, type NodeResponseLike,
} from '@idempotency-builder/runtime/http';
import { idempotency, POLICIES } from './idempotency.js';
import { SIGNIFICANT } from './fingerprints.js';

export type PagesAction = ${union};

/** What is used of NextApiRequest: an IncomingMessage whose body Next parsed into \`body\`. */
export interface NextApiRequestLike {
  readonly method?: string;
  readonly url?: string;
  readonly headers: IncomingHttpHeaders;
  readonly body?: unknown;
  readonly readableEnded?: boolean;
  [Symbol.asyncIterator]?(): AsyncIterator<unknown>;
}

/** What is used of NextApiResponse: Node's ServerResponse, which its status()/json()/send() end in. */
export interface NextApiResponseLike extends NodeResponseLike {
  readonly writableFinished?: boolean;
  once?(event: 'close', listener: () => void): unknown;
}

/** A pages-router handler; the held key's context (abort signal, lock version) comes third, for those that want it. */
export type PagesHandler<Req, Res> = (req: Req, res: Res, context?: ActionContext) => unknown;

/** The authenticated user (or account/tenant) — from the session or token, never from a client header. */
export type PagesScope<Req, Res> = (req: Req, res: Res) => string | null | undefined | Promise<string | null | undefined>;

interface Exchange<Req, Res> {
  readonly req: Req;
  readonly res: Res;
}

function options<Req, Res>(action: PagesAction, scope: PagesScope<Req, Res>): HttpIdempotencyOptions<Exchange<Req, Res>> {
  return {
    idempotency,
    scope: ({ req, res }) => scope(req, res),
    // No fields named in the code: the adapter's default, the whole body (canonical JSON).
    fingerprint: SIGNIFICANT[action].fields.length > 0 ? { bodyFields: SIGNIFICANT[action].fields } : {},
    ...POLICIES[action],
    // The key-flooding limit: more than 100 new keys a minute from one principal answers 429.
    // Counted per instance; with several instances pass { limiter: new RateLimiterRedis(...) }.
    rateLimit: { newKeysPerWindow: 100, windowMs: 60_000 },
  };
}

/**
 * export default withIdempotency('${actions[0]}', async (req, res) => (await getServerSession(req, res, authOptions))?.user?.id,
 *   async (req: NextApiRequest, res: NextApiResponse) => { … res.status(201).json(result); });
 * The options are checked when the route module loads, not on its first request.
 */
export function withIdempotency<Req extends NextApiRequestLike, Res extends NextApiResponseLike>(
  action: PagesAction,
  scope: PagesScope<Req, Res>,
  handler: PagesHandler<Req, Res>,
): (req: Req, res: Res) => Promise<void> {
  const http = createHttpIdempotency(options(action, scope));
  const maxRequestBytes = resolveMaxRequestBytes(undefined);
  return async (req, res) => {
    // Nothing a client sends may look like the server's replay marker.
    delete req.headers[REPLAYED_HEADER];
    if (PASSTHROUGH_METHODS.has((req.method ?? 'GET').toUpperCase())) {
      await handler(req, res);
      return;
    }
    let capture: NodeResponseCapture | undefined;
    // A client that goes away mid-request reaches the handler as an abort of context.signal: a notice, not a cancellation.
    const disconnect = new AbortController();
    res.once?.('close', () => {
      if (!res.writableFinished) disconnect.abort(new Error('The client closed the connection.'));
    });
    const execute = (context: ActionContext) => {
      const held = captureNodeResponse(res, http.options.maxBodyBytes); // writes held until stored
      capture = held;
      let answered = false;
      void held.response.then(() => {
        answered = true;
      });
      // A handler that throws is a 500: the key is released, nothing is stored, a retry runs again.
      Promise.resolve()
        .then(() => handler(req, res, context))
        .catch((error: unknown) => {
          console.error(\`idempotency: the \${action} handler failed\`, error);
          if (!answered) {
            res.statusCode = 500;
            res.end();
          }
        });
      return held.response;
    };
    try {
      const outcome = await http.handle({ req, res }, nodeRequestView(req, { maxRequestBytes }), execute, { signal: disconnect.signal });
      if (outcome.kind === 'pass') await handler(req, res);
      else if (outcome.kind === 'respond') writeNodeResponse(res, outcome.response); // a replay, or a problem+json refusal
      else capture?.flush(); // stored: now the handler's own response goes out
    } catch (error) {
      const bodyError = asRequestBodyError(error);
      if (capture) capture.flush(); // the handler already answered; its answer goes out
      else if (bodyError) writeNodeResponse(res, requestBodyProblem(bodyError, http.options)); // 400/413/415, nothing claimed
      else {
        console.error('idempotency: request failed before the handler ran', error);
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end();
        }
      }
    }
  };
}
`;
}
