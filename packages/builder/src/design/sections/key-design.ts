/** Section 2: idempotency key design (a)–(e), with filled-in examples from the user's domain. */
import { bullets, code, codeBlock, labelled, para, rich, section, strong, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import { formatCount } from '../plan/durations.js';
import { birthdayLog10, bitsNeeded, formatProbability } from '../plan/key-format.js';
import { koaScope } from '../../emit/typescript/koa-file.js';
import type { DesignContext } from './context.js';
import { groupBy, groupLabel, withoutName } from './grouping.js';

const SCOPE_REASON = {
  user: 'The user id is the second half of the primary key: two users never meet in one record, and another user’s key is a new request in the caller’s own namespace.',
  account: 'Users of one account (a team, a merchant) share the namespace: a colleague retrying the same refund is deduplicated against the first attempt.',
  tenant: 'Every request inside one tenant shares the namespace, as the tenant’s systems retry on each other’s behalf; tenants never meet.',
  global: 'Keys share one global namespace (chosen explicitly). Every record also stores its creator; a key created by someone else answers 404, never that user’s response.',
} as const;

/**
 * Section 2: key format, scope, validation, generator and uniqueness, (a)–(e).
 * @example keyDesignSection({ plan, artifacts }).children.length // 5
 */
export function keyDesignSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const scope = plan.answers.scope;
  // The idempotency_key column is the full key minus its scope prefix; one example shows the split.
  const examples = plan.actions.map((a) => [[code(a.action.name)], [code(a.key.fullKey)]]);
  const first = plan.actions[0];
  const formatSection = section('key-format', '(a) Key format', [
    para(txt`Format: \`{scope}_{action}_{intent}\`. The server takes the scope from the authenticated session, never from the client, and stores it in \`user_id\`; \`idempotency_key\` holds \`{action}_{intent}\`. Provider keys (section 6) derive from the full string.`),
    table(['Action', 'Full key (example)'], examples, 'Filled-in examples'),
    ...(first ? [para(txt`Stored as: \`user_id\` = ${code(first.key.scopeExample)}, \`idempotency_key\` = ${code(first.key.storedKey)}.`)] : []),
    para(txt`No key contains a clock reading; a cron key names its schedule slot, the same for every retry of that run.`),
  ]);
  // Koa: where koa.ts reads the principal, as the code reads it or as assumed.
  const koa = ctx.artifacts.some((a) => a.path === 'koa.ts') ? koaScope(plan) : undefined;
  const scopeSection = section('key-scope', '(b) Scope boundary', [
    para(txt`Scope: ${strong(scope)}. ${SCOPE_REASON[scope]}`),
    ...(koa ? [para(txt`In ${code('koa.ts')}, keys are scoped by ${code(koa.expression)}${koa.assumed ? ' — ASSUMED: no handler reads a principal on ctx.state; koa-jwt and koa-passport put the authenticated user there' : `, as the handlers read it (${koa.source ?? 'answered'})`}.`)] : []),
    bullets(
      plan.actions
        .filter((a) => a.key.scope !== scope)
        .map((a) => labelled(a.action.name, txt`scoped to ${a.key.scope === 'provider-account' ? 'the provider account that signed the webhook' : 'the system (`global`): a scheduled job belongs to no user, and the scheduler is the only writer'}.`)),
    ),
  ]);
  const validation = section('key-validation', '(c) Validation', [
    bullets([
      labelled('Length and charset', txt`1–255 characters of \`[A-Za-z0-9_.:~-]\` (1–128 for \`user_id\`); anything else answers 400 before the store is touched. That is all the runtime’s \`validateKey\` checks: it accepts \`k1\`, so randomness (UUIDv4 or ULID) is the client’s duty.`),
      labelled('Uniqueness', txt`the composite primary key makes a second row for one (key, user) impossible.`),
    ]),
    codeBlock(
      'sql',
      plan.stack.store === 'postgresql'
        ? "CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id),\nCONSTRAINT chk_key_charset CHECK (idempotency_key ~ '^[A-Za-z0-9_.:~-]{1,255}$')"
        : 'CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id)',
      plan.stack.store === 'postgresql' ? 'The key’s uniqueness and charset, in the DDL' : 'The key’s uniqueness, in the DDL',
    ),
  ]);
  const generators = section('key-generator', '(d) Who generates it', [
    bullets(groupBy(plan.actions, (a) => withoutName(a, `${a.key.generator}|${a.key.intentSource}`), (a) => a).map(({ actions, value: a }) => labelled(groupLabel(actions), txt`${rich(withoutName(a, a.key.generator).split('{action}').join('the action'))}`))),
  ]);
  const n = plan.liveKeys;
  // Actions whose keys have the same random part share one row.
  const rows = groupBy(plan.actions, (a) => `${a.key.uniqueness.components}|${a.key.uniqueness.randomBits}|${a.key.uniqueness.verdict}`, (a) => a).map(({ actions, value: a }) => {
    const bits = a.key.uniqueness.randomBits;
    return [
      groupLabel(actions),
      a.key.uniqueness.components,
      bits === null ? 'by construction' : formatProbability(birthdayLog10(n, bits)),
      // The UUID verdict's remark on validation is said once, in (c).
      a.key.uniqueness.verdict.replace(/ The runtime validates only the charset[\s\S]*$/, ''),
    ];
  });
  const needed = bitsNeeded(n);
  // The custom-format advice matters only where some intent is not a standard random id or built by construction.
  const custom = plan.actions.some((a) => a.key.uniqueness.randomBits !== null && a.key.uniqueness.randomBits < 122);
  const uniqueness = section('key-uniqueness', '(e) Uniqueness assessment', [
    para(txt`Birthday bound p ≈ n²/2^(b+1), n = ${formatCount(n)} live keys (${formatCount(plan.keysPerDay)} a day × the longest retention) in one scope:`),
    table(['Actions', 'Variable components', 'Collision estimate', 'Assessment'], rows),
    para(custom
      ? txt`A custom intent format needs at least ${needed} random bits here to stay under one collision in a billion; an 8-character alphanumeric id (47.6 bits) gives ${formatProbability(birthdayLog10(n, 47.6))}, too much for payments.`
      : txt`A custom intent format would need at least ${needed} random bits here (one collision in a billion).`),
  ]);
  return section(
    'key-design',
    '2. Idempotency key design',
    [],
    [formatSection, scopeSection, validation, generators, uniqueness],
  );
}
