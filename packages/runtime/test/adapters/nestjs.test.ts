/**
 * The shared adapter suite against NestJS 12 on @nestjs/platform-express, in-process over real
 * HTTP. One controller method per suite route, each decorated with `@Idempotent(options)`.
 */
import 'reflect-metadata';
import { Controller, Get, Module, Post, Req, Res, StreamableFile } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Server } from 'node:http';
import { Idempotent } from '../../src/adapters/nestjs/index.js';
import { runAdapterSuite } from './adapter-suite.js';
import { fromListening, nodeStreamOf } from './suite/listen.js';
import type { SuiteRoute } from './suite/suite-routes.js';

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

async function createServer(routes: readonly SuiteRoute[]) {
  const controller = controllerFor(routes);
  class SuiteModule {}
  Module({ controllers: [controller] })(SuiteModule);
  const app = await NestFactory.create(SuiteModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const server = fromListening(app.getHttpServer() as Server);
  return { url: server.url, close: () => app.close() };
}

runAdapterSuite({ name: 'nestjs 12 (express platform)', createServer });
