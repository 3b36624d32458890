/** What every section builder reads: the plan and the generated artifacts it embeds. */
import type { Artifact } from '../model.js';
import type { ActionPlan, Plan } from '../plan/plan.js';

export interface DesignContext {
  readonly plan: Plan;
  readonly artifacts: readonly Artifact[];
}

/** Anchor id of an action's subsection within a section. */
export const actionAnchor = (prefix: string, a: ActionPlan) => `${prefix}-${a.action.name.toLowerCase()}`;

/**
 * The artifact at `path`, if generated.
 * @example artifactAt(ctx, 'cleanup.ts')?.content
 */
export function artifactAt(ctx: DesignContext, suffix: string): Artifact | undefined {
  return ctx.artifacts.find((artifact) => artifact.path.endsWith(suffix));
}
