/**
 * The answers to the spec's seven questions (plus the output format), as one validated object.
 * The inspector fills what the code tells, the prompts ask the rest, `--answers FILE` may supply
 * any of it; the design model is built from this and nothing else.
 */
import { z } from 'zod';
import { providerCallSchema } from './answers-provider-calls.js';

export const LANGUAGES = ['typescript', 'javascript', 'python', 'go', 'java', 'kotlin', 'csharp', 'ruby', 'php', 'other'] as const;
export const FRAMEWORKS = [
  'express', 'fastify', 'nestjs', 'hono', 'koa', 'nextjs', 'fastapi', 'flask', 'django', 'spring', 'gin', 'net-http', 'aspnet', 'rails', 'laravel', 'other', 'none',
] as const;
export const DATABASES = ['postgresql', 'mysql', 'mariadb', 'sqlite', 'redis', 'dynamodb', 'mongodb', 'other', 'unknown'] as const;
export const BROKERS = ['rabbitmq', 'kafka', 'nats', 'sqs', 'bullmq', 'none', 'other'] as const;
export const RETRY_SOURCES = [
  'client-retry', 'queue-redelivery', 'webhook-resend', 'cron-overlap', 'double-click', 'load-balancer-replay',
] as const;
export const PROVIDERS = ['stripe', 'adyen', 'paypal', 'braintree', 'bank-transfer'] as const;
export const CONCURRENCY = ['single-server', 'multi-instance', 'globally-distributed'] as const;
export const ACTION_KINDS = ['http', 'consumer', 'webhook', 'cron', 'job'] as const;
export const KEY_SOURCES = ['client', 'server', 'derived'] as const;
export const TEST_FRAMEWORKS = ['vitest', 'jest', 'mocha', 'node-test', 'pytest', 'unittest', 'go-test', 'junit5', 'other'] as const;

/** Where a fact came from: the code (file:line), the user, an answers file, or an assumption. */
export const provenanceSchema = z.object({
  source: z.enum(['code', 'user', 'file', 'assumption']),
  /** For `code`: `path:line`. For `assumption`: the stated assumption in plain words. */
  detail: z.string().optional(),
});

/**
 * The language level the project builds at, read from its build files (tsconfig, package.json,
 * pom.xml/build.gradle, go.mod, pyproject): the generated code is written to compile there.
 */
export const languageLevelSchema = z.object({
  typescript: z.object({
    /** compilerOptions.module, lower-case (`commonjs`, `node16`, `nodenext`, `esnext`, ...). */
    module: z.string().optional(),
    /** The effective moduleResolution (set, or TypeScript's default for the module). */
    moduleResolution: z.string().optional(),
    target: z.string().optional(),
    /** package.json "type" next to the tsconfig: `module` makes .ts files ES modules under node16/nodenext. */
    packageType: z.enum(['module', 'commonjs']).optional(),
  }).optional(),
  /** The Java release (maven.compiler.release/source, <java.version>, Gradle toolchain or sourceCompatibility). */
  java: z.object({ release: z.number().int().positive() }).optional(),
  /** go.mod: the `go` directive and the module path. */
  go: z.object({ version: z.string().regex(/^\d+\.\d+(\.\d+)?$/), module: z.string().optional() }).optional(),
  /** The oldest Python the project supports (requires-python), `3.9`. */
  python: z.object({ minimum: z.string().regex(/^3\.\d+$/) }).optional(),
  /** `path:line` of each setting read, keyed `typescript.module`, `java.release`, `go.version`, ... */
  locations: z.record(z.string(), z.string()).default({}),
  /** What was assumed rather than read (a package `extends`, a compiler default), in plain words. */
  assumptions: z.array(z.string()).default([]),
});

/** Deduplication the repository already does, as the inspector assessed it (shown, never acted on). */
export const existingProtectionSchema = z.object({
  kind: z.enum(['read-then-check', 'unique-constraint', 'processed-events', 'lock', 'provider-key', 'idempotency-key']),
  /** `path:line`. */
  location: z.string(),
  evidence: z.string(),
  /** What it stops today. */
  protects: z.string(),
  /** What still runs twice, and when. */
  race: z.string(),
});

/** Koa: where koa-jwt and koa-passport put the authenticated user's id, taken when the code reads no principal. */
export const KOA_DEFAULT_PRINCIPAL = 'ctx.state.user.id';

export const actionSchema = z.object({
  /** Short name in the user's domain, e.g. `createPayment`. Used in keys and code identifiers. */
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, 'use letters and digits, starting with a letter (e.g. createPayment)'),
  kind: z.enum(ACTION_KINDS),
  /** What executes: the mutation, side effect or external call. */
  description: z.string().min(1),
  /** HTTP only. */
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']).optional(),
  route: z.string().optional(),
  /**
   * GraphQL: the operation (`mutation createOrder`) served on `route`, the endpoint every
   * operation shares: protected around its resolver, never by route middleware.
   */
  operation: z.string().regex(/^mutation [A-Za-z_][A-Za-z0-9_]*$/).optional(),
  /**
   * Next.js server action: the function's name. Next posts it to any page's URL (`route` is `/*`)
   * with no Idempotency-Key header, so it is wrapped with makeIdempotent, keyed by a form field.
   */
  serverAction: z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/).optional(),
  /** Server action: the call that reads the signed-in user, as the code writes it (`supabase.auth.getUser()`); the scope comes from it. */
  principalCall: z.string().regex(/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*\(\)$/).optional(),
  /** Consumers: the queue/subject/topic; cron: the schedule. */
  channel: z.string().optional(),
  /**
   * Request fields that distinguish one intent from another; hashed into the fingerprint. Empty
   * when the code does not name them: then the whole body (canonical JSON) is the fingerprint.
   */
  significantFields: z.array(z.string().min(1)),
  /** Payment provider this action calls, if any. */
  provider: z.enum(PROVIDERS).optional(),
  /** Several steps (reserve, charge, confirm) make it a saga. */
  steps: z.array(z.string().min(1)).optional(),
  keySource: z.enum(KEY_SOURCES).default('client'),
  /** Typical p99 duration of the action, used to derive the lock timeout. */
  expectedDurationMs: z.number().int().positive().optional(),
  /** Where the inspector found it: `path:line`. */
  location: z.string().optional(),
  /**
   * Koa: the route's registration as the code writes it (at `location`), split where the action's
   * middleware goes, right before the handler: `router.post('/x', auth, ` and `orders.create)`.
   */
  registration: z.object({ before: z.string().min(1), after: z.string().min(1) }).strict().optional(),
});

export const answersSchema = z.object({
  format: z.enum(['html', 'md']).default('html'),
  /** The project's name (package.json, pyproject, go.mod module ...), used in the document title. */
  projectName: z.string().min(1).max(120).optional(),
  /** Q1: what actions are protected. */
  actions: z.array(actionSchema).min(1),
  /** Q2: the stack. */
  stack: z.object({
    language: z.enum(LANGUAGES),
    framework: z.enum(FRAMEWORKS),
    database: z.enum(DATABASES),
    broker: z.enum(BROKERS).default('none'),
    /** The project's test framework, when known; the test-suite skeleton is written for it. */
    testFramework: z.enum(TEST_FRAMEWORKS).optional(),
    /** The language level read from the build files; the generated code compiles at it. */
    level: languageLevelSchema.optional(),
  }),
  /** Q3 */
  retrySources: z.array(z.enum(RETRY_SOURCES)).min(1),
  /** Money-moving provider calls the inspector found, each with its key verdict and fix site (answers-provider-calls.ts). */
  providerCalls: z.array(providerCallSchema).default([]),
  /** Q4: empty list = no payments. */
  paymentProviders: z.array(z.enum(PROVIDERS)).default([]),
  /** Q5 */
  concurrency: z.enum(CONCURRENCY),
  /** Q6: how long a completed request is remembered, ms. */
  retentionMs: z.number().int().positive(),
  /** Q7: how quickly a duplicate must be rejected, ms. */
  detectionLatencyMs: z.number().int().positive(),
  /** Expected new keys per day; drives the partitioning advice (> 100K/day). */
  keysPerDay: z.number().int().nonnegative().optional(),
  /** Scope boundary of keys. */
  scope: z.enum(['user', 'account', 'tenant', 'global']).default('user'),
  /** Koa: where the authenticated principal's id is read (`ctx.state.user.id`); the keys are scoped by it. Absent: KOA_DEFAULT_PRINCIPAL, assumed. */
  principal: z.string().regex(/^ctx\.state(\.[A-Za-z_$][\w$]*)+$/, 'a path on ctx.state, e.g. ctx.state.user.id').optional(),
  /** True when questions 1–2 stayed unanswered: the design is technology-agnostic. */
  agnostic: z.boolean().default(false),
  /** Per-answer provenance, keyed by answer name (`actions`, `stack`, `retrySources`, ...). */
  provenance: z.record(z.string(), provenanceSchema).default({}),
  /** Existing deduplication found in the code; absent when the code was not inspected. */
  existingProtection: z.array(existingProtectionSchema).optional(),
});

export type Action = z.infer<typeof actionSchema>;
export type LanguageLevel = z.infer<typeof languageLevelSchema>;
export type Answers = z.infer<typeof answersSchema>;
export type AnswersInput = z.input<typeof answersSchema>;
