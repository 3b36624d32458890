/**
 * Front matter: the summary of key decisions, the inputs with their provenance and assumptions,
 * and the action map (deliverable 1).
 */
import { bullets, callout, code, link, para, plain, rich, section, table, txt } from '../inline.js';
import type { Inline, KeyDecision, Section } from '../model.js';
import { formatCount, formatMs } from '../plan/durations.js';
import type { Plan } from '../plan/plan.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { DesignContext } from './context.js';

/**
 * The key decisions, for the document and the CLI's closing summary.
 * @example keyDecisions(plan)[0].label // 'Store'
 */
export function keyDecisions(plan: Plan): KeyDecision[] {
  const leases = plan.actions.map((a) => `${a.action.name} ${formatMs(a.lease.leaseMs)}`).join(', ');
  const ttls = plan.actions.map((a) => `${a.action.name} ${formatMs(a.retention.ttlMs)}`).join(', ');
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
  const derivations: Record<string, string> = { stripe: 'Stripe: the key itself', adyen: 'Adyen: the key, or its SHA-256 hex beyond 64 characters, plus reference {key}_{step}', paypal: 'PayPal: UUIDv5 of the key', 'bank-transfer': 'bank: EndToEndId from SHA-256 of the key' };
  const decisions: KeyDecision[] = [
    { label: 'Store', value: `${plan.stack.storeName}${plan.partitioned ? ' (partitioned: over 100K keys a day)' : ''}; composite key (idempotency_key, user_id); all lease and expiry checks on the store clock` },
    { label: 'Key', value: `{scope}_{action}_{intent}; scope = ${plan.answers.scope}; intent = ${intents.join(', ')}` },
    { label: 'Fingerprint', value: 'SHA-256 hex of method, path and each action’s significant fields; mismatch → 409 that never echoes the original' },
    { label: 'Lock timeout', value: `${leases} (p99 + buffer, heartbeat every third of it)` },
    { label: 'Key expiry', value: `${ttls}${providerNames.length > 0 ? ` (≥ ${providerNames.join(', ')} window)` : ''}` },
    { label: 'Contested key', value: contested.join('; ') },
  ];
  if (outgoing.length > 0) {
    const used = [...new Set(outgoing.map((a) => a.action.provider as string))];
    decisions.push({ label: 'Providers', value: `provider keys derived deterministically from the local key (${used.map((p) => derivations[p]).join('; ')})` });
  }
  if (plan.actions.some((a) => a.saga)) decisions.push({ label: 'Sagas', value: 'step table + sub-keys {key}_{n}; resume from the first step not DONE; compensate newest first' });
  decisions.push({ label: 'Code', value: `${plan.stack.languageName} / ${plan.stack.frameworkName}${plan.stack.language === 'typescript' ? ' on the idempotency-builder runtime' : ' (standalone)'}` });
  return decisions;
}

export function summarySection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const rows = keyDecisions(plan).map((decision) => [decision.label, decision.value]);
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
  return section('summary', 'Summary of key decisions', [
    para(txt`This document designs idempotency for ${plan.projectName}: ${plan.actions.length} protected ${plan.actions.length === 1 ? 'action' : 'actions'} on ${plan.stack.storeName}, with code for ${plan.stack.languageName} (${plan.stack.frameworkName}). Every number below is derived in the section that owns it.`),
    table(['Decision', 'Choice'], rows),
    table(['Deliverable', 'Where'], deliverables, 'The nine deliverables'),
  ]);
}

const SOURCE_TEXT = { code: 'found in the code', user: 'answered', file: 'answers file', assumption: 'ASSUMED' } as const;

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
    return entry.detail ? `${SOURCE_TEXT[entry.source]} (${entry.detail})` : SOURCE_TEXT[entry.source];
  };
  const rows: (string | Inline[])[][] = [
    ['1. Protected actions', plain(answers.actions.map((a) => a.name).join(', ')), plain(provenance('actions'))],
    ['2. Stack', plain(`${answers.stack.language} / ${answers.stack.framework} / ${answers.stack.database} / broker ${answers.stack.broker}`), plain(provenance('stack'))],
    ['3. Retry sources', plain(answers.retrySources.join(', ')), plain(provenance('retrySources'))],
    ['4. Payments', plain(answers.paymentProviders.length > 0 ? answers.paymentProviders.join(', ') : 'none'), plain(provenance('paymentProviders'))],
    ['5. Concurrency', plain(answers.concurrency), plain(provenance('concurrency'))],
    ['6. Retention', formatMs(answers.retentionMs), plain(provenance('retentionMs'))],
    ['7. Detection latency', formatMs(answers.detectionLatencyMs), plain(provenance('detectionLatencyMs'))],
    ['Volume', `${formatCount(plan.keysPerDay)} new keys a day${plan.keysPerDayAssumed ? ' (assumed)' : ''}`, plan.keysPerDayAssumed ? 'ASSUMED' : plain(provenance('keysPerDay'))],
  ];
  const located = answers.actions.filter((a) => a.location).map((a) => txt`${code(a.name)} at ${code(a.location ?? '')}`);
  const blocks = [para(txt`The seven questions of the method, and where each answer came from.`), table(['Question', 'Answer', 'Source'], rows)];
  if (located.length > 0) blocks.push(bullets(located));
  if (plan.assumptions.length > 0) {
    blocks.push(callout('assumption', 'Assumptions — confirm or correct these', plan.assumptions.map((text) => plain(text))));
  }
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
    `${a.impact.severity.toUpperCase()}: ${a.impact.text}`,
    `${a.action.keySource === 'client' && (a.action.kind === 'http') ? 'client' : a.action.kind === 'http' ? a.action.keySource : 'derived'} — ${a.key.intentSource}`,
    a.recovery.summary,
  ]);
  return section('action-map', 'Action map', [
    para(txt`Deliverable 1: every protected action with what a duplicate costs, where its key comes from, and how it recovers when a server dies mid-processing.`),
    table(['Action', 'Trigger', 'Duplicate impact', 'Key source', 'Recovery path'], rows),
  ]);
}
