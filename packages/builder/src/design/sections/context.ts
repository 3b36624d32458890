/** What every section builder reads: the plan and the generated artifacts it embeds. */
import type { Artifact } from '../model.js';
import type { ActionPlan, Plan } from '../plan/plan.js';

export interface DesignContext {
  readonly plan: Plan;
  readonly artifacts: readonly Artifact[];
}

/** Where the installed runtime's own documentation is: the document links it instead of restating the contract. */
export const RUNTIME_DOCS = 'node_modules/@idempotency-builder/runtime/docs/';

/** Anchor id of an action's subsection within a section. */
export const actionAnchor = (prefix: string, a: ActionPlan) => `${prefix}-${a.action.name.toLowerCase()}`;

/**
 * The artifact at `path`, if generated.
 * @example artifactAt(ctx, 'cleanup.ts')?.content
 */
export function artifactAt(ctx: DesignContext, suffix: string): Artifact | undefined {
  return ctx.artifacts.find((artifact) => artifact.path.endsWith(suffix));
}

/**
 * The response codec the generated code sets, read from the artifacts themselves: the document may
 * say responses are encrypted (or hashed) only when the code it ships does so.
 * @example generatedCodec(ctx) // 'none' for the default TypeScript engine
 */
export function generatedCodec(ctx: DesignContext): 'encryption' | 'hash-only' | 'none' {
  const code = ctx.artifacts.filter((a) => a.language !== 'markdown').map((a) => a.content).join('\n');
  if (/createEncryptionCodec\s*\(/.test(code)) return 'encryption';
  if (/createHashOnlyCodec\s*\(/.test(code)) return 'hash-only';
  return 'none';
}

/**
 * True when the generated code runs actions in the runtime's transactional mode; otherwise a plan
 * that prefers it is only a target, and the document must describe lease recovery as what runs.
 * @example generatedTransactional(ctx) // false for the Express middleware
 */
export function generatedTransactional(ctx: DesignContext): boolean {
  return ctx.artifacts.some((a) => a.language !== 'markdown' && /createTransactionalIdempotency\s*\(/.test(a.content));
}

/**
 * The recovery an action has in the generated code: the plan's, except that a transactional plan
 * falls back to its lease path until the code runs in transactional mode.
 * @example recoveryInCode(ctx, a).summary
 */
export function recoveryInCode(ctx: DesignContext, a: ActionPlan): { summary: string; steps: readonly string[]; transactionalTarget: boolean } {
  if (a.recovery.strategy !== 'transactional' || generatedTransactional(ctx)) return { summary: a.recovery.summary, steps: a.recovery.steps, transactionalTarget: false };
  const fallback = a.recovery.steps.find((step) => step.includes('falls back to lease recovery:'));
  const lease = fallback ? fallback.slice(fallback.indexOf('falls back to lease recovery:') + 'falls back to lease recovery:'.length).trim() : a.recovery.steps[0] ?? '';
  return {
    summary: lease,
    steps: [`Target, not yet generated: the runtime’s \`createTransactionalIdempotency\` would put the claim, the business writes and the completion in one transaction, so a crash leaves nothing behind. ${a.recovery.steps[1] ?? ''}`],
    transactionalTarget: true,
  };
}
