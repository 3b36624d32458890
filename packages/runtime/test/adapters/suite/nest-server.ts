/**
 * Serves the suite routes on NestJS 12 (@nestjs/platform-express): one controller method per
 * route, each decorated with `@Idempotent(options)`, applied the way TypeScript's decorators are.
 */
import 'reflect-metadata';
import { Catch, Controller, Get, HttpException, Module, Post, Req, Res, StreamableFile, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Server } from 'node:http';
import { Idempotent } from '../../../src/adapters/nestjs/index.js';
import type { SuiteRoute, SuiteServer } from '../../../src/testing/adapter-suite.js';
import { fromListening, nodeStreamOf } from './listen.js';
import { clientErrorStatus, frameworkProblem } from './servers.js';

/** Builds what `@Controller() class { @Post(path) @Idempotent(opts) method(@Req() req, @Res({ passthrough: true }) res) }` declares. */
function controllerFor(routes: readonly SuiteRoute[]) {
  class SuiteController {}
  const prototype = SuiteController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, index) => {
    const name = `route${index}`;
    prototype[name] = async (req: Request, res: Response) => {
      const result = await route.handle({ method: req.method, header: (header) => req.get(header), body: req.body });
      res.status(result.status);
      for (const [header, value] of Object.entries(result.headers ?? {})) res.setHeader(header, value);
      if (result.chunks) return new StreamableFile(nodeStreamOf(result));
      if (typeof result.body === 'string') return result.body;
      return new StreamableFile(Buffer.from(result.body ?? ''));
    };
    Req()(prototype, name, 0);
    Res({ passthrough: true })(prototype, name, 1);
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
    Idempotent(route.options)(prototype, name, descriptor);
    (route.method === 'GET' ? Get : Post)(route.path)(prototype, name, descriptor);
  });
  Controller()(SuiteController);
  return SuiteController;
}

/** A client error (a body parser's, a pipe's) as problem+json; anything else a quiet 500. */
@Catch()
class ProblemFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const status = error instanceof HttpException ? error.getStatus() : clientErrorStatus(error);
    const answer = status !== undefined && status >= 400 && status < 500 ? frameworkProblem(status) : { status: 500, headers: {}, body: 'internal error' };
    res.status(answer.status).set(answer.headers).send(answer.body);
  }
}

export async function serveOnNest(routes: readonly SuiteRoute[]): Promise<SuiteServer> {
  const controller = controllerFor(routes);
  class SuiteModule {}
  Module({ controllers: [controller] })(SuiteModule);
  const app = await NestFactory.create(SuiteModule, { logger: false });
  app.useGlobalFilters(new ProblemFilter());
  await app.init();
  // Nest's body parser refuses bad JSON through Express's error chain: answer it as problem+json.
  app.use((error: unknown, _req: Request, res: Response, next: (error?: unknown) => void) => {
    const status = clientErrorStatus(error);
    if (status === undefined) return next(error);
    const answer = frameworkProblem(status);
    res.status(answer.status).set(answer.headers).send(answer.body);
  });
  await app.listen(0, '127.0.0.1');
  const server = fromListening(app.getHttpServer() as Server);
  return { url: server.url, close: () => app.close() };
}
