/** Answers for the stacks the builder must handle, as the inspector and prompts would produce them. */
import { answersSchema, type Answers, type AnswersInput } from '../src/answers.js';

const HOUR = 3_600_000;

export const FIXTURES = {
  'express-postgres-stripe': {
    projectName: 'payments-api',
    actions: [
      {
        name: 'createPayment',
        kind: 'http',
        description: 'Charges the customer through Stripe and records the payment',
        method: 'POST',
        route: '/payments',
        significantFields: ['amount', 'currency', 'recipient_id'],
        provider: 'stripe',
        expectedDurationMs: 3000,
        location: 'src/routes/payments.ts:14',
      },
      {
        name: 'placeOrder',
        kind: 'http',
        description: 'Reserves stock, charges the card and confirms the order',
        method: 'POST',
        route: '/orders',
        significantFields: ['cart_id', 'items', 'amount', 'currency'],
        provider: 'stripe',
        steps: ['reserveStock', 'chargeCard', 'confirmOrder'],
        location: 'src/routes/orders.ts:22',
      },
      {
        name: 'stripeWebhook',
        kind: 'webhook',
        description: 'Applies Stripe payment events to local payments',
        method: 'POST',
        route: '/webhooks/stripe',
        significantFields: ['id', 'type'],
        provider: 'stripe',
        keySource: 'derived',
        location: 'src/routes/webhooks.ts:9',
      },
    ],
    stack: { language: 'typescript', framework: 'express', database: 'postgresql', broker: 'none', testFramework: 'vitest' },
    retrySources: ['client-retry', 'double-click', 'webhook-resend', 'load-balancer-replay'],
    paymentProviders: ['stripe'],
    concurrency: 'multi-instance',
    retentionMs: 48 * HOUR,
    detectionLatencyMs: 50,
    keysPerDay: 250_000,
    scope: 'user',
    provenance: {
      stack: { source: 'code', detail: 'package.json:12' },
      concurrency: { source: 'assumption', detail: 'several instances behind a load balancer (not stated)' },
    },
  },
  'fastify-redis-rabbitmq': {
    projectName: 'booking-service',
    actions: [
      {
        name: 'createBooking',
        kind: 'http',
        description: 'Creates a room booking',
        method: 'POST',
        route: '/bookings',
        significantFields: ['room_id', 'check_in', 'check_out'],
        expectedDurationMs: 800,
      },
      {
        name: 'orderCreated',
        kind: 'consumer',
        description: 'Sends the booking confirmation email for a new order',
        channel: 'orders.created',
        significantFields: ['order_id', 'email'],
        keySource: 'derived',
      },
    ],
    stack: { language: 'typescript', framework: 'fastify', database: 'redis', broker: 'rabbitmq' },
    retrySources: ['client-retry', 'queue-redelivery'],
    concurrency: 'multi-instance',
    retentionMs: 24 * HOUR,
    detectionLatencyMs: 10,
  },
  'nestjs-mysql-adyen': {
    projectName: 'refunds',
    actions: [
      {
        name: 'refundPayment',
        kind: 'http',
        description: 'Refunds a captured payment through Adyen',
        method: 'POST',
        route: '/refunds',
        significantFields: ['payment_id', 'amount', 'currency'],
        provider: 'adyen',
        expectedDurationMs: 4000,
      },
    ],
    stack: { language: 'typescript', framework: 'nestjs', database: 'mariadb', broker: 'none' },
    retrySources: ['client-retry', 'load-balancer-replay'],
    paymentProviders: ['adyen'],
    concurrency: 'multi-instance',
    retentionMs: 7 * 24 * HOUR,
    detectionLatencyMs: 100,
    keysPerDay: 20_000,
    scope: 'account',
  },
  'fastapi-postgres-paypal': {
    projectName: 'checkout',
    actions: [
      {
        name: 'capturePayment',
        kind: 'http',
        description: 'Captures an authorised PayPal payment',
        method: 'POST',
        route: '/captures',
        significantFields: ['order_id', 'amount', 'currency'],
        provider: 'paypal',
        expectedDurationMs: 5000,
      },
    ],
    stack: { language: 'python', framework: 'fastapi', database: 'postgresql', broker: 'none' },
    retrySources: ['client-retry', 'double-click'],
    paymentProviders: ['paypal'],
    concurrency: 'multi-instance',
    retentionMs: 24 * HOUR,
    detectionLatencyMs: 50,
  },
  'spring-postgres': {
    projectName: 'orders',
    actions: [
      {
        name: 'submitOrder',
        kind: 'http',
        description: 'Submits an order and reserves stock',
        method: 'POST',
        route: '/orders',
        significantFields: ['cart_id', 'items'],
        expectedDurationMs: 1500,
      },
    ],
    stack: { language: 'java', framework: 'spring', database: 'postgresql', broker: 'kafka' },
    retrySources: ['client-retry', 'double-click', 'load-balancer-replay'],
    concurrency: 'multi-instance',
    retentionMs: 24 * HOUR,
    detectionLatencyMs: 20,
  },
  'go-redis': {
    projectName: 'notifier',
    actions: [
      {
        name: 'sendNotification',
        kind: 'http',
        description: 'Sends a push notification to a user',
        method: 'POST',
        route: '/notifications',
        significantFields: ['user_id', 'template', 'channel'],
        expectedDurationMs: 600,
      },
      {
        name: 'nightlyDigest',
        kind: 'cron',
        description: 'Builds and sends the nightly digest emails',
        channel: '0 2 * * *',
        significantFields: ['slot'],
        expectedDurationMs: 120_000,
      },
    ],
    stack: { language: 'go', framework: 'net-http', database: 'redis', broker: 'none' },
    retrySources: ['client-retry', 'cron-overlap'],
    concurrency: 'globally-distributed',
    retentionMs: 12 * HOUR,
    detectionLatencyMs: 5,
  },
  agnostic: {
    actions: [
      {
        name: 'protectedAction',
        kind: 'http',
        description: 'The action to protect (not identified)',
        significantFields: ['payload'],
      },
    ],
    stack: { language: 'other', framework: 'other', database: 'unknown', broker: 'none' },
    retrySources: ['client-retry'],
    concurrency: 'multi-instance',
    retentionMs: 24 * HOUR,
    detectionLatencyMs: 100,
    agnostic: true,
    provenance: {
      actions: { source: 'assumption', detail: 'no action identified after asking twice' },
      stack: { source: 'assumption', detail: 'no stack identified after asking twice' },
      retrySources: { source: 'assumption', detail: 'client retries assumed' },
    },
  },
} satisfies Record<string, AnswersInput>;

export type FixtureName = keyof typeof FIXTURES;

export function fixture(name: FixtureName): Answers {
  return answersSchema.parse(FIXTURES[name]);
}

export const FIXTURE_NAMES = Object.keys(FIXTURES) as FixtureName[];

/** A fixed generation time, so documents are reproducible. */
export const GENERATED_AT = new Date('2025-06-01T12:00:00Z');
