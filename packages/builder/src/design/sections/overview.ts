/**
 * The first screen: what in this service can run twice, the highest risks with file:line, the
 * decisions taken and what to do this week — every item derived from the plan and the artifacts.
 */
import { koaWiring } from '../../emit/typescript/koa-file.js';
import { isPagesRoute } from '../../emit/typescript/next-pages-file.js';
import { intentRule } from '../../emit/typescript/protect-file.js';
import { code, codeBlock, labelled, link, numbered, para, section, table, txt } from '../inline.js';
import type { Block, Inline, Section } from '../model.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import { formatMs } from '../plan/durations.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { DesignContext } from './context.js';
import { assumptionLines, keyDecisions } from './front-matter.js';

const RANK = { critical: 0, high: 1, medium: 2 } as const;

/**
 * The 3–5 actions whose duplicate costs most: severity first, then a provider call, then found in code.
 * @example topRisks(plan)[0]?.action.name // 'createPayment'
 */
export function topRisks(plan: Plan, limit = 5): ActionPlan[] {
  return [...plan.actions]
    .sort((a, b) => RANK[a.impact.severity] - RANK[b.impact.severity] || Number(Boolean(b.action.provider)) - Number(Boolean(a.action.provider)) || Number(Boolean(b.action.location)) - Number(Boolean(a.action.location)))
    .slice(0, limit);
}

/** The cost in its first clause (`Money moves twice`); the analysis in section 1 says the rest. */
const firstClause = (text: string) => (/^(.+?)(?::\s|\s—\s|[.!?](?:\s|$))/.exec(text)?.[1] ?? text).replace(/`/g, '');

/**
 * On the first screen a per-action list of twelve leases would push the week's steps off it: past
 * three distinct values it shows the range and points to the section that lists them all.
 */
function compactValue(plan: Plan, label: string, value: string): string {
  const per: Record<string, [string, (a: ActionPlan) => number]> = {
    'Lock timeout': ['4.3', (a) => a.lease.leaseMs],
    'Key expiry': ['5.4', (a) => a.retention.ttlMs],
  };
  const entry = per[label];
  if (!entry || value.split('; ').length <= 3) return value;
  const values = plan.actions.map(entry[1]);
  return `${formatMs(Math.min(...values))} to ${formatMs(Math.max(...values))} by action, listed in ${entry[0]}`;
}

/** The command that creates the store, as the generated files name it. */
function createStoreStep(ctx: DesignContext): Inline[] {
  const { plan } = ctx;
  const ddl = ctx.artifacts.find((a) => a.path === `db/${plan.table}.sql`);
  const commands: Record<string, string> = {
    postgresql: `psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -f ${ddl?.path ?? ''}`,
    mysql: `mysql --database="$DB_NAME" < ${ddl?.path ?? ''}`,
    sqlite: `sqlite3 "$SQLITE_FILE" < ${ddl?.path ?? ''}`,
  };
  if (ddl && commands[plan.stack.store]) return labelled('Create the store', txt`${code(commands[plan.stack.store] as string)} in the code directory (additive).`);
  if (plan.stack.store === 'redis') return labelled('Create the store', txt`nothing to create: the runtime’s Redis store loads its scripts on first use. Point ${code('REDIS_URL')} at the instance that will hold the records.`);
  const layout = ctx.artifacts.find((a) => a.path.startsWith('db/'));
  return labelled('Create the store', txt`apply ${code(layout?.path ?? 'the layout in section 4.2')} to ${plan.stack.storeName}.`);
}

function providerPatch(a: ActionPlan): Block | undefined {
  const example = a.providerKeys[0];
  if (!example || a.action.provider !== 'stripe') return undefined;
  return codeBlock(
    'typescript',
    `// ${a.action.location ?? a.action.name}: every Stripe write call carries the key derived from the local one\n- await stripe.paymentIntents.create(params);\n+ await stripe.paymentIntents.create(params, { idempotencyKey: key }); // e.g. ${example.value}`,
    `Patch for ${a.action.name} — ${PROVIDER_FACTS.stripe.mechanism.replace(/`/g, '')}`,
  );
}

/**
 * The one-screen summary that opens the document.
 * @example overviewSection({ plan, artifacts }).id // 'summary'
 */
export function overviewSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  // Three risks for a large service, so the week's steps still fit the first screen beside the decisions.
  const risks = topRisks(plan, plan.actions.length > 6 ? 3 : 5);
  const kinds = [...new Set(plan.actions.map((a) => a.action.kind))];
  const first = plan.highestRisk;
  const middleware = ctx.artifacts.find((a) => /(express|fastify|hono|koa|nestjs|fetch)\.ts$|protect\.ts$|middleware\.go$|_integration\.py$|IdempotentExecutor\.java$/.test(a.path));
  // A pages-router handler is wrapped, not mounted: next-pages.ts (Node's req, res).
  const pagesGlue = isPagesRoute(first) ? ctx.artifacts.find((a) => a.path === 'next-pages.ts') : undefined;
  const hooks = ctx.artifacts.find((a) => a.path === 'webhooks.ts');
  const test = ctx.artifacts.find((a) => /test|Test/.test(a.path) && a.language !== 'markdown');
  const week: Inline[][] = [
    createStoreStep(ctx),
    // A GraphQL mutation shares its route with every operation: its resolver is wrapped, never the route.
    first.action.operation
      ? labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): wrap the resolver of ${first.trigger} ${plan.stack.language === 'typescript' ? txt`with \`idempotentMutation\` from ${code('graphql.ts')}` : txt`in the engine's \`run\` (section 14)`}, have clients send its \`idempotencyKey\` argument, and watch ${code('duplicates_blocked')} for a day.`)
      // A server action has no route to mount on: it is wrapped, and its form carries the key.
      : first.action.serverAction && plan.stack.language === 'typescript'
        ? labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): export it wrapped with \`idempotentServerAction\` from ${code('server-actions.ts')}, add the hidden ${code('idempotencyKey')} field (one \`crypto.randomUUID()\` per form render) to the form that calls it, and watch ${code('duplicates_blocked')} for a day.`)
      : pagesGlue
        ? labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): wrap its default export with \`withIdempotency\` from ${code(pagesGlue.path)} (${first.trigger}), watch ${code('duplicates_blocked')} for a day.`)
        // A webhook is mounted from webhooks.ts (verified, deduplicated on the event id), not with the route middleware.
        : first.action.kind === 'webhook' && hooks
          ? labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): mount ${code(`mountWebhook(${first.action.name}(…))`)} from ${code(hooks.path)} on ${first.trigger} — it verifies the signature and runs each event once — and watch ${code('duplicates_blocked')} for a day.`)
        // Koa takes middleware per route: the step shows the route's own registration with it in place.
        : middleware?.path === 'koa.ts' && first.action.kind === 'http' && intentRule(first) === 'header'
          ? labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): add ${code(`idempotent.${first.action.name}`)} from ${code('koa.ts')} to its registration, right before the handler — ${code(koaWiring(first))} — with the key optional (observe mode), watch ${code('duplicates_blocked')} for a day, then require it.`)
          : labelled(`Protect ${first.action.name} first`, txt`(${first.action.location ? code(first.action.location) : first.trigger}): mount ${code(middleware?.path ?? 'the generated middleware')} on ${first.trigger} with the key optional (observe mode), watch ${code('duplicates_blocked')} for a day, then require it.`),
    labelled('Run the generated tests', txt`${code(test?.path ?? 'the test file')} with ${plan.stack.testFramework}: replay, mismatch, concurrency and crash takeover, against an in-memory store.`),
  ];
  const assumed = assumptionLines(plan).length;
  if (assumed > 0) week.push(labelled('Confirm the assumptions', txt`${assumed} ${assumed === 1 ? 'answer was' : 'answers were'} assumed (${link('list', 'inputs')}); a wrong p99 duration changes the lock timeout.`));
  const patches = risks.map(providerPatch).filter((b): b is Block => b !== undefined).slice(0, 1);
  const blocks: Block[] = [
    para(txt`${plan.actions.length} ${plan.actions.length === 1 ? 'action' : 'actions'} in ${plan.projectName} can run twice (${kinds.join(', ')}; ${link('action map', 'action-map')}). The ${risks.length === plan.actions.length ? '' : `${risks.length} `}highest risks:`),
    table(['Action', 'Where', 'Duplicate cost'], risks.map((a) => [[code(a.action.name)], a.action.location ? [code(a.action.location)] : a.trigger, `${a.impact.severity.toUpperCase()}: ${firstClause(a.impact.text)}`])),
    para(txt`${{ strong: 'This week' }} (the first steps of the ${link('build order', 'build-order')}):`),
    numbered(week),
    table(['Decision', 'Choice'], keyDecisions(plan).map((d) => [d.label, compactValue(plan, d.label, d.value)]), 'Decisions taken'),
    ...patches,
  ];
  return section('summary', 'At a glance', blocks);
}
