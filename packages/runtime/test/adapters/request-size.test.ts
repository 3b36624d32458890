/**
 * #6: the adapters read a request body only up to `maxRequestBytes`. A 200 MB streamed upload
 * (chunked, no Content-Length, so the cap is enforced by counting) gets 413 problem+json, runs
 * nothing, claims nothing, and the process's RSS stays bounded. Before the fix the fetch and Hono
 * adapters buffered the whole body (RSS 97 -> 727 MB in the review). Express, NestJS and Koa read a body
 * no parser read (here `application/octet-stream`) the same way. IDEMPOTENCY_UPLOAD_MB changes the size.
 */
import { request as httpRequest } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { SuiteState, type SuiteServer } from '../../src/testing/adapter-suite.js';
import express from 'express';
import Koa from 'koa';
import { serveOnExpress } from './suite/express-server.js';
import { serveOnKoa } from './suite/koa-server.js';
import { serveOnNest } from './suite/nest-server.js';
import { serveOnFetch, serveOnHono } from './suite/servers.js';

const UPLOAD_MB = Number(process.env.IDEMPOTENCY_UPLOAD_MB ?? 200);
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

interface UploadResult {
  readonly status: number;
  readonly contentType: string | undefined;
  readonly sentBytes: number;
  readonly peakRssGrowthMb: number;
}

/** Streams `totalMb` of a JSON-typed body until the server answers; samples RSS meanwhile. */
function upload(url: string, key: string, totalMb: number, contentType: string): Promise<UploadResult> {
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  return new Promise<UploadResult>((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = httpRequest(url, {
      method: 'POST',
      headers: { authorization: 'Bearer alice', 'idempotency-key': key, 'content-type': contentType, 'transfer-encoding': 'chunked' },
    });
    const finish = (status: number, contentType: string | undefined) => {
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      resolve({ status, contentType, sentBytes: sent, peakRssGrowthMb: (peak - baseline) / 2 ** 20 });
    };
    req.on('response', (res) => {
      answered = true;
      res.resume();
      res.on('end', () => {
        req.destroy(); // stop uploading: the answer is in
        finish(res.statusCode ?? 0, res.headers['content-type']);
      });
    });
    req.on('error', (error) => {
      if (!answered) {
        clearInterval(sampler);
        reject(error);
      }
    });
    const limit = totalMb * 2 ** 20;
    const pump = () => {
      while (!answered && sent < limit) {
        sent += CHUNK.byteLength;
        if (!req.write(CHUNK)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}

describe.each([
  ['fetch', serveOnFetch, 'application/json'],
  ['hono', serveOnHono, 'application/json'],
  ['express', (routes: Parameters<typeof serveOnFetch>[0]) => serveOnExpress(express, routes), 'application/octet-stream'],
  ['nestjs', serveOnNest, 'application/octet-stream'],
  ['koa', (routes: Parameters<typeof serveOnFetch>[0]) => serveOnKoa(Koa, routes), 'application/octet-stream'],
] as const)('%s adapter: a 200 MB streamed upload', (_name, serve, contentType) => {
  const state = new SuiteState();
  let server: SuiteServer | undefined;
  afterAll(async () => server?.close());

  it('is refused with 413 body_too_large while RSS stays bounded; nothing ran, nothing was claimed', { timeout: 60_000 }, async () => {
    server = await serve(state.routes);
    global.gc?.();
    const key = `key-${randomUUID()}`;
    const result = await upload(`${server.url}/echo`, key, UPLOAD_MB, contentType);
    expect(result.status).toBe(413);
    expect(result.contentType).toMatch(/^application\/problem\+json/);
    expect(result.sentBytes).toBeLessThan(UPLOAD_MB * 2 ** 20); // answered before the upload ended
    expect(result.peakRssGrowthMb).toBeLessThan(64);
    expect(state.count('none')).toBe(0);
    expect(await state.stores.main.get({ key, scope: 'alice' })).toBeNull();
    console.info(`[request-size] ${_name}: sent ${(result.sentBytes / 2 ** 20).toFixed(1)} MB before the 413; peak RSS growth ${result.peakRssGrowthMb.toFixed(1)} MB`);
  });
});
