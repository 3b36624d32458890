/**
 * The Java artifacts: package com.example.idempotency — JDK-only core and stores, Spring Boot glue,
 * JUnit 5 tests.
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { fingerprintJava, providerKeysJava } from './core.js';
import { engineJava } from './engine.js';
import { cleanupJava, executorJava, javaTests } from './spring.js';
import { storeJava } from './stores.js';


/**
 * Every generated Java file for the plan.
 * @example javaArtifacts(plan).map((a) => a.path)
 */
export function javaArtifacts(plan: Plan): Artifact[] {
  const store = storeJava(plan);
  const files: Artifact[] = [
    { path: `Fingerprint.java`, language: 'java', content: fingerprintJava(plan), purpose: 'Fingerprint utility, identical to the TypeScript runtime’s.' },
    { path: `IdempotencyEngine.java`, language: 'java', content: engineJava(plan), purpose: 'The flow: claim, run once, store, replay; heartbeat.' },
    { path: `${store.file}`, language: 'java', content: store.content, purpose: `The ${plan.stack.storeName} store.` },
    { path: `IdempotentExecutor.java`, language: 'java', content: executorJava(), purpose: 'Spring component controllers call.' },
    { path: `IdempotencyCleanupJob.java`, language: 'java', content: cleanupJava(plan), purpose: 'Scheduled cleanup job.' },
  ];
  const providers = providerKeysJava(plan);
  if (providers) files.push({ path: `ProviderKeys.java`, language: 'java', content: providers, purpose: 'Deterministic provider keys.' });
  files.push({ path: `IdempotencyEngineTest.java`, language: 'java', content: javaTests(plan), purpose: 'JUnit 5 suite for the section 11 scenarios.' });
  return files;
}
