/**
 * The TypeScript artifacts: code on the idempotency-builder runtime for Express, Fastify, Hono,
 * NestJS or any Fetch-API framework, plus its test suite.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { cleanupFile, providerKeysFile, workerFile } from './ops-files.js';
import { engineFile, fingerprintsFile } from './core-files.js';
import { frameworkFile } from './framework-files.js';
import { protectFile } from './protect-file.js';
import { testFile } from './test-file.js';

/**
 * Every generated TypeScript file for the plan.
 * @example typescriptArtifacts(plan).map((a) => a.path)
 */
export function typescriptArtifacts(plan: Plan): Artifact[] {
  const files: Artifact[] = [
    { path: `idempotency.ts`, language: 'typescript', content: engineFile(plan), purpose: 'The store, the engine, and each action’s lock timeout and key expiry.' },
    { path: `fingerprints.ts`, language: 'typescript', content: fingerprintsFile(plan), purpose: 'Fingerprint utility: SHA-256 of each action’s significant fields.' },
  ];
  const glue = frameworkFile(plan, plan.stack.framework);
  if (glue) {
    files.push({ path: `${plan.stack.framework}.ts`, language: 'typescript', content: glue, purpose: `Middleware/interceptor for ${plan.stack.frameworkName} on the runtime's adapter, one per protected route.` });
  }
  const protect = protectFile(plan);
  if (protect) {
    files.push({ path: `protect.ts`, language: 'typescript', content: protect, purpose: 'The lock-check-process-store flow for routes keyed by content (derived keys, webhooks).' });
  }
  const worker = workerFile(plan);
  if (worker) files.push({ path: `worker.ts`, language: 'typescript', content: worker, purpose: 'Consumers and scheduled jobs: ack only after the outcome is stored.' });
  const providers = providerKeysFile(plan);
  if (providers) files.push({ path: `provider-keys.ts`, language: 'typescript', content: providers, purpose: 'Deterministic provider keys derived from the local key.' });
  files.push({ path: `cleanup.ts`, language: 'typescript', content: cleanupFile(), purpose: 'Cleanup job: purges expired records in batches.' });
  const testFramework = plan.stack.testFramework === 'jest' ? 'jest' : 'vitest';
  files.push({ path: 'idempotency.test.ts', language: 'typescript', content: testFile(plan, testFramework), purpose: `Test suite (${testFramework}) for the section 11 scenarios.` });
  return files;
}
