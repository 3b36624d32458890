/**
 * Front matter: the summary of key decisions, the inputs with their provenance and assumptions,
 * and the action map (deliverable 1).
 */
import { callout, code, collapse, link, plain, rich, section, table } from '../inline.js';
import type { Block, Inline, KeyDecision, Section } from '../model.js';
import { formatCount, formatMs } from '../plan/durations.js';
import { levelSummary } from '../plan/language-level.js';
import type { Plan } from '../plan/plan.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import { analysisAnchor } from './action-analysis.js';
import { recoveryInCode, type DesignContext } from './context.js';

/**
 * The key decisions, for the document and the CLI's closing summary.
 * @example keyDecisions(plan)[0].label // 'Store'
 */
export function keyDecisions(plan: Plan): KeyDecision[] {
  // One entry per distinct value: twelve actions sharing one lease read as one line, not twelve.
  const byValue = (value: (a: Plan['actions'][number]) => number) => {
    const groups = new Map<number, string[]>();
    for (const a of plan.actions) groups.set(value(a), [...(groups.get(value(a)) ?? []), a.action.name]);
    return [...groups].map(([ms, names]) => (groups.size === 1 && names.length > 1 ? `${formatMs(ms)} for all ${names.length} actions` : `${names.join(', ')} ${formatMs(ms)}`)).join('; ');
  };
  const leases = byValue((a) => a.lease.leaseMs);
  const ttls = byValue((a) => a.retention.ttlMs);
  const kinds = new Set(plan.actions.map((a) => a.action.kind));
  const has = (...wanted: string[]) => wanted.some((kind) => kinds.has(kind as never));
  const intents = [
    has('http') ? (plan.actions.some((a) => a.action.kind === 'http' && a.action.keySource === 'derived') ? 'client UUIDv4 or SHA-256 of the intent fields for requests' : 'client UUIDv4 for requests') : '',
    has('webhook') ? 'the provider event id for webhooks' : '',
    has('consumer', 'job') ? 'the producer event id for messages' : '',
    has('cron') ? 'the schedule slot for cron runs' : '',
  ].filter(Boolean);
  const contested = [
    has('http') ? 'HTTP: immediate 409 + Retry-After' : '',
    has('webhook') ? 'webhooks: 409 so the sender resends' : '',
    has('consumer', 'job') ? 'messages: requeue with a delay' : '',
    has('cron') ? 'cron: the overlapping run skips' : '',
  ].filter(Boolean);
  const outgoing = plan.actions.filter((a) => a.action.provider && a.action.kind !== 'webhook');
  const providerNames = [...new Set(plan.actions.flatMap((a) => (a.action.provider ? [PROVIDER_FACTS[a.action.provider].name] : [])))];
  const derivations: Record<string, string> = { stripe: 'Stripe: {scope}:{key}, fitted to 255', adyen: 'Adyen: {scope}:{key} fitted to 64, plus reference {scope}:{key}_{step} fitted to 80', paypal: 'PayPal: UUIDv5 of {scope}:{key}', braintree: 'Braintree: orderId {scope}:{key}:{step}, fitted to 255, searched before a retry', 'bank-transfer': 'bank: EndToEndId from SHA-256 of {scope}:{key}' };
  const decisions: KeyDecision[] = [
    { label: 'Store', value: `${plan.stack.storeName}${plan.partitioned ? ' (partitioned: over 100K keys a day)' : ''}; primary key (idempotency_key, user_id); leases and expiry on the store clock` },
    { label: 'Key', value: `{scope}_{action}_{intent}; scope = ${plan.answers.scope}; intent = ${intents.join(', ')}` },
    { label: 'Fingerprint', value: 'SHA-256 of method, path and significant fields; mismatch → 409, nothing echoed' },
    { label: 'Lock timeout', value: `${leases} (p99 + buffer; heartbeat every third)` },
    { label: 'Key expiry', value: `${ttls}${providerNames.length > 0 ? ` (≥ ${providerNames.join(', ')} window)` : ''}` },
    { label: 'Contested key', value: contested.join('; ') },
  ];
  if (outgoing.length > 0) {
    const used = [...new Set(outgoing.map((a) => a.action.provider as string))];
    decisions.push({ label: 'Providers', value: `provider keys derived deterministically from the local key (${used.map((p) => derivations[p]).join('; ')})` });
  }
  const saga = plan.actions.find((a) => a.saga)?.saga;
  if (saga) {
    const where = saga.runner === 'runtime' ? 'one record per step in the store' : 'step table';
    decisions.push({ label: 'Sagas', value: `${where} + sub-keys ${saga.subKeyPattern}; resume from the first step not done; compensate newest first` });
  }
  decisions.push({ label: 'Code', value: `${plan.stack.languageName} / ${plan.stack.frameworkName}${plan.stack.language === 'typescript' ? ' on the idempotency-builder runtime' : ' (standalone)'}` });
  return decisions;
}

/**
 * Where each of the nine deliverables lives in the document.
 * @example deliverablesTable().kind // 'table'
 */
export function deliverablesTable(): Block {
  const deliverables: (string | Inline[])[][] = [
    ['1. Action map', [link('Action map', 'action-map')]],
    ['2. Idempotency store DDL', [link('4.2 Store schema', 'store-schema')]],
    ['3. Middleware / interceptor', [link('14. Code artifacts', 'artifacts')]],
    ['4. Fingerprint utility', [link('3. Request fingerprinting', 'fingerprinting')]],
    ['5. Cleanup job', [link('5.4 Cleanup and key expiry', 'cleanup')]],
    ['6. Test suite skeleton', [link('11. Test scenarios', 'test-scenarios')]],
    ['7. Monitoring config', [link('10. Monitoring and alerting', 'monitoring')]],
    ['8. Build order', [link('12. Build order', 'build-order')]],
    ['9. Operational runbook', [link('13. Operational runbook', 'runbook')]],
  ];
  return collapse(table(['Deliverable', 'Where'], deliverables, 'The nine deliverables'), 'Where each of the nine deliverables is');
}

/**
 * Assumptions that differ only in the action they name, as one line listing the actions:
 * `actions.a.provider: x` and `actions.b.provider: x` → `actions.{a, b}.provider: x`.
 */
function groupedAssumptions(assumptions: readonly string[]): string[] {
  const groups = new Map<string, string[]>();
  const order: string[] = [];
  for (const text of assumptions) {
    const m = /^actions\.([A-Za-z0-9]+)\.(.*)$/s.exec(text);
    const key = m ? `actions.{}.${m[2] ?? ''}` : text;
    if (!groups.has(key)) order.push(key);
    groups.set(key, [...(groups.get(key) ?? []), m?.[1] ?? '']);
  }
  return order.map((key) => {
    const names = (groups.get(key) ?? []).filter(Boolean);
    if (names.length === 0) return key;
    return key.replace('actions.{}.', names.length === 1 ? `actions.${names[0]}.` : `actions.{${names.join(', ')}}.`);
  });
}

const SOURCE_TEXT = { code: 'found in the code', user: 'answered', file: 'answers file', assumption: 'ASSUMED' } as const;

/**
 * The assumptions to confirm, each said once: an action's assumed duration comes both from the
 * answers' provenance and from the plan, and only the plan's line (which names the consequence) stays.
 * @example assumptionLines(plan).length // what the callout and the summary both count
 */
export function assumptionLines(plan: Plan): string[] {
  const durations = new Set(plan.actions.filter((a) => a.lease.durationAssumed).map((a) => a.action.name));
  const kept = plan.assumptions.filter((text) => {
    const m = /^actions\.([A-Za-z0-9]+)\.expectedDurationMs:/.exec(text);
    return !(m && durations.has(m[1] as string));
  });
  // The name and the first clause say what was assumed; what follows elaborates.
  return groupedAssumptions(kept).map((text) => (text.split('; ')[0] as string).split(': ').slice(0, 2).join(': ').replace(/ \([^()]*\)/g, ''));
}

/**
 * The answers with their provenance, the assumptions to confirm, and the stack notes.
 * @example inputsSection({ plan, artifacts })
 */
export function inputsSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const { answers } = plan;
  const provenance = (name: string): string => {
    const entry = answers.provenance[name];
    if (!entry) return 'answered';
    // An assumption's reason is in the callout below; the table only marks it.
    return entry.detail && entry.source !== 'assumption' ? `${SOURCE_TEXT[entry.source]} (${entry.detail})` : SOURCE_TEXT[entry.source];
  };
  const rows: (string | Inline[])[][] = [
    ['1. Protected actions', plain(answers.actions.map((a) => a.name).join(', ')), plain(provenance('actions'))],
    ['2. Stack', plain(`${answers.stack.language} / ${answers.stack.framework} / ${answers.stack.database} / broker ${answers.stack.broker}`), plain(provenance('stack'))],
    // The level the generated code compiles at, each setting with the build file line it came from.
    ...(plan.stack.level.read
      ? [['Language level', plain(levelSummary(plan.stack.level.read) || 'none read'), plain(plan.stack.level.read.assumptions.length > 0 ? `build files; ASSUMED: ${plan.stack.level.read.assumptions.join('; ')}` : 'found in the build files')]]
      : []),
    ['3. Retry sources', plain(answers.retrySources.join(', ')), plain(provenance('retrySources'))],
    ['4. Payments', plain(answers.paymentProviders.length > 0 ? answers.paymentProviders.join(', ') : 'none'), plain(provenance('paymentProviders'))],
    ['5. Concurrency', plain(answers.concurrency), plain(provenance('concurrency'))],
    ['6. Retention', formatMs(answers.retentionMs), plain(provenance('retentionMs'))],
    ['7. Detection latency', formatMs(answers.detectionLatencyMs), plain(provenance('detectionLatencyMs'))],
    ['Volume', `${formatCount(plan.keysPerDay)} new keys a day${plan.keysPerDayAssumed ? ' (assumed)' : ''}`, plan.keysPerDayAssumed ? 'ASSUMED' : plain(provenance('keysPerDay'))],
  ];
  // Where each action was found is in the action analysis tables; here only the answers and their sources.
  // The answers show again in the decisions up front; what a reader must act on is the assumptions, open below.
  const blocks = [collapse(table(['Question', 'Answer', 'Source'], rows, 'The method’s seven questions, each answer with its source'), 'Show every answer and where it came from')];
  const assumed = assumptionLines(plan);
  if (assumed.length > 0) blocks.push(callout('assumption', `Assumptions — confirm or correct these (${assumed.length})`, assumed.map((text) => plain(text))));
  if (plan.stack.notes.length > 0) blocks.push(callout('note', 'Stack notes', plan.stack.notes.map((text) => rich(text))));
  return section('inputs', 'Inputs and assumptions', blocks);
}

/**
 * Deliverable 1: the action map.
 * @example actionMapSection({ plan, artifacts })
 */
export function actionMapSection(ctx: DesignContext): Section {
  const rows = ctx.plan.actions.map((a) => [
    [code(a.action.name)],
    plain(a.trigger),
    // The cost is explained once, in the action analysis; the map names its class.
    [{ text: `${a.impact.severity.toUpperCase()} (${a.impact.kind}) — ` }, { link: { text: 'why', target: analysisAnchor(ctx, a) } }],
    // Key source and recovery are explained in sections 2 and 5; the map names them.
    a.action.keySource === 'client' && a.action.kind === 'http' ? 'client' : a.action.kind === 'http' ? a.action.keySource : 'derived',
    [{ text: recoveryInCode(ctx, a).transactionalTarget ? 'lease reclaim (transactional mode is the target) — ' : `${a.recovery.strategy.replace(/-/g, ' ')} — ` }, { link: { text: 'section 5', target: 'partial-failure' } }],
  ]);
  return section('action-map', 'Action map', [table(['Action', 'Trigger', 'Duplicate impact', 'Key source', 'Recovery path'], rows, 'Deliverable 1: the protected actions')]);
}
