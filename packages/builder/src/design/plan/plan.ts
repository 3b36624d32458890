/**
 * The plan: every decision the document and the code artifacts share, derived once from the
 * answers. Sections and emitters read the plan; nothing re-derives a number on its own.
 */
import type { Action, Answers } from '../../answers.js';
import { DAY, formatCount, formatMs } from './durations.js';
import { excludedFields, significantFields, type FieldReason } from './fields.js';
import { planImpact, planRecovery, type ImpactPlan, type RecoveryPlan } from './impact.js';
import { planKey, type KeyPlan } from './key-format.js';
import { paypalNamespace, providerKey, adyenReference, type Provider } from './providers.js';
import { retrySourcesFor, type RetrySourcePlan } from './retry-sources.js';
import { planSaga, type SagaPlan } from './saga.js';
import { PRINTABLE_ROUTE } from '../../inspect/route-graph.js';
import { resolveStack, type ResolvedStack } from './stack.js';
import { planLease, planRetention, type LeasePlan, type RetentionPlan } from './timing.js';

export interface ProviderKeyExample {
  readonly provider: Provider;
  readonly header: string;
  readonly value: string;
  readonly reference?: string;
}

export interface ActionPlan {
  readonly action: Action;
  readonly key: KeyPlan;
  readonly lease: LeasePlan;
  readonly retention: RetentionPlan;
  readonly impact: ImpactPlan;
  readonly recovery: RecoveryPlan;
  readonly retrySources: readonly RetrySourcePlan[];
  readonly fields: readonly FieldReason[];
  readonly excluded: readonly FieldReason[];
  readonly saga?: SagaPlan;
  readonly providerKeys: readonly ProviderKeyExample[];
  /** How a contested (in-progress) duplicate is answered. */
  readonly contested: string;
  /** A short trigger label: `POST /payments`, `queue orders.created`, `cron 0 2 * * *`. */
  readonly trigger: string;
}

export interface Plan {
  readonly answers: Answers;
  readonly stack: ResolvedStack;
  readonly projectName: string;
  /** The project name made safe for code comments (letters, digits, space . _ @ / -). */
  readonly codeName: string;
  readonly table: string;
  readonly keysPerDay: number;
  readonly keysPerDayAssumed: boolean;
  /** Range of keys alive at once (keys per day × longest retention in days). */
  readonly liveKeys: number;
  readonly partitioned: boolean;
  readonly paypalNamespace: string;
  readonly actions: readonly ActionPlan[];
  /** Assumptions stated by the prompts/answers and those made while deriving the plan. */
  readonly assumptions: readonly string[];
  readonly maxTtlMs: number;
  /** Statement on whether the store meets the stated detection latency. */
  readonly latencyAssessment: string;
  readonly highestRisk: ActionPlan;
}

export const DEFAULT_KEYS_PER_DAY = 10_000;
export const PARTITION_THRESHOLD = 100_000;

function trigger(action: Action): string {
  if (action.kind === 'http' || action.kind === 'webhook') {
    const request = [action.method ?? 'POST', action.route ?? `/${action.name}`].join(' ');
    return action.operation ? `${action.operation} (${request})` : request;
  }
  if (action.kind === 'cron') return `cron ${action.channel ?? '(schedule)'}`;
  return `${action.kind === 'job' ? 'job' : 'queue'} ${action.channel ?? action.name}`;
}

function contested(action: Action): string {
  switch (action.kind) {
    case 'http':
      return 'Immediate 409 with `Retry-After` set to the remaining lease; no waiting, so a duplicate is rejected within one store round trip.';
    case 'webhook':
      return 'Immediate 409 (non-2xx) so the provider resends later; the resend replays the stored result once the first delivery completes.';
    case 'consumer':
    case 'job':
      return 'No ack: the message is requeued with a delay of at least the remaining lease (or left for redelivery), never dropped — the first holder may still crash.';
    case 'cron':
      return 'The overlapping run exits at once without work; the slot belongs to the live holder.';
  }
}

const STORE_LATENCY_MS: Record<ResolvedStack['store'], number> = {
  postgresql: 2,
  mysql: 2,
  sqlite: 1,
  redis: 1,
  dynamodb: 10,
  mongodb: 3,
};

function assessLatency(stack: ResolvedStack, detectionLatencyMs: number): string {
  const typical = STORE_LATENCY_MS[stack.store];
  const base = `A duplicate is detected by one claim round trip to ${stack.storeName}: typically ${typical} ms or less within one region (an indexed primary-key write/read).`;
  if (detectionLatencyMs < typical) {
    return `${base} The stated target of ${formatMs(detectionLatencyMs)} is below that — it is only reachable with the store in the same host or availability zone; otherwise relax the target or move the store closer.`;
  }
  return `${base} That meets the stated target of ${formatMs(detectionLatencyMs)}; contested keys are answered at once (no wait), so the target also holds for concurrent duplicates.`;
}

function providerExamples(action: Action, key: KeyPlan, namespace: string): ProviderKeyExample[] {
  // A webhook receives the provider's event; it sends nothing the provider must deduplicate.
  if (!action.provider || action.kind === 'webhook') return [];
  const provider = action.provider;
  const intent = { key: key.storedKey, scope: key.scopeExample };
  const value = providerKey(provider, intent, namespace);
  const header = { stripe: 'Idempotency-Key', adyen: 'Idempotency-Key', paypal: 'PayPal-Request-Id', braintree: 'orderId', 'bank-transfer': 'EndToEndId' }[provider];
  return [{ provider, header, value, ...(provider === 'adyen' ? { reference: adyenReference(intent, 1) } : {}) }];
}

function collectAssumptions(answers: Answers, actions: readonly ActionPlan[], keysPerDayAssumed: boolean): string[] {
  const out: string[] = [];
  for (const [name, provenance] of Object.entries(answers.provenance)) {
    if (provenance.source === 'assumption') out.push(provenance.detail ? `${name}: ${provenance.detail}` : `${name}: assumed (no answer given)`);
  }
  for (const plan of actions) {
    if (plan.lease.durationAssumed) {
      out.push(`${plan.action.name}: p99 duration assumed to be ${formatMs(plan.lease.durationMs)} (not stated); the lock timeout derives from it.`);
    }
  }
  if (keysPerDayAssumed) out.push(`Volume assumed to be ${formatCount(DEFAULT_KEYS_PER_DAY)} new keys a day (not stated); it drives the uniqueness estimate, sizing and partitioning advice.`);
  return out;
}

const FIELD = /^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/;
// Control characters are what must not pass, so the class names them.
// eslint-disable-next-line no-control-regex
const CHANNEL = /^[^"'`\\<>\u0000-\u001f]+$/;

/** Field names, routes and channels reach generated code as string literals: only plain ones pass. */
function assertCodeSafe(answers: Answers): void {
  for (const action of answers.actions) {
    for (const field of action.significantFields) {
      if (!FIELD.test(field)) throw new TypeError(`Action ${action.name}: significant field "${field}" must be a dot path of identifiers (e.g. amount, recipient.id).`);
    }
    if (action.route !== undefined && !PRINTABLE_ROUTE.test(action.route)) throw new TypeError(`Action ${action.name}: route "${action.route}" must start with / and contain no spaces, quotes or angle brackets.`);
    if (action.channel !== undefined && !CHANNEL.test(action.channel)) throw new TypeError(`Action ${action.name}: channel "${action.channel}" must contain no quotes, backslashes or control characters.`);
  }
}

/**
 * Derives the plan from validated answers.
 * @example const plan = derivePlan(answersSchema.parse(input)); plan.actions[0].lease.leaseMs
 */
export function derivePlan(answers: Answers): Plan {
  assertCodeSafe(answers);
  const stack = resolveStack(answers);
  const projectName = answers.projectName ?? 'your service';
  const namespace = paypalNamespace(answers.projectName ?? 'service');
  const actions: ActionPlan[] = answers.actions.map((action) => {
    const key = planKey(action, answers);
    const lease = planLease(action, stack.store, answers.concurrency);
    const retention = planRetention(action, answers, lease.leaseMs);
    const saga = planSaga(action, key.storedKey, stack.language === 'typescript');
    return {
      action,
      key,
      lease,
      retention,
      impact: planImpact(action),
      recovery: planRecovery(action, stack.store, lease.leaseMs, saga?.subKeyPattern),
      retrySources: retrySourcesFor(action, answers),
      fields: significantFields(action),
      excluded: excludedFields(action),
      ...(saga ? { saga } : {}),
      providerKeys: providerExamples(action, key, namespace),
      contested: contested(action),
      trigger: trigger(action),
    };
  });
  const keysPerDayAssumed = answers.keysPerDay === undefined;
  const keysPerDay = answers.keysPerDay ?? DEFAULT_KEYS_PER_DAY;
  const maxTtlMs = Math.max(...actions.map((plan) => plan.retention.ttlMs));
  const severityRank = { critical: 0, high: 1, medium: 2 } as const;
  const highestRisk = [...actions].sort((a, b) => severityRank[a.impact.severity] - severityRank[b.impact.severity])[0] as ActionPlan;
  return {
    answers,
    stack,
    projectName,
    codeName: projectName.replace(/[^\w .@/-]/g, '_'),
    table: 'idempotency_store',
    keysPerDay,
    keysPerDayAssumed,
    liveKeys: Math.max(1, Math.round(keysPerDay * Math.max(1, maxTtlMs / DAY))),
    partitioned: keysPerDay > PARTITION_THRESHOLD,
    paypalNamespace: namespace,
    actions,
    assumptions: collectAssumptions(answers, actions, keysPerDayAssumed),
    maxTtlMs,
    latencyAssessment: assessLatency(stack, answers.detectionLatencyMs),
    highestRisk,
  };
}
