/**
 * Lock timeout (lease) and key expiry (retention) per action, each with the reasoning that
 * produced the number. Both are per action: the runtime takes leaseMs/ttlMs per call.
 */
import type { Action, Answers } from '../../answers.js';
import { DAY, SECOND, ceilToSecond, formatMs } from './durations.js';
import { PROVIDER_FACTS } from './providers.js';
import type { StoreKind } from './stack.js';

export interface LeasePlan {
  readonly durationMs: number;
  readonly durationAssumed: boolean;
  readonly bufferMs: number;
  readonly skewMs: number;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  /** Why this number, in one paragraph. */
  readonly justification: string;
}

export interface RetentionPlan {
  readonly ttlMs: number;
  /** Each lower bound considered, with where it comes from. */
  readonly bounds: readonly { readonly ms: number; readonly source: string }[];
  /** The bound that decided the value. */
  readonly binding: string;
  readonly justification: string;
  /** The stated (or assumed) retention when another bound raised it. */
  readonly raisedFromMs?: number;
}

/**
 * Typical p99 durations when the user did not state one; always listed as assumptions.
 * @example defaultDurationMs({ kind: 'cron', … }) // 60_000
 */
export function defaultDurationMs(action: Action): number {
  if (action.kind === 'cron') return 60 * SECOND;
  if (action.kind === 'job') return 30 * SECOND;
  if (action.provider) return 10 * SECOND;
  if (action.kind === 'consumer') return 5 * SECOND;
  return 2 * SECOND;
}

/**
 * Clock-skew allowance added to leases whose expiry is judged by more than one clock.
 * @example skewBufferMs('dynamodb', 'globally-distributed') // 5_000
 */
export function skewBufferMs(store: StoreKind, concurrency: Answers['concurrency']): number {
  if (store === 'dynamodb') return concurrency === 'globally-distributed' ? 5 * SECOND : 2 * SECOND;
  if (store === 'redis') return 2 * SECOND;
  return 0;
}

/**
 * The lease for one action: stated p99 duration + max(5 s, 50 %) + skew, rounded up to a second.
 * @example planLease({ expectedDurationMs: 3000, ... }, 'postgresql', 'multi-instance').leaseMs // 8000
 */
export function planLease(action: Action, store: StoreKind, concurrency: Answers['concurrency']): LeasePlan {
  const durationAssumed = action.expectedDurationMs === undefined;
  const durationMs = action.expectedDurationMs ?? defaultDurationMs(action);
  const bufferMs = Math.max(5 * SECOND, Math.round(durationMs / 2));
  const skewMs = skewBufferMs(store, concurrency);
  const leaseMs = ceilToSecond(durationMs + bufferMs + skewMs);
  const heartbeatMs = Math.floor(leaseMs / 3);
  const skewText =
    skewMs > 0
      ? ` plus a ${formatMs(skewMs)} clock-skew buffer (${store === 'redis' ? 'Redis judges leases by its own `TIME`, but a promoted replica runs on another clock' : 'DynamoDB has no server clock in conditions, so each app server’s clock decides'})`
      : '';
  const justification =
    `${durationAssumed ? 'Assumed' : 'Stated'} p99 duration ${formatMs(durationMs)} plus a buffer of ${formatMs(bufferMs)} ` +
    `(the larger of 5 s and half the duration: GC pauses, a slow dependency, a database failover)${skewText}, rounded up: ${formatMs(leaseMs)}. ` +
    `A heartbeat extends the lease every ${formatMs(heartbeatMs)} while the worker is alive, so a slow-but-healthy run is never taken for dead; ` +
    `the lease only bounds how long a crashed worker blocks a retry (at most ${formatMs(leaseMs)}). Shorter would risk false orphan detection when a heartbeat is delayed; longer would make clients wait after a crash.`;
  return { durationMs, durationAssumed, bufferMs, skewMs, leaseMs, heartbeatMs, justification };
}

function redeliveryHorizon(broker: Answers['stack']['broker']): { ms: number; source: string } | undefined {
  switch (broker) {
    case 'sqs':
      return { ms: 4 * DAY, source: 'SQS default message retention (4 days; raise this bound to your queue’s `MessageRetentionPeriod`, max 14 days)' };
    case 'kafka':
      return { ms: 7 * DAY, source: 'Kafka default log retention (`log.retention.hours` = 168): an offset reset can replay a week' };
    default:
      return undefined;
  }
}

/**
 * The key expiry for one action: the largest of the stated retention, the provider's dedup
 * window and the longest redelivery horizon of its retry sources.
 * @example planRetention(action, answers, 30_000).ttlMs // 86_400_000 for a Stripe action
 */
export function planRetention(action: Action, answers: Answers, leaseMs: number): RetentionPlan {
  const bounds: { ms: number; source: string }[] = [{ ms: answers.retentionMs, source: 'the retention you stated (question 6)' }];
  if (action.provider && action.kind !== 'webhook') {
    const facts = PROVIDER_FACTS[action.provider];
    bounds.push({ ms: facts.windowMs, source: `${facts.name}’s deduplication window (${facts.windowText})` });
  }
  if (action.kind === 'webhook') bounds.push({ ms: 3 * DAY, source: 'webhook resend horizon (Stripe and PayPal resend for up to 3 days)' });
  if (action.kind === 'consumer' || action.kind === 'job') {
    const horizon = redeliveryHorizon(answers.stack.broker);
    if (horizon) bounds.push(horizon);
  }
  bounds.push({ ms: leaseMs, source: 'the lease (a record must outlive its own lock)' });
  const winner = bounds.reduce((best, bound) => (bound.ms > best.ms ? bound : best));
  const ttlMs = winner.ms;
  const others = bounds.filter((bound) => bound !== winner && bound.ms < ttlMs).map((bound) => `${formatMs(bound.ms)} from ${bound.source}`);
  const stated = answers.retentionMs;
  // A stated retention that another bound overrides is said so, with the reason, never silently raised.
  const statedBy = ['user', 'file'].includes(answers.provenance?.retentionMs?.source ?? '') ? 'you stated' : 'assumed';
  const raised = ttlMs > stated ? `Raised from the ${formatMs(stated)} ${statedBy} to ${formatMs(ttlMs)} by ${winner.source}. ` : '';
  const justification =
    raised +
    `Set by ${winner.source}. ` +
    (others.length > 0 ? `It also covers ${others.join('; ')}. ` : '') +
    'A retry that arrives later is treated as a new request, so the window must outlast every path that can still deliver a retry; ' +
    'keeping records longer only costs storage, which the cleanup job bounds.';
  return { ttlMs, bounds, binding: winner.source, justification, ...(ttlMs > stated ? { raisedFromMs: stated } : {}) };
}
