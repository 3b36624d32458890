/**
 * Generated TypeScript: compiles with tsc against this package's runtime and the real framework
 * types (Express, Fastify, Hono, NestJS, Fetch), mounted in real apps by small usage files; and
 * the generated test suite runs green on the runtime's memory store.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { FIXTURES, fixture, GENERATED_AT, type FixtureName } from './fixtures.js';
import { compileTypeScript, runtimeSourceEntries } from './support/typescript-compiler.js';
import { makeWorkspace, REPO, writeArtifacts } from './support/workspace.js';

const run = promisify(execFile);

/** Each project mounts the generated glue the way a user would, typed by the real framework. */
const USAGE: Record<string, string> = {
  'express-postgres-stripe': `import express from 'express';
import { idempotent } from './express.js';
import { protect } from './protect.js';
import { stripeIdempotencyKey, fullKey } from './provider-keys.js';
const app = express();
app.post('/payments', express.json(), idempotent.createPayment, (req, res) => {
  res.status(201).json({ key: stripeIdempotencyKey(fullKey('usr-1', 'createPayment_x')), body: req.body });
});
app.post('/webhooks/stripe', express.json(), async (req, res) => {
  const result = await protect({ action: 'stripeWebhook', scope: undefined, body: req.body }, async () => ({ status: 200, body: { received: true } }));
  res.status(result.status).set(result.headers ?? {}).json(result.body);
});
export { app };
`,
  'fastify-redis-rabbitmq': `import Fastify from 'fastify';
import { idempotentRoutes } from './fastify.js';
import { processMessage } from './worker.js';
const app = Fastify();
await app.register(idempotentRoutes('createBooking', (routes) => {
  routes.post('/bookings', async (_request, reply) => reply.code(201).send({ ok: true }));
}));
const outcome = await processMessage('orderCreated', { eventId: 'evt-1', scope: 'usr-1', body: { order_id: 'o-1' } }, async () => undefined);
export { app, outcome };
`,
  'fastify-as-hono': `import { Hono } from 'hono';
import { idempotent, type AppEnv } from './hono.js';
const app = new Hono<AppEnv>();
app.post('/bookings', idempotent.createBooking, (c) => c.json({ ok: true }, 201));
export { app };
`,
  'nestjs-mysql-adyen': `import { Body, Controller, Post } from '@nestjs/common';
import { idempotent } from './nestjs.js';
import { adyenIdempotencyKey, adyenReference } from './provider-keys.js';
@Controller('refunds')
export class RefundsController {
  @Post()
  @idempotent.refundPayment
  create(@Body() body: { payment_id: string }) {
    return { key: adyenIdempotencyKey(body.payment_id), reference: adyenReference(body.payment_id, 1) };
  }
}
`,
  agnostic: `import { idempotent } from './fetch.js';
export const POST = idempotent('protectedAction', () => 'usr-1', async (request: Request) => Response.json(await request.json(), { status: 201 }));
`,
};

function projects(): [string, ReturnType<typeof buildDesign>][] {
  const named: FixtureName[] = ['express-postgres-stripe', 'fastify-redis-rabbitmq', 'nestjs-mysql-adyen', 'agnostic'];
  const list: [string, ReturnType<typeof buildDesign>][] = named.map((name) => [name, buildDesign(fixture(name), { generatedAt: GENERATED_AT })]);
  const hono = answersSchema.parse({ ...FIXTURES['fastify-redis-rabbitmq'], stack: { ...FIXTURES['fastify-redis-rabbitmq'].stack, framework: 'hono' } });
  list.push(['fastify-as-hono', buildDesign(hono, { generatedAt: GENERATED_AT })]);
  return list;
}

describe('generated TypeScript', () => {
  const workspace = makeWorkspace('ts');
  afterAll(() => workspace.remove());
  const built = projects();

  it('compiles with tsc (strict) against the runtime and the real framework types', async () => {
    for (const [name, model] of built) {
      writeArtifacts(join(workspace.dir, name), model.artifacts.filter((a) => a.language === 'typescript'));
      writeFileSync(join(workspace.dir, name, 'usage.ts'), USAGE[name] ?? '');
    }
    const result = await compileTypeScript(workspace.dir);
    // Modules this repository does not provide (yet) are stubbed, and named here:
    console.info(`[typescript] stubbed modules: ${result.stubbed.join(', ') || 'none'}`);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
    expect(result.stubbed).not.toContain('@idempotency-builder/runtime/postgres');
    expect(result.stubbed).not.toContain('@idempotency-builder/runtime/redis');
  }, 150_000);

  it('imports the runtime by its package subpaths, with each action’s own policy', () => {
    const [, model] = built[0] as [string, ReturnType<typeof buildDesign>];
    const engine = model.artifacts.find((a) => a.path === 'idempotency.ts')?.content ?? '';
    expect(engine).toContain("import { createIdempotency } from '@idempotency-builder/runtime';");
    expect(engine).toContain("import { createPostgresStore } from '@idempotency-builder/runtime/postgres';");
    expect(engine).toContain("createPostgresStore({ db: pool, layout: 'partitioned' })");
    expect(engine).toMatch(/createPayment: \{ leaseMs: 8_000, ttlMs: 172_800_000 \}/);
    expect(model.artifacts.find((a) => a.path === 'express.ts')?.content).toContain("from '@idempotency-builder/runtime/express'");
  });

  it('runs the generated test suite green on the runtime (vitest, memory store)', async () => {
    const dir = join(workspace.dir, 'express-postgres-stripe');
    writeArtifacts(dir, (built[0] as [string, ReturnType<typeof buildDesign>])[1].artifacts.filter((a) => a.language === 'typescript'));
    // Every runtime subpath onto its source, from the runtime's exports map (no second list here).
    const alias = runtimeSourceEntries();
    writeFileSync(
      join(dir, 'vitest.config.mjs'),
      `export default { resolve: { alias: ${JSON.stringify(Object.entries(alias).map(([find, replacement]) => ({ find: `^${find}$`, replacement })))}.map((a) => ({ find: new RegExp(a.find), replacement: a.replacement })) }, test: { include: ['idempotency.test.ts'], reporters: ['default'] } };\n`,
    );
    const { stdout } = await run(process.execPath, [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')], {
      cwd: REPO,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
      timeout: 120_000,
    });
    expect(stdout).toMatch(/Tests\s+7 passed \| 1 todo/);
  }, 150_000);
});
