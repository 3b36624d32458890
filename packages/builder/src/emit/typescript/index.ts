/**
 * The TypeScript artifacts: code on the idempotency-builder runtime for Express, Fastify, Hono, Koa,
 * NestJS, any Fetch-API framework or Next.js pages-router routes, plus its test suite.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { cleanupFile, providerKeysFile, workerFile } from './ops-files.js';
import { engineFile, fingerprintsFile } from './core-files.js';
import { frameworkFile } from './framework-files.js';
import { graphqlFile } from './graphql-file.js';
import { MONGO_UNTESTED, mongoStoreFile } from './mongo-store-file.js';
import { nextPagesFile } from './next-pages-file.js';
import { protectFile } from './protect-file.js';
import { sagaFile } from './saga-file.js';
import { serverActionsFile } from './server-actions-file.js';
import { testFile } from './test-file.js';
import { webhookFile } from './webhook-file.js';

/**
 * Every generated TypeScript file for the plan.
 * @example typescriptArtifacts(plan).map((a) => a.path)
 */
export function typescriptArtifacts(plan: Plan): Artifact[] {
  const files: Artifact[] = [
    { path: `idempotency.ts`, language: 'typescript', content: engineFile(plan), purpose: 'The store, the engine, and each action’s lock timeout and key expiry.' },
    { path: `fingerprints.ts`, language: 'typescript', content: fingerprintsFile(plan), purpose: 'Fingerprint utility: SHA-256 of each action’s significant fields.' },
  ];
  if (plan.stack.store === 'mongodb') {
    files.push({ path: 'mongo-store.ts', language: 'typescript', content: mongoStoreFile(plan.table), purpose: `MongoDB store implementing the runtime's IdempotencyStore (server clock $$NOW, unique index on key + scope, fenced writes). ${MONGO_UNTESTED}` });
  }
  const glue = frameworkFile(plan, plan.stack.framework);
  if (glue) {
    files.push({ path: `${plan.stack.framework}.ts`, language: 'typescript', content: glue, purpose: `Middleware/interceptor for ${plan.stack.frameworkName} on the runtime's adapter, one per protected route.` });
  }
  const pages = nextPagesFile(plan);
  if (pages) {
    files.push({ path: 'next-pages.ts', language: 'typescript', content: pages, purpose: "Next.js pages-router API routes (pages/api): each handler wrapped as withIdempotency(action, scope, handler) on the runtime's HTTP adapter SDK, on the body Next parsed into req.body." });
  }
  const protect = protectFile(plan);
  if (protect) {
    files.push({ path: `protect.ts`, language: 'typescript', content: protect, purpose: 'The lock-check-process-store flow for routes whose key is derived from the request content.' });
  }
  const graphql = graphqlFile(plan);
  if (graphql) files.push({ path: 'graphql.ts', language: 'typescript', content: graphql, purpose: "GraphQL mutations: each resolver wrapped on the runtime's engine, keyed by the mutation's idempotencyKey argument (route middleware cannot tell operations on the shared endpoint apart)." });
  const actions = serverActionsFile(plan);
  if (actions) files.push({ path: 'server-actions.ts', language: 'typescript', content: actions, purpose: "Next.js server actions: each wrapped with the runtime's makeIdempotent (/functions), keyed by the idempotencyKey form field the page generates once per render, scoped by the signed-in user." });
  const webhooks = webhookFile(plan);
  if (webhooks) files.push({ path: 'webhooks.ts', language: 'typescript', content: webhooks, purpose: "Webhook endpoints on the runtime's createWebhookHandler: verified with the provider's SDK, deduplicated on its event id." });
  const worker = workerFile(plan);
  if (worker) files.push({ path: `worker.ts`, language: 'typescript', content: worker, purpose: "Consumers and scheduled jobs on the runtime's consumer and schedule entry points: ack only after the outcome is stored." });
  const sagas = sagaFile(plan);
  if (sagas) files.push({ path: 'sagas.ts', language: 'typescript', content: sagas, purpose: "Multi-step actions on the runtime's defineSaga: resume from the first incomplete step, compensate in reverse." });
  const providers = providerKeysFile(plan);
  if (providers) files.push({ path: `provider-keys.ts`, language: 'typescript', content: providers, purpose: "This service's provider-key settings over the runtime's /payments derivation (PayPal namespace, bank-transfer ids, Braintree order ids and their reconciliation lookup)." });
  files.push({ path: `cleanup.ts`, language: 'typescript', content: cleanupFile(), purpose: 'Cleanup job: purges expired records in batches.' });
  const testFramework = plan.stack.testFramework === 'jest' ? 'jest' : 'vitest';
  files.push({ path: 'idempotency.test.ts', language: 'typescript', content: testFile(plan, testFramework), purpose: `Test suite (${testFramework}) for the section 11 scenarios.` });
  return plan.stack.level.relativeImportExtension === '.js' ? files : files.map((file) => ({ ...file, content: withoutJsExtensions(file.content) }));
}

/**
 * Relative imports without `.js` (`'./idempotency'`): under node10 (CommonJS) or bundler resolution
 * the project's own files are written so, and ts-jest and webpack resolve no `.js` onto a `.ts` file.
 * @example withoutJsExtensions("import { store } from './idempotency.js';") // "import { store } from './idempotency';"
 */
export function withoutJsExtensions(source: string): string {
  return source.replace(/(['"])(\.\.?\/[\w./-]+?)\.js\1/g, '$1$2$1');
}
