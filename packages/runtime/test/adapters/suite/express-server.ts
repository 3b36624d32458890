/**
 * Serves the suite routes on an Express app. Shared by the Express 5 test and the Express 4 one
 * (whose module is loaded under an alias), so both majors run the same code.
 */
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { idempotencyMiddleware } from '../../../src/adapters/express/index.js';
import type { SuiteRoute, SuiteServer } from '../../../src/testing/adapter-suite.js';
import { chunksOf, listenOnLoopback } from './listen.js';
import { clientErrorStatus, frameworkProblem } from './servers.js';

/** The parts of the `express` module used here; Express 4 and 5 both have them. */
export interface ExpressModule {
  (): Express;
  json(): RequestHandler;
}

export async function serveOnExpress(express: ExpressModule, routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const app = express();
  app.use(express.json());
  for (const route of routes) {
    // Express 4 does not route a rejected promise to the error handler: do it here, as apps do.
    const handler = (req: Request, res: Response, next: NextFunction) => {
      void (async () => {
        const result = await route.handle({ method: req.method, header: (name) => req.get(name), body: req.body });
        res.status(result.status).set(result.headers ?? {});
        if (!result.chunks) {
          res.send(typeof result.body === 'string' ? result.body : Buffer.from(result.body ?? ''));
          return;
        }
        for await (const chunk of chunksOf(result)) res.write(chunk);
        res.end();
      })().catch(next);
    };
    const register = route.method === 'GET' ? app.get.bind(app) : app.post.bind(app);
    register(route.path, idempotencyMiddleware(route.options), handler);
  }
  // A body parser's refusal as problem+json; anything else a quiet 500 (the suite throws on purpose).
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = clientErrorStatus(error);
    const answer = status === undefined ? { status: 500, headers: {}, body: 'internal error' } : frameworkProblem(status);
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  return listenOnLoopback(app.listen(0, '127.0.0.1'));
}
