/**
 * Generated TypeScript for GraphQL mutations: every operation shares one HTTP endpoint
 * (`POST /graphql`), so route middleware keyed on it would guard queries and mutations alike and
 * fingerprint the query text. Each mutation's resolver is wrapped instead, on the engine's `run`
 * (the primitive under `/functions`' makeIdempotent), so the record has the design's key format
 * and fingerprint; the key is the mutation's own `idempotencyKey` argument.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';

/**
 * True for an action that is a GraphQL operation rather than a route of its own.
 * @example isGraphqlMutation(plan.actions[0]) // false for POST /payments
 */
export const isGraphqlMutation = (a: ActionPlan): boolean => a.action.operation !== undefined;

/**
 * `graphql.ts`, or undefined when no protected action is a GraphQL mutation.
 * @example graphqlFile(plan)?.includes('export function idempotentMutation')
 */
export function graphqlFile(plan: Plan): string | undefined {
  const mutations = plan.actions.filter(isGraphqlMutation);
  if (mutations.length === 0) return undefined;
  const union = mutations.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const first = mutations[0] as ActionPlan;
  const listed = mutations.map((a) => `//   ${a.action.name}: ${a.action.operation ?? ''} on ${a.action.method ?? 'POST'} ${a.action.route ?? '/graphql'}${a.action.location ? ` (${a.action.location})` : ''}`).join('\n');
  return `// GraphQL mutations share one HTTP endpoint with every query, so no route middleware can tell
// them apart: each mutation's resolver is wrapped instead. Mutations protected here:
${listed}
//
// The key is the mutation's own \`idempotencyKey\` argument (add it to the mutation's arguments or
// its input type): one HTTP request may batch several mutations, so one header cannot name each
// intent. The scope is the authenticated user from the resolver context, never an argument. The
// record is the design's: key \`{action}_{intent}\` in the user's scope, fingerprint over the
// action's significant fields (fingerprints.ts), lock timeout and expiry from POLICIES.
import { InvalidKeyError, InvalidScopeError, type Idempotency } from '@idempotency-builder/runtime';
import { fingerprint } from './fingerprints.js';
import { idempotency, POLICIES } from './idempotency.js';

export type MutationAction = ${union};

export interface MutationSelectors<Args extends unknown[]> {
  /** The intent key: the mutation's \`idempotencyKey\` argument. */
  readonly key: (...args: Args) => string | undefined;
  /** The authenticated user (or account/tenant) id from the context. */
  readonly scope: (...args: Args) => string | undefined;
  /** The mutation's arguments or input object; its significant fields are hashed. */
  readonly payload: (...args: Args) => unknown;
}

/**
 * The resolver, run at most once per (scope, key) while its record lives: a retry gets the stored
 * result, the same key with other significant arguments a \`fingerprint_mismatch\` error, a retry
 * while the first still runs an \`in_progress\` error. GraphQL reports them in \`errors\`.
 *
 * Apollo / graphql-tools resolver map (parent, args, context, info):
 *   ${first.action.name}: idempotentMutation('${first.action.name}', resolve${capitalize(first.action.name)}, {
 *     key: (_parent, args) => args.idempotencyKey,
 *     scope: (_parent, _args, context) => context.user?.id,
 *     payload: (_parent, args) => args.input ?? args,
 *   }),
 * NestJS / type-graphql resolver method: wrap the call the method makes the same way, with the
 * selectors reading that call's own arguments.
 */
export function idempotentMutation<Args extends unknown[], R>(
  action: MutationAction,
  resolver: (...args: Args) => Promise<R>,
  select: MutationSelectors<Args>,
  engine: Idempotency = idempotency,
): (...args: Args) => Promise<R> {
  return async (...args: Args): Promise<R> => {
    const intent = select.key(...args);
    const scope = select.scope(...args);
    // No key, no protection to give: refused rather than run unguarded (make it optional while observing).
    if (!intent) throw new InvalidKeyError(\`\${action}: the mutation needs an idempotencyKey argument\`);
    // No user, no scope: refusing is safer than one namespace shared by every anonymous caller.
    if (!scope) throw new InvalidScopeError(\`\${action}: no authenticated user in the resolver context\`);
    const { value } = await engine.run<R>(
      { key: \`\${action}_\${intent}\`, scope, fingerprint: fingerprint(action, select.payload(...args)) },
      () => resolver(...args),
      POLICIES[action],
    );
    return value;
  };
}
`;
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
