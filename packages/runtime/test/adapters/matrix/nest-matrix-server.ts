/**
 * Serves the adapter suite's routes on one Nest major and platform: one controller method per
 * route with `@Idempotent(options)`, decorators applied the way TypeScript applies them, and an
 * exception filter (plus the platform's own body-parser errors) answering 4xx as problem+json.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import { Idempotent } from '../../../src/adapters/nestjs/index.js';
import type { SuiteRoute, SuiteServer } from '../../../src/testing/adapter-suite.js';
import { chunksOf, fromListening } from '../suite/listen.js';
import { clientErrorStatus, frameworkProblem } from '../suite/servers.js';
import type { NestMajor } from './nest-majors.js';

type Platform = 'express' | 'fastify';

/** What is used of Express's `res` and Fastify's `reply` (both have `status`). */
interface PlatformReply {
  status(code: number): PlatformReply;
  setHeader?(name: string, value: string): unknown;
  header?(name: string, value: string): unknown;
  send(body?: unknown): unknown;
}

interface PlatformRequest {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
}

function setHeader(reply: PlatformReply, name: string, value: string): void {
  if (reply.setHeader) reply.setHeader(name, value);
  else reply.header?.(name, value);
}

function answer(reply: PlatformReply, error: unknown, status = clientErrorStatus(error)): void {
  const problem = status !== undefined && status >= 400 && status < 500 ? frameworkProblem(status) : { status: 500, headers: {}, body: 'internal error' };
  reply.status(problem.status);
  for (const [name, value] of Object.entries(problem.headers)) setHeader(reply, name, value);
  reply.send(problem.body);
}

function controllerFor(nest: NestMajor, routes: readonly SuiteRoute[]) {
  const { common } = nest;
  class SuiteController {}
  const prototype = SuiteController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `route${index}`;
    prototype[name] = async (req: PlatformRequest, res: PlatformReply) => {
      const header = (wanted: string) => {
        const value = req.headers[wanted.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      };
      const result = await route.handle({ method: req.method, header, body: req.body });
      res.status(result.status);
      for (const [field, value] of Object.entries(result.headers ?? {})) setHeader(res, field, value);
      if (result.chunks) return new common.StreamableFile(Readable.from(chunksOf(result)));
      if (typeof result.body === 'string') return result.body;
      return new common.StreamableFile(Buffer.from(result.body ?? ''));
    };
    common.Req()(prototype, name, 0);
    common.Res({ passthrough: true })(prototype, name, 1);
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Idempotent(route.options)(prototype, name, descriptor);
    (route.method === 'GET' ? common.Get : common.Post)(route.path)(prototype, name, descriptor);
  });
  common.Controller()(SuiteController);
  return SuiteController;
}

/**
 * Starts the routes on `nest` over `platform` on a loopback port.
 * @example const server = await serveOnNestMajor(await loadNestMajor(11), 'fastify', routes);
 */
export async function serveOnNestMajor(nest: NestMajor, platform: Platform, routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const { common, core } = nest;
  const controller = controllerFor(nest, routes);
  class SuiteModule {}
  common.Module({ controllers: [controller] })(SuiteModule);
  class ProblemFilter {
    catch(error: unknown, host: { switchToHttp(): { getResponse<T>(): T } }): void {
      const status = error instanceof common.HttpException ? error.getStatus() : undefined;
      answer(host.switchToHttp().getResponse<PlatformReply>(), error, status ?? clientErrorStatus(error));
    }
  }
  common.Catch()(ProblemFilter);
  const adapter = await nest.adapter(platform);
  const app = await core.NestFactory.create(SuiteModule, adapter as never, { logger: false });
  app.useGlobalFilters(new ProblemFilter() as never);
  if (platform === 'fastify') {
    const fastify = app.getHttpAdapter().getInstance() as {
      addContentTypeParser(type: string, options: { parseAs: 'buffer' }, parser: (request: unknown, body: Buffer, done: (error: null, body: Buffer) => void) => void): void;
      setErrorHandler(handler: (error: unknown, request: unknown, reply: PlatformReply) => void): void;
    };
    // Any other type as its bytes (Fastify would answer 415 itself); body-parser errors as problem+json.
    fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    fastify.setErrorHandler((error, _request, reply) => answer(reply, error));
  }
  await app.init();
  if (platform === 'express') {
    // Nest's body parser refuses bad JSON through Express's error chain: answer it as problem+json.
    app.use((error: unknown, _req: unknown, res: PlatformReply, next: (error?: unknown) => void) => {
      if (clientErrorStatus(error) === undefined) return next(error);
      answer(res, error);
    });
  }
  await app.listen(0, '127.0.0.1');
  const server = fromListening(app.getHttpServer() as Server);
  return { url: server.url, close: () => app.close() };
}
