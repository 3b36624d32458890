/**
 * Serves the suite routes on an Express app. Shared by the Express 5 test and the Express 4 one
 * (whose module is loaded under an alias), so both majors run the same code.
 */
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { idempotencyMiddleware } from '../../../src/adapters/express/index.js';
import type { SuiteServer } from '../adapter-suite.js';
import { chunksOf, listenOnLoopback } from './listen.js';
import type { SuiteRoute } from './suite-routes.js';

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
  // Quiet default: the suite throws on purpose; the status is what is checked.
  app.use((_error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    res.status(500).send('internal error');
  });
  return listenOnLoopback(app.listen(0, '127.0.0.1'));
}
