/**
 * Generated TypeScript for Next.js server actions: Next posts an action to whatever page renders
 * it, with no Idempotency-Key header and an id of its own making, so no route middleware can
 * guard it. Each action is wrapped with the runtime's `makeIdempotent` (`/functions`) instead,
 * keyed by a value the page generates once per form render and the form resends on a retry.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';

/**
 * True for an action that is a Next.js server action rather than a route of its own.
 * @example isServerAction(plan.actions[0]) // false for POST /payments
 */
export const isServerAction = (a: ActionPlan): boolean => a.action.serverAction !== undefined;

/** The form field (or object property) the key travels in; the document names the same one. */
export const SERVER_ACTION_KEY_FIELD = 'idempotencyKey';

/**
 * `server-actions.ts`, or undefined when no protected action is a server action.
 * @example serverActionsFile(plan)?.includes('export function idempotentServerAction')
 */
export function serverActionsFile(plan: Plan): string | undefined {
  const actions = plan.actions.filter(isServerAction);
  if (actions.length === 0) return undefined;
  const union = actions.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const first = actions[0] as ActionPlan;
  const fn = first.action.serverAction ?? first.action.name;
  // The principal call as the action writes it: what its \`principal\` selector should read.
  const listed = actions.map((a) => `//   ${a.action.name}: server action ${a.action.serverAction ?? ''}${a.action.location ? ` (${a.action.location})` : ''}${a.action.principalCall ? `, reads the user with ${a.action.principalCall}` : ', no user read seen'}`).join('\n');
  return `// Next.js server actions: Next posts each one to the page that renders it, with no
// Idempotency-Key header, so no route middleware can guard it: each action is wrapped instead.
// Actions protected here:
${listed}
//
// The key: the page generates one per form render and puts it in the form as a hidden field
// \`${SERVER_ACTION_KEY_FIELD}\` (or passes it as a property of an object argument); a retry of that
// form resends the same value, the next intent gets a new render and a new key:
//   <input type="hidden" name="${SERVER_ACTION_KEY_FIELD}" value={crypto.randomUUID()} />   (server component)
//   const [key] = useState(() => crypto.randomUUID());                     (client component)
// The scope is the signed-in user from your auth call, never a form field. The record is the
// runtime's makeIdempotent record: key \`<action>:<idempotencyKey>\`, fingerprint the RFC 8785
// canonical JSON of the action's significant fields (SIGNIFICANT in fingerprints.ts) with the
// plain arguments (bound ids) beside them, or of all arguments but the key when no field is
// found; lock timeout and expiry from POLICIES.
import { InvalidScopeError, type Idempotency } from '@idempotency-builder/runtime';
import { makeIdempotent } from '@idempotency-builder/runtime/functions';
import { SIGNIFICANT } from './fingerprints.js';
import { idempotency, POLICIES } from './idempotency.js';

export type ServerAction = ${union};

export const KEY_FIELD = ${JSON.stringify(SERVER_ACTION_KEY_FIELD)};

export interface ServerActionSelectors<Args extends unknown[]> {
  /** The signed-in user's id: \`(await auth())?.user?.id\`, \`(await supabase.auth.getUser()).data.user?.id\`. */
  readonly principal: (...args: Args) => Promise<string | undefined> | string | undefined;
  /** The intent key. Default: the \`${SERVER_ACTION_KEY_FIELD}\` form field or object property of any argument. */
  readonly key?: (...args: Args) => string | undefined;
  /** The significant payload. Default: the action's significant fields read from the form or object arguments. */
  readonly payload?: (...args: Args) => unknown;
  /**
   * Observe mode while the forms are being changed: \`false\` runs a call without a key unguarded.
   * Default \`true\`: a call without a key is refused (\`invalid_key\`) and does not run.
   */
  readonly required?: boolean;
}

/** A form value as JSON can hash it: a File by its name, size and type (its bytes are not read). */
function plainValue(value: unknown): unknown {
  if (typeof File !== 'undefined' && value instanceof File) return { name: value.name, size: value.size, type: value.type };
  return value;
}

/** A form field or object property, from whichever argument carries it. */
export function fieldOf(args: readonly unknown[], name: string): unknown {
  for (const arg of args) {
    if (arg instanceof FormData) {
      const values = arg.getAll(name).map(plainValue);
      if (values.length > 0) return values.length === 1 ? values[0] : values;
    } else if (arg !== null && typeof arg === 'object' && name in arg) {
      return (arg as Record<string, unknown>)[name];
    }
  }
  return undefined;
}

/** Every argument as JSON can hash it, the key left out (it is the record's key, not its payload). */
function allArguments(args: readonly unknown[]): unknown[] {
  return args.map((arg) => {
    if (arg instanceof FormData) return [...arg.keys()].filter((k) => k !== KEY_FIELD && !k.startsWith('$ACTION')).sort().map((k) => [k, arg.getAll(k).map(plainValue)]);
    if (arg !== null && typeof arg === 'object' && KEY_FIELD in arg) return { ...(arg as Record<string, unknown>), [KEY_FIELD]: undefined };
    return arg;
  });
}

function defaultPayload(action: ServerAction, args: readonly unknown[]): unknown {
  const fields = SIGNIFICANT[action].fields;
  const picked = Object.fromEntries(fields.map((f) => [f, fieldOf(args, f)]));
  // Positional arguments (\`checkout(price, path)\`) are not named in the call: hash them all.
  if (fields.length === 0 || Object.values(picked).every((v) => v === undefined)) return allArguments(args);
  // Plain arguments are ids bound to the form (\`updateInvoice.bind(null, id)\`): part of the intent.
  const plain = args.filter((arg) => arg === null || typeof arg !== 'object');
  return plain.length > 0 ? { ...picked, $arguments: plain } : picked;
}

/** \`redirect()\` and \`notFound()\` throw to answer: that answer is the action's result, not a failure. */
interface NextControlFlow {
  readonly nextControlFlow: string;
}
function isControlFlow(error: unknown): error is Error & { digest: string } {
  const digest = error instanceof Error ? (error as Error & { digest?: unknown }).digest : undefined;
  return typeof digest === 'string' && /^NEXT_(REDIRECT|HTTP_ERROR_FALLBACK|NOT_FOUND)\\b/.test(digest);
}

/**
 * The server action, run at most once per (user, key) while its record lives: a retry of the same
 * form gets the stored result (a \`redirect()\` it answered with is thrown again), the same key with
 * other fields a \`fingerprint_mismatch\` error, a retry while the first still runs an \`in_progress\`
 * error. A missing key is refused (\`invalid_key\`) unless \`required: false\`, a missing user always
 * (\`invalid_scope\`).
 *
 *   // app/actions.ts ('use server')
 *   export const ${fn} = idempotentServerAction('${first.action.name}', ${fn}Unprotected, {
 *     principal: async () => (await auth())?.user?.id,
 *   });
 */
export function idempotentServerAction<Args extends unknown[], R>(
  action: ServerAction,
  serverAction: (...args: Args) => Promise<R>,
  select: ServerActionSelectors<Args>,
  engine: Idempotency = idempotency,
): (...args: Args) => Promise<R> {
  // The principal is read before the claim (it is async); the wrapped function gets it as its scope.
  const guarded = makeIdempotent(
    async (_scope: string, args: Args): Promise<R | NextControlFlow> => {
      try {
        return await serverAction(...args);
      } catch (error) {
        // Stored like a result: the replay throws the same redirect, never runs the action again.
        if (isControlFlow(error)) return { nextControlFlow: error.digest };
        throw error;
      }
    },
    {
      idempotency: engine,
      name: action,
      scope: (scope) => scope,
      key: (_scope, args) => (select.key ? select.key(...args) : (fieldOf(args, KEY_FIELD) as string | undefined)),
      fingerprint: (_scope, args) => (select.payload ? select.payload(...args) : defaultPayload(action, args)),
      ...POLICIES[action],
    },
  );
  return async (...args: Args): Promise<R> => {
    const intent = select.key ? select.key(...args) : fieldOf(args, KEY_FIELD);
    if ((intent === undefined || intent === null || intent === '') && select.required === false) return serverAction(...args);
    const scope = await select.principal(...args);
    // No user, no scope: refusing is safer than one namespace shared by every anonymous caller.
    if (!scope) throw new InvalidScopeError(\`\${action}: no signed-in user\`);
    const outcome = await guarded(scope, args);
    if (outcome !== null && typeof outcome === 'object' && 'nextControlFlow' in outcome) {
      throw Object.assign(new Error(outcome.nextControlFlow.split(';')[0]), { digest: outcome.nextControlFlow });
    }
    return outcome as R;
  };
}
`;
}
