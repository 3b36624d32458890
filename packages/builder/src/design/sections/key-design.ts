/** Section 2: idempotency key design (a)–(e), with filled-in examples from the user's domain. */
import { bullets, code, codeBlock, labelled, para, rich, section, strong, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import { formatCount } from '../plan/durations.js';
import { birthdayLog10, bitsNeeded, formatProbability } from '../plan/key-format.js';
import type { DesignContext } from './context.js';
import { groupBy, groupLabel, withoutName } from './grouping.js';

const SCOPE_REASON = {
  user: 'Keys are scoped to the authenticated user: the user id is the second half of the primary key, so two users can never meet in one record, a guessed key from another user is simply a new request in the guesser’s namespace, and no lookup can reveal another user’s response.',
  account: 'Keys are scoped to the account: several users of one account (a team, a merchant) share the namespace, which is what the account-level operations need — a colleague retrying the same refund must be deduplicated against the first attempt.',
  tenant: 'Keys are scoped to the tenant: every request inside one tenant shares the namespace, matching how the tenant’s systems retry on each other’s behalf; tenants never meet.',
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
    para(txt`Format: \`{scope}_{action}_{intent}\`. The scope is stored once, in the \`user_id\` column that forms the composite primary key, and the server takes it from the authenticated session — never from the client’s string; the table column \`idempotency_key\` holds \`{action}_{intent}\`. Provider keys (section 6) are derived from the full three-part string, because provider key spaces are account-wide.`),
    table(['Action', 'Full key (example)'], examples, 'Filled-in examples'),
    ...(first ? [para(txt`Stored as: \`user_id\` = ${code(first.key.scopeExample)}, \`idempotency_key\` = ${code(first.key.storedKey)}.`)] : []),
    para(txt`No key contains a time component. A retry that crosses a clock boundary (14:59 → 15:01) would otherwise get a new key and run again; expiry lives in \`expires_at\`. The one deliberate exception is a cron run, whose key names its schedule slot — a value fixed by the schedule, identical for every retry of that run.`),
  ]);
  const scopeSection = section('key-scope', '(b) Scope boundary', [
    para(txt`Scope: ${strong(scope)}. ${SCOPE_REASON[scope]}`),
    bullets(
      plan.actions
        .filter((a) => a.key.scope !== scope)
        .map((a) => labelled(a.action.name, txt`scoped to ${a.key.scope === 'provider-account' ? 'the provider account that signed the webhook' : 'the system (`global`): a scheduled job belongs to no user, and the scheduler is the only writer'}.`)),
    ),
  ]);
  const validation = section('key-validation', '(c) Validation', [
    bullets([
      labelled('Length', txt`1–255 characters for \`idempotency_key\` (Stripe’s limit too), 1–128 for \`user_id\`.`),
      labelled('Charset', txt`\`[A-Za-z0-9_.:~-]\` only; anything else answers 400 before the store is touched. That is all the runtime’s \`validateKey\` checks: it accepts \`k1\`. Clients should send a UUIDv4 or ULID (122 and 80 random bits); the server does not verify the randomness.`),
      labelled('Uniqueness', txt`enforced by the database, not by application checks: the composite primary key below makes a second row for one (key, user) impossible.`),
    ]),
    codeBlock(
      'sql',
      plan.stack.store === 'postgresql'
        ? "CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id),\nCONSTRAINT chk_key_charset CHECK (idempotency_key ~ '^[A-Za-z0-9_.:~-]{1,255}$')"
        : 'CONSTRAINT pk_idempotency PRIMARY KEY (idempotency_key, user_id)',
      'Uniqueness (and, on PostgreSQL, the charset) enforced in the DDL',
    ),
  ]);
  const generators = section('key-generator', '(d) Who generates it', [
    bullets(groupBy(plan.actions, (a) => withoutName(a, `${a.key.generator}|${a.key.intentSource}`), (a) => a).map(({ actions, value: a }) => labelled(groupLabel(actions), txt`${rich(withoutName(a, a.key.generator).split('{action}').join('the action'))} Intent: ${rich(withoutName(a, a.key.intentSource).split('{action}').join('the action'))}.`))),
  ]);
  const n = plan.liveKeys;
  // Actions whose keys have the same random part share one row.
  const rows = groupBy(plan.actions, (a) => `${a.key.uniqueness.components}|${a.key.uniqueness.randomBits}|${a.key.uniqueness.verdict}`, (a) => a).map(({ actions, value: a }) => {
    const bits = a.key.uniqueness.randomBits;
    return [
      groupLabel(actions),
      a.key.uniqueness.components,
      bits === null ? 'by construction' : `${formatProbability(birthdayLog10(n, bits))} with ${formatCount(n)} live keys in one scope`,
      a.key.uniqueness.verdict,
    ];
  });
  const needed = bitsNeeded(n);
  const uniqueness = section('key-uniqueness', '(e) Uniqueness assessment', [
    para(txt`Live keys: up to ${formatCount(plan.keysPerDay)} a day kept for the longest retention gives about ${formatCount(n)} keys alive at once — the worst case, as if all belonged to one scope. The birthday bound p ≈ n²/2^(b+1) estimates the chance that two of them collide.`),
    table(['Actions', 'Variable components', 'Collision estimate', 'Assessment'], rows),
    para(txt`For a custom intent format, count its random bits b and check n²/2^(b+1): at ${formatCount(n)} live keys an intent needs at least ${needed} random bits to keep the collision chance under one in a billion. An 8-character alphanumeric id (about 47.6 bits) gives ${formatProbability(birthdayLog10(n, 47.6))} — not acceptable for payments; UUIDv4 (122 bits) gives ${formatProbability(birthdayLog10(n, 122))}.`),
  ]);
  return section(
    'key-design',
    '2. Idempotency key design',
    [para(txt`The key names one intent and must be identical on every retry of it. Defined below with values from this service.`)],
    [formatSection, scopeSection, validation, generators, uniqueness],
  );
}
