/**
 * Where the generated middleware goes in a routing-controllers app: each action's own
 * `@UseBefore(…)`. The inspector marks such an action with the registration `@UseBefore(` … `)`
 * (ts-routing-controllers.ts); Express and Koa glue list the decorator for each.
 */
import type { ActionPlan } from '../../design/plan/plan.js';

export const USE_BEFORE = '@UseBefore(';

/**
 * Whether the action is a routing-controllers action (its middleware goes in `@UseBefore`).
 * @example isUseBeforeAction(plan.actions[0]) // true for `@Post() create(@Body() user: User)`
 */
export function isUseBeforeAction(a: ActionPlan): boolean {
  return a.action.registration?.before === USE_BEFORE;
}

/**
 * The action's decorators with its middleware in place; `auth` names the middleware that must run
 * before it (routing-controllers runs `@UseBefore` ahead of its own `@Authorized` check).
 * @example useBeforeWiring(action, 'authenticate') // '@UseBefore(authenticate, idempotent.createUser) @Post() create(…)'
 */
export function useBeforeWiring(a: ActionPlan, auth?: string): string {
  return `${USE_BEFORE}${auth ? `${auth}, ` : ''}idempotent.${a.action.name}${a.action.registration?.after ?? ')'}`;
}

/**
 * The Express glue's usage comment for routing-controllers actions: why the auth goes first and
 * why no body parser is needed, then one line per action.
 * @example expressUseBeforeComment(actions).includes('@UseBefore(authenticate, idempotent.createUser)')
 */
export function expressUseBeforeComment(actions: readonly ActionPlan[]): string {
  const lines = actions.map((a) => [
    ` *   ${a.action.name} — ${a.action.method ?? 'POST'} ${a.action.route ?? ''}${a.action.location ? ` — ${a.action.location}` : ''}`,
    ` *     ${useBeforeWiring(a, 'authenticate').replace(/\*\//g, '*\\/')}`,
  ].join('\n'));
  return `/**
 * routing-controllers: put each action's middleware in its own @UseBefore, after your middleware
 * that sets req.user (\`authenticate\` below). routing-controllers runs @UseBefore middleware ahead
 * of its body parser and of its @Authorized check, so the authorizationChecker has not set
 * req.user yet when this runs. No body parser is needed in front: the middleware reads the JSON
 * body itself and leaves it on req.body, marked parsed, for @Body().
${lines.join('\n')}
 */`;
}
