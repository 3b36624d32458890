/**
 * The inspector on realistic fixture codebases: for each stack it must find the language,
 * framework, database, broker, providers and every critical action — each at its exact
 * `path:line` — and must not report HTTP client calls or test requests as endpoints.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectCodebase } from '../src/inspect/index.js';
import type { Inspection } from '../src/inspect/types.js';

const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
const routes = (inspection: Inspection) => inspection.endpoints.map((e) => `${e.method} ${e.route} @ ${e.location}`);

describe('inspectCodebase on fixtures', () => {
  it('Express + PostgreSQL + Stripe: routes, chained routes, body fields, Stripe calls, webhook, cron', async () => {
    const inspection = await inspectCodebase(fixture('express-postgres-stripe'));
    expect(inspection.language).toMatchObject({ value: 'typescript', location: 'package.json:1' });
    expect(inspection.framework).toMatchObject({ value: 'express', location: 'package.json:11' });
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'src/db.ts:3', evidence: 'new Pool(...)' });
    expect(inspection.broker).toBeUndefined();
    expect(inspection.projectName?.value).toBe('shop-payments');
    expect(inspection.packageManager).toMatchObject({ value: 'npm', location: 'package-lock.json:1' });
    expect(inspection.testFramework?.value).toBe('vitest');
    expect(routes(inspection).sort()).toEqual([
      'DELETE /orders/:id @ src/routes/orders.ts:21',
      'POST /hooks/stripe @ src/routes/webhooks.ts:6',
      'POST /orders @ src/routes/orders.ts:15',
      'POST /payments @ src/routes/payments.ts:7',
      'POST /payments/:id/refund @ src/routes/payments.ts:28',
    ]);
    const payments = inspection.endpoints.find((e) => e.route === '/payments');
    expect(payments?.bodyFields).toEqual(['amount', 'currency', 'customerId', 'description']);
    expect(inspection.endpoints.find((e) => e.route === '/orders' && e.method === 'POST')?.bodyFields).toEqual(['cartId', 'items', 'shippingAddressId']);
    expect(inspection.endpoints.find((e) => e.route === '/payments/:id/refund')).toMatchObject({ handler: 'refundPayment', bodyFields: ['amount'], span: { start: 19, end: 26 } });
    expect(inspection.paymentCalls).toEqual([
      // No key: the fix adds request options before the call's closing parenthesis, on the line that has it.
      { provider: 'stripe', call: 'stripe.paymentIntents.create', location: 'src/routes/payments.ts:9', passesIdempotencyKey: false, fix: { location: 'src/routes/payments.ts:14', line: '  });', column: 3, length: 0, text: ', { idempotencyKey: {{KEY}} }' } },
      // `key` is followed to its value, the request's Idempotency-Key header: sound.
      { provider: 'stripe', call: 'stripe.refunds.create', location: 'src/routes/payments.ts:21', passesIdempotencyKey: true, keyExpression: 'key', keyLocation: 'src/routes/payments.ts:20', keyVerdict: { verdict: 'sound', reason: expect.stringMatching(/^the request’s own idempotency key/) } },
    ]);
    expect(inspection.webhooks.map((w) => w.location)).toEqual(['src/routes/webhooks.ts:6']);
    expect(inspection.schedulers).toEqual([{ mechanism: 'node-cron', schedule: '*/15 * * * *', location: 'src/jobs/reconcile.ts:5' }]);
    // axios.post('/notifications') in src/notify.ts and request(app).post('/payments') in the test are clients, not routes.
    expect(routes(inspection).join()).not.toMatch(/notifications|notify|payments\.test/);
  });

  it('Fastify + Redis + RabbitMQ: options-object routes, route(), plugins, the amqplib consumer', async () => {
    const inspection = await inspectCodebase(fixture('fastify-redis-rabbitmq'));
    expect(inspection.framework?.value).toBe('fastify');
    expect(inspection.database).toMatchObject({ value: 'redis', location: 'src/redis.ts:3' });
    expect(inspection.broker).toMatchObject({ value: 'rabbitmq', location: 'src/consumers/order-events.ts:5' });
    expect(routes(inspection)).toEqual([
      'POST /orders @ src/server.ts:13',
      'PUT /orders/:id @ src/server.ts:26',
      'PATCH /orders/:id @ src/server.ts:26',
      'DELETE /orders/:id @ src/plugins/refunds.ts:5',
    ]);
    expect(inspection.endpoints[0]?.bodyFields).toEqual(['sku', 'quantity', 'customerId']);
    expect(inspection.endpoints[1]).toMatchObject({ handler: 'updateOrder', bodyFields: ['quantity'] });
    expect(inspection.consumers).toEqual([{ broker: 'rabbitmq', channel: 'order.paid', location: 'src/consumers/order-events.ts:8', evidence: 'channel.consume' }]);
    expect(inspection.paymentProviders).toEqual([]);
  });

  it('NestJS + MySQL + Adyen: decorators with controller prefix, DTO fields, Adyen calls, @Cron', async () => {
    const inspection = await inspectCodebase(fixture('nestjs-mysql-adyen'));
    expect(inspection.framework?.value).toBe('nestjs');
    expect(inspection.database).toMatchObject({ value: 'mysql', location: 'src/app.module.ts:11' });
    expect(routes(inspection)).toEqual([
      'POST /payments @ src/payments/payments.controller.ts:9',
      'POST /payments/:pspReference/refunds @ src/payments/payments.controller.ts:14',
      'POST /webhooks/adyen @ src/webhooks/adyen-webhook.controller.ts:10',
    ]);
    expect(inspection.endpoints[0]).toMatchObject({ handler: 'create', bodyType: 'CreatePaymentDto', bodyFields: ['amount', 'currency', 'merchantReference', 'shopperReference', 'returnUrl'] });
    expect(inspection.endpoints[1]?.bodyFields).toEqual(['amount']);
    expect(inspection.webhooks).toHaveLength(1);
    expect(inspection.paymentCalls).toEqual([
      { provider: 'adyen', call: 'this.checkout.PaymentsApi.payments', location: 'src/payments/payments.service.ts:10', passesIdempotencyKey: true, keyExpression: 'idempotencyKey', keyLocation: 'src/payments/payments.service.ts:19', keyVerdict: { verdict: 'sound', reason: expect.stringMatching(/derived from the local idempotency key/) } },
      { provider: 'adyen', call: 'this.checkout.ModificationsApi.refundCapturedPayment', location: 'src/payments/payments.service.ts:24', passesIdempotencyKey: false, fix: { location: 'src/payments/payments.service.ts:27', line: '    });', column: 5, length: 0, text: ', { idempotencyKey: {{KEY}} }' } },
    ]);
    expect(inspection.schedulers).toEqual([{ mechanism: '@Cron', schedule: '0 */10 * * * *', location: 'src/payments/settlement.job.ts:6', handler: 'reconcileSettlements' }]);
  });

  it('FastAPI + PostgreSQL + PayPal: router prefix, Pydantic body, PayPal calls, webhook, APScheduler', async () => {
    const inspection = await inspectCodebase(fixture('fastapi-postgres-paypal'));
    expect(inspection.language).toMatchObject({ value: 'python', location: 'pyproject.toml:1' });
    expect(inspection.framework).toMatchObject({ value: 'fastapi', location: 'pyproject.toml:6' });
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'app/db.py:10' });
    expect(inspection.testFramework?.value).toBe('pytest');
    expect(inspection.paymentProviders[0]).toMatchObject({ value: 'paypal', location: 'pyproject.toml:9' });
    expect(routes(inspection)).toEqual([
      'POST /webhooks/paypal @ app/main.py:11',
      'POST /orders @ app/routers/orders.py:10',
      'POST /orders/{order_id}/capture @ app/routers/orders.py:19',
    ]);
    expect(inspection.endpoints[1]).toMatchObject({ handler: 'create_order', bodyType: 'OrderIn', bodyFields: ['amount', 'currency', 'customer_id', 'note'] });
    expect(inspection.endpoints[0]).toMatchObject({ webhook: true, bodyFields: ['id'] });
    expect(inspection.paymentCalls.map((c) => [c.location, c.passesIdempotencyKey])).toEqual([
      ['app/routers/orders.py:12', false],
      ['app/routers/orders.py:21', true],
    ]);
    expect(inspection.schedulers).toEqual([{ mechanism: 'apscheduler', schedule: 'interval minutes=10', location: 'app/main.py:21', handler: 'reconcile_orders' }]);
  });

  it('Spring + PostgreSQL: mappings under the class prefix, record DTO, Kafka listener, @Scheduled, JDBC URL', async () => {
    const inspection = await inspectCodebase(fixture('spring-postgres'));
    expect(inspection.language?.value).toBe('java');
    expect(inspection.framework).toMatchObject({ value: 'spring', location: 'pom.xml:13' });
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'src/main/resources/application.properties:2' });
    expect(inspection.broker?.value).toBe('kafka');
    expect(inspection.projectName).toMatchObject({ value: 'orders', location: 'pom.xml:10' });
    const controller = 'src/main/java/com/example/orders/OrderController.java';
    expect(routes(inspection)).toEqual([
      `POST /api/orders @ ${controller}:17`,
      `PUT /api/orders/{id}/cancel @ ${controller}:24`,
      `DELETE /api/orders/{id} @ ${controller}:29`,
    ]);
    expect(inspection.endpoints[0]).toMatchObject({ handler: 'create', bodyType: 'CreateOrderRequest', bodyFields: ['customerId', 'sku', 'quantity', 'amountCents'] });
    expect(inspection.consumers).toMatchObject([{ broker: 'kafka', channel: 'payment-events', location: 'src/main/java/com/example/orders/OrderEventsListener.java:14' }]);
    expect(inspection.schedulers).toMatchObject([{ mechanism: '@Scheduled', location: 'src/main/java/com/example/orders/StaleOrderCleanup.java:8' }]);
  });

  it('Go + Redis: gin groups, handler body type from another file, go-redis client, robfig/cron', async () => {
    const inspection = await inspectCodebase(fixture('go-redis'));
    expect(inspection.language).toMatchObject({ value: 'go', location: 'go.mod:1' });
    expect(inspection.framework).toMatchObject({ value: 'gin', location: 'go.mod:6' });
    expect(inspection.database).toMatchObject({ value: 'redis', location: 'store.go:17' });
    expect(inspection.testFramework?.value).toBe('go-test');
    expect(routes(inspection)).toEqual(['POST /api/v1/transfers @ main.go:16', 'DELETE /api/v1/transfers/:id @ main.go:17']);
    expect(inspection.endpoints[0]).toMatchObject({ bodyType: 'CreateTransferRequest', bodyFields: ['from_account', 'to_account', 'amount_cents', 'currency'] });
    expect(inspection.schedulers).toEqual([{ mechanism: 'robfig/cron', schedule: '@every 5m', location: 'store.go:30' }]);
  });

  it('Next.js route handlers: exported verbs, route groups and dynamic segments, Prisma datasource', async () => {
    const inspection = await inspectCodebase(fixture('nextjs-prisma-stripe'));
    expect(inspection.framework?.value).toBe('nextjs');
    expect(inspection.database).toMatchObject({ value: 'postgresql', location: 'prisma/schema.prisma:6' });
    expect(routes(inspection).sort()).toEqual([
      'DELETE /api/orders/:id @ app/api/orders/[id]/route.ts:7',
      'POST /api/checkout @ app/api/checkout/route.ts:5',
      'POST /api/webhooks/stripe @ app/api/webhooks/stripe/route.ts:3',
      'PUT /api/newsletter @ app/(marketing)/api/newsletter/route.ts:1',
    ]);
    expect(inspection.endpoints.find((e) => e.route === '/api/checkout')?.bodyFields).toEqual(['cartId', 'priceId', 'quantity']);
    expect(inspection.webhooks.map((w) => w.route)).toEqual(['/api/webhooks/stripe']);
    expect(inspection.paymentCalls).toMatchObject([{ call: 'stripe.checkout.sessions.create', location: 'app/api/checkout/route.ts:7' }]);
  });

  it('Hono + SQLite + BullMQ: app.post and app.on, the BullMQ Worker, node-cron and setInterval', async () => {
    const inspection = await inspectCodebase(fixture('hono-sqlite-bullmq'));
    expect(inspection.framework?.value).toBe('hono');
    expect(inspection.database).toMatchObject({ value: 'sqlite', location: 'src/db.ts:3' });
    expect(inspection.broker?.value).toBe('bullmq');
    expect(routes(inspection)).toEqual(['POST /notifications @ src/index.ts:8', 'PUT /preferences/:userId @ src/index.ts:14']);
    expect(inspection.endpoints[0]?.bodyFields).toEqual(['userId', 'template', 'channel']);
    expect(inspection.consumers).toEqual([{ broker: 'bullmq', channel: 'notifications', location: 'src/worker.ts:4', evidence: 'new Worker' }]);
    expect(inspection.schedulers.map((s) => `${s.mechanism} ${s.location}`)).toEqual(['node-cron src/digest.ts:4', 'setInterval src/digest.ts:8']);
  });

  it('an empty project: nothing found, nothing invented', async () => {
    const inspection = await inspectCodebase(fixture('empty'));
    expect(inspection).toMatchObject({ filesScanned: 0, endpoints: [], consumers: [], schedulers: [], paymentProviders: [] });
    expect(inspection.language).toBeUndefined();
    expect(inspection.database).toBeUndefined();
  });
});
