/**
 * Generated TypeScript: compiles with tsc against this package's runtime and the real framework
 * types (Express, Fastify, Hono, NestJS, Fetch), mounted in real apps by small usage files; and
 * the generated test suite runs green on the runtime's memory store.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { FIXTURES, fixture, GENERATED_AT, type FixtureName } from './fixtures.js';
import { runGeneratedVitest } from './support/generated-vitest.js';
import { compileTypeScript } from './support/typescript-compiler.js';
import { makeWorkspace, writeArtifacts } from './support/workspace.js';

/** Each project mounts the generated glue the way a user would, typed by the real framework. */
const USAGE: Record<string, string> = {
  'express-postgres-stripe': `import express from 'express';
import Stripe from 'stripe';
import { stripeIdempotencyKey } from '@idempotency-builder/runtime/payments';
import { idempotent } from './express.js';
import { fingerprint } from './fingerprints.js';
import { placeOrderSaga } from './sagas.js';
import { mountWebhook, stripeWebhook } from './webhooks.js';
const stripe = new Stripe('sk_test_123');
const app = express();
app.post('/payments', express.json(), idempotent.createPayment, (req, res) => {
  res.status(201).json({ key: stripeIdempotencyKey({ key: 'createPayment_x', scope: 'usr-1' }), body: req.body });
});
app.post('/webhooks/stripe', express.raw({ type: () => true }), mountWebhook(stripeWebhook({ stripe, secret: 'whsec_test' }, async (event) => {
  if (event.payload.type === 'payment_intent.succeeded') return;
})));
const checkout = placeOrderSaga<{ sku: string; amount: number }>({
  reserveStock: { run: ({ input }) => input.sku, compensate: () => undefined },
  chargeCard: { run: ({ input, key, scope }) => stripe.paymentIntents.create({ amount: input.amount, currency: 'eur' }, { idempotencyKey: stripeIdempotencyKey({ key, scope }) }) },
  confirmOrder: { run: () => 'confirmed' },
});
app.post('/orders', express.json(), async (req, res) => {
  const body = req.body as { id: string; sku: string; amount: number };
  const outcome = await checkout.run({ key: \`placeOrder_\${body.id}\`, scope: 'usr-1', fingerprint: fingerprint('placeOrder', body) }, body);
  res.status(outcome.state === 'COMPLETED' ? 201 : 402).json(outcome);
});
export { app };
`,
  'fastify-redis-rabbitmq': `import amqp from 'amqplib';
import Fastify from 'fastify';
import { idempotentRoutes } from './fastify.js';
import { startConsumer } from './worker.js';
const app = Fastify();
await app.register(idempotentRoutes('createBooking', (routes) => {
  routes.post('/bookings', async (_request, reply) => reply.code(201).send({ ok: true }));
}));
const connection = await amqp.connect('amqp://127.0.0.1');
const channel = await connection.createChannel();
await channel.prefetch(16);
const consumer = await startConsumer('orderCreated', channel, async (message, context) => ({ id: message.properties.messageId, key: context.key }));
export { app, consumer };
`,
  'fastify-as-hono': `import { Hono } from 'hono';
import { idempotent, type AppEnv } from './hono.js';
const app = new Hono<AppEnv>();
app.post('/bookings', idempotent.createBooking, (c) => c.json({ ok: true }, 201));
export { app };
`,
  'nestjs-mysql-adyen': `import { Body, Controller, Post } from '@nestjs/common';
import { adyenIdempotencyKey, adyenReference } from '@idempotency-builder/runtime/payments';
import { idempotent } from './nestjs.js';
@Controller('refunds')
export class RefundsController {
  @Post()
  @idempotent.refundPayment
  create(@Body() body: { payment_id: string }) {
    const intent = { key: \`refundPayment_\${body.payment_id}\`, scope: 'acct-1' };
    return { key: adyenIdempotencyKey(intent), reference: adyenReference(intent, 'refund') };
  }
}
`,
  agnostic: `import { idempotent } from './fetch.js';
export const POST = idempotent('protectedAction', () => 'usr-1', async (request: Request) => Response.json(await request.json(), { status: 201 }));
`,
  'hono-redis-cron': `import { Worker } from 'bullmq';
import { Cron } from 'croner';
import cron from 'node-cron';
import { bullmqScheduled, croner, nodeCron, runSlot, SCHEDULES } from './worker.js';
cron.schedule(SCHEDULES.nightlyDigest, nodeCron('nightlyDigest', async ({ slot }) => slot.toISOString()));
new Cron(SCHEDULES.nightlyDigest, { catch: true }, croner('nightlyDigest', async () => 1));
new Worker('digests', bullmqScheduled('nightlyDigest', async () => 1), { connection: { host: '127.0.0.1' } });
export const once = runSlot('nightlyDigest', new Date('2025-06-01T02:00:00Z'), async () => 1, 'takeover');
`,
  'express-mongodb': `import { MongoClient } from 'mongodb';
import { createMongoStore } from './mongo-store.js';
import type { IdempotencyStore } from '@idempotency-builder/runtime';
const store: IdempotencyStore = createMongoStore({ db: new MongoClient('mongodb://127.0.0.1:27017').db('app') });
export { store };
`,
};

/** The same projects on other stacks: each variant compiles its generated code against the real drivers. */
const VARIANTS: Record<string, { base: FixtureName; stack: Record<string, string> }> = {
  'fastify-as-hono': { base: 'fastify-redis-rabbitmq', stack: { framework: 'hono' } },
  'hono-redis-cron': { base: 'go-redis', stack: { language: 'typescript', framework: 'hono', database: 'redis', broker: 'bullmq' } },
  'express-dynamodb': { base: 'express-postgres-stripe', stack: { database: 'dynamodb' } },
  'express-mongodb': { base: 'express-postgres-stripe', stack: { database: 'mongodb' } },
  'fastify-kafka': { base: 'fastify-redis-rabbitmq', stack: { broker: 'kafka' } },
  'fastify-nats': { base: 'fastify-redis-rabbitmq', stack: { broker: 'nats' } },
  'fastify-sqs': { base: 'fastify-redis-rabbitmq', stack: { broker: 'sqs' } },
  'fastify-bullmq': { base: 'fastify-redis-rabbitmq', stack: { broker: 'bullmq' } },
  'fastify-no-broker': { base: 'fastify-redis-rabbitmq', stack: { broker: 'none' } },
};

function projects(): [string, ReturnType<typeof buildDesign>][] {
  const named: FixtureName[] = ['express-postgres-stripe', 'fastify-redis-rabbitmq', 'nestjs-mysql-adyen', 'agnostic'];
  const list: [string, ReturnType<typeof buildDesign>][] = named.map((name) => [name, buildDesign(fixture(name), { generatedAt: GENERATED_AT })]);
  for (const [name, { base, stack }] of Object.entries(VARIANTS)) {
    const answers = answersSchema.parse({ ...FIXTURES[base], stack: { ...FIXTURES[base].stack, ...stack } });
    list.push([name, buildDesign(answers, { generatedAt: GENERATED_AT })]);
  }
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
    // Drivers this repository does not install are stubbed, and named here; runtime subpaths never are.
    console.info(`[typescript] stubbed modules: ${result.stubbed.join(', ') || 'none'}`);
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
    expect(result.stubbed.filter((module) => module.startsWith('@idempotency-builder/'))).toEqual([]);
    for (const driver of ['mongodb', 'mysql2/promise', '@aws-sdk/client-dynamodb', 'amqplib', 'kafkajs', 'bullmq']) expect(result.stubbed).not.toContain(driver);
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

  it('consumers, webhooks, schedules, sagas and provider keys call the runtime’s entry points; MongoDB is a generated module', () => {
    const files = (name: string) => new Map((built.find(([n]) => n === name)?.[1].artifacts ?? []).map((a) => [a.path, a]));
    const express = files('express-postgres-stripe');
    expect(express.get('webhooks.ts')?.content).toContain("from '@idempotency-builder/runtime/webhooks'");
    expect(express.get('webhooks.ts')?.content).toContain('createWebhookHandler({ idempotency, provider: stripeProvider(provider), handler, ...POLICIES.stripeWebhook })');
    expect(express.get('sagas.ts')?.content).toContain("import { defineSaga, type Saga, type SagaStep } from '@idempotency-builder/runtime/saga';");
    // Stripe keys come from the runtime: no provider-keys.ts is generated for them.
    expect(express.has('provider-keys.ts')).toBe(false);
    expect(files('fastify-redis-rabbitmq').get('worker.ts')?.content).toContain("from '@idempotency-builder/runtime/consumers/rabbitmq'");
    expect(files('fastify-kafka').get('worker.ts')?.content).toContain('createKafkaEachMessage(');
    expect(files('fastify-no-broker').get('worker.ts')?.content).toContain("from '@idempotency-builder/runtime/functions'");
    expect(files('hono-redis-cron').get('worker.ts')?.content).toContain("from '@idempotency-builder/runtime/schedules'");
    for (const [, model] of built) {
      for (const artifact of model.artifacts) {
        expect(artifact.content, artifact.path).not.toContain('@idempotency-builder/runtime/mongodb');
        expect(artifact.content, artifact.path).not.toMatch(/export (async )?function (processMessage|runScheduled)\b/);
      }
    }
    const mongo = files('express-mongodb');
    expect(mongo.get('idempotency.ts')?.content).toContain("import { createMongoStore } from './mongo-store.js';");
    const store = mongo.get('mongo-store.ts');
    expect(store?.content).toContain('Not run against a MongoDB server');
    expect(store?.purpose).toContain('Not run against a MongoDB server');
    expect(store?.content).toContain("'$$NOW'");
    expect(store?.content).toContain('{ unique: true');
  });

  it('runs the generated test suite green on the runtime (vitest, memory store)', async () => {
    const dir = join(workspace.dir, 'express-postgres-stripe');
    writeArtifacts(dir, (built[0] as [string, ReturnType<typeof buildDesign>])[1].artifacts.filter((a) => a.language === 'typescript'));
    const stdout = await runGeneratedVitest(dir, 'idempotency.test.ts');
    // The seven scenarios plus the saga's resume scenario on the generated saga.
    expect(stdout).toMatch(/Tests\s+8 passed/);
    expect(stdout).not.toMatch(/todo|skipped|failed/i);
  }, 150_000);
});
