/**
 * All code artifacts for a plan: the store schema, the code in the user's language, and the
 * monitoring config. (The runbook is added by buildDesign, rendered from its document section.)
 */
import type { Artifact } from '../design/model.js';
import type { Plan } from '../design/plan/plan.js';
import { storeArtifacts } from './ddl/index.js';
import { goArtifacts } from './go/index.js';
import { javaArtifacts } from './java/index.js';
import { prometheusRulesFile } from './monitoring/prometheus.js';
import { pythonArtifacts } from './python/index.js';
import { typescriptArtifacts } from './typescript/index.js';

/**
 * The generated files, in a stable order.
 * @example buildArtifacts(derivePlan(answers)).map((a) => a.path)
 */
export function buildArtifacts(plan: Plan): Artifact[] {
  const code = {
    typescript: typescriptArtifacts,
    python: pythonArtifacts,
    go: goArtifacts,
    java: javaArtifacts,
  }[plan.stack.language](plan);
  return [
    ...storeArtifacts(plan),
    ...code,
    { path: 'monitoring/idempotency-alerts.yml', language: 'yaml', content: prometheusRulesFile(plan), purpose: 'Prometheus alert rules for the seven idempotency metrics.' },
  ];
}
