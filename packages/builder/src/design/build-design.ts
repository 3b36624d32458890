/**
 * buildDesign: answers → one design model (sections 1–12 of the method plus front matter, runbook
 * and artifacts). Renderers turn it into Markdown or HTML; nothing else decides content.
 */
import type { Answers } from '../answers.js';
import { buildArtifacts } from '../emit/build-artifacts.js';
import { renderMarkdownSections } from '../render/markdown.js';
import type { Artifact, DesignModel, Section } from './model.js';
import { derivePlan } from './plan/plan.js';
import { actionAnalysisSection } from './sections/action-analysis.js';
import { antiPatternsSection } from './sections/anti-patterns.js';
import { artifactsSection } from './sections/artifacts.js';
import { concurrencySection } from './sections/concurrency.js';
import type { DesignContext } from './sections/context.js';
import { existingProtectionSection } from './sections/existing-protection.js';
import { fingerprintingSection } from './sections/fingerprinting.js';
import { actionMapSection, inputsSection, keyDecisions } from './sections/front-matter.js';
import { overviewSection } from './sections/overview.js';
import { keyDesignSection } from './sections/key-design.js';
import { buildOrderSection, monitoringSection, testScenariosSection } from './sections/operations.js';
import { partialFailureSection } from './sections/partial-failure.js';
import { providersSection } from './sections/providers.js';
import { runbookSection } from './sections/runbook.js';
import { sagaSection } from './sections/saga.js';
import { securitySection } from './sections/security.js';

export interface BuildDesignOptions {
  /** Shown in the footer; pass a fixed date for reproducible documents. */
  readonly generatedAt: Date;
}

export const RUNBOOK_PATH = 'runbook.md';

/**
 * Builds the design model from validated answers.
 * @example
 * const model = buildDesign(answersSchema.parse(input), { generatedAt: new Date() });
 * model.sections.map((s) => s.title);
 */
export function buildDesign(answers: Answers, { generatedAt }: BuildDesignOptions): DesignModel {
  const plan = derivePlan(answers);
  const code = buildArtifacts(plan);
  const runbook = runbookSection({ plan, artifacts: code });
  const runbookArtifact: Artifact = {
    path: RUNBOOK_PATH,
    language: 'markdown',
    content: renderMarkdownSections(`Idempotency runbook — ${plan.projectName}`, [runbook]),
    purpose: 'Operational runbook (section 13) for the on-call engineer.',
  };
  const artifacts = [...code, runbookArtifact];
  const ctx: DesignContext = { plan, artifacts };
  const sections: Section[] = [
    overviewSection(ctx),
    inputsSection(ctx),
    actionMapSection(ctx),
    ...[existingProtectionSection(ctx)].filter((s): s is Section => s !== undefined),
    actionAnalysisSection(ctx),
    keyDesignSection(ctx),
    fingerprintingSection(ctx),
    concurrencySection(ctx),
    partialFailureSection(ctx),
    providersSection(ctx),
    sagaSection(ctx),
    securitySection(ctx),
    antiPatternsSection(ctx),
    monitoringSection(ctx),
    testScenariosSection(ctx),
    buildOrderSection(ctx),
    runbook,
    artifactsSection(ctx),
  ];
  return {
    title: `Idempotency design — ${plan.projectName}`,
    subtitle: answers.agnostic
      ? 'Technology-agnostic design on the PostgreSQL reference schema: the code needs adapting to your stack.'
      : `${plan.stack.languageName} · ${plan.stack.frameworkName} · ${plan.stack.storeName}${plan.answers.stack.broker !== 'none' ? ` · ${plan.answers.stack.broker}` : ''}`,
    generatedAt: generatedAt.toISOString(),
    meta: {
      version: 1,
      actions: plan.actions.map((a) => a.action.name),
      database: plan.stack.storeFlavor,
      language: plan.stack.language,
      agnostic: answers.agnostic,
    },
    decisions: keyDecisions(plan),
    sections,
    artifacts,
  };
}
