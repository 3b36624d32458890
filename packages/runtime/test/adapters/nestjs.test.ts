/**
 * The shared adapter suite against NestJS 12 on @nestjs/platform-express, in-process over real
 * HTTP; then Nest's own case: a validation pipe's 400 is sent but never stored, so the corrected
 * retry with the same key runs (before the fix it got 409 for the key's whole TTL).
 */
import 'reflect-metadata';
import { BadRequestException, Body, Controller, Injectable, Module, Post, UsePipes, type PipeTransform } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Idempotent } from '../../src/adapters/nestjs/index.js';
import { createIdempotency } from '../../src/core/engine.js';
import { createMemoryStore } from '../../src/stores/memory/index.js';
import { createSuiteClient, runAdapterSuite, type SuiteServer } from '../../src/testing/adapter-suite.js';
import { fromListening } from './suite/listen.js';
import { serveOnNest } from './suite/nest-server.js';

runAdapterSuite({ name: 'nestjs 12 (express platform)', createServer: serveOnNest });

/** What ValidationPipe does (class-validator is not installed here): a 400 before the handler. */
@Injectable()
class PaymentValidationPipe implements PipeTransform {
  transform(value: unknown): unknown {
    const body = (value ?? {}) as { amount?: unknown; currency?: unknown };
    if (!Number.isInteger(body.amount) || typeof body.currency !== 'string') {
      throw new BadRequestException(['amount must be an integer', 'currency must be a string']);
    }
    return value;
  }
}

describe('nestjs: a validation pipe rejection', () => {
  const store = createMemoryStore();
  const idempotency = createIdempotency({ store });
  let runs = 0;
  let server: SuiteServer | undefined;
  const client = createSuiteClient(() => server!.url);

  beforeAll(async () => {
    @Controller()
    class PaymentsController {
      @Post('payments')
      @Idempotent({ idempotency, scope: () => 'alice' })
      @UsePipes(new PaymentValidationPipe())
      create(@Body() body: { amount: number; currency: string }) {
        runs++;
        if (body.amount > 1000) throw new BadRequestException('amount over the limit'); // the handler's own 400
        return { id: `pay_${runs}`, ...body };
      }
    }
    @Module({ controllers: [PaymentsController] })
    class PaymentsModule {}
    const app = await NestFactory.create(PaymentsModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    const listening = fromListening(app.getHttpServer() as Server);
    server = { url: listening.url, close: () => app.close() };
  });
  afterAll(async () => {
    await client.close();
    await server?.close();
  });

  it('is sent but not stored: the corrected retry with the same key runs, then replays', async () => {
    const key = `key-${randomUUID()}`;
    const invalid = await client.call('/payments', { key, body: { amount: 'ten', currency: 'EUR' } });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('amount must be an integer');
    expect(runs).toBe(0);
    expect(await store.get({ key, scope: 'alice' })).toBeNull(); // released, not stored

    const corrected = await client.call('/payments', { key, body: { amount: 10, currency: 'EUR' } });
    expect(corrected.status).toBe(201);
    expect(corrected.header('idempotent-replayed')).toBeUndefined();
    const replay = await client.call('/payments', { key, body: { amount: 10, currency: 'EUR' } });
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(corrected.text);
    expect(runs).toBe(1);
  });

  it("still stores the handler's own deterministic 400", async () => {
    const key = `key-${randomUUID()}`;
    const before = runs;
    const first = await client.call('/payments', { key, body: { amount: 5000, currency: 'EUR' } });
    expect(first.status).toBe(400);
    expect((await store.get({ key, scope: 'alice' }))?.status).toBe('COMPLETED');
    const replay = await client.call('/payments', { key, body: { amount: 5000, currency: 'EUR' } });
    expect(replay.status).toBe(400);
    expect(replay.header('idempotent-replayed')).toBe('true');
    expect(runs).toBe(before + 1);
  });
});
