/**
 * The Go artifacts: package idempotency (standard library only; Gin glue behind a build tag).
 */
import type { Artifact } from '../../design/model.js';
import type { Plan } from '../../design/plan/plan.js';
import { fingerprintGo, providerKeysGo } from './core.js';
import { engineGo } from './engine.js';
import { ginGo, middlewareGo } from './http.js';
import { storeGo } from './stores.js';
import { cleanupGo, goTests } from './tests.js';


/**
 * Every generated Go file for the plan.
 * @example goArtifacts(plan).map((a) => a.path)
 */
export function goArtifacts(plan: Plan): Artifact[] {
  const store = storeGo(plan);
  const files: Artifact[] = [
    { path: `fingerprint.go`, language: 'go', content: fingerprintGo(plan), purpose: 'Fingerprint utility, identical to the TypeScript runtime’s.' },
    { path: `engine.go`, language: 'go', content: engineGo(plan), purpose: 'The flow: claim, run once, store, replay; heartbeat; consumers.' },
    { path: `${store.file}`, language: 'go', content: store.content, purpose: `The ${plan.stack.storeName} store.` },
    { path: `middleware.go`, language: 'go', content: middlewareGo(), purpose: 'net/http middleware.' },
  ];
  if (plan.stack.framework === 'gin') files.push({ path: `gin.go`, language: 'go', content: ginGo(), purpose: 'Gin handler wrapper (build tag gin).' });
  const providers = providerKeysGo(plan);
  if (providers) files.push({ path: `provider_keys.go`, language: 'go', content: providers, purpose: 'Deterministic provider keys.' });
  files.push({ path: `cleanup.go`, language: 'go', content: cleanupGo(plan), purpose: 'Cleanup job.' });
  files.push({ path: `idempotency_test.go`, language: 'go', content: goTests(plan), purpose: 'go test suite for the section 11 scenarios.' });
  return files;
}
