/**
 * Retry sources: which paths can repeat each action, described for the user's broker and stack.
 * Sources inherent to an action's kind are added even when the user did not name them.
 */
import type { Action, Answers } from '../../answers.js';

export type RetrySource = Answers['retrySources'][number];

const APPLICABLE: Record<Action['kind'], readonly RetrySource[]> = {
  http: ['client-retry', 'double-click', 'load-balancer-replay'],
  webhook: ['webhook-resend', 'load-balancer-replay'],
  consumer: ['queue-redelivery'],
  job: ['queue-redelivery', 'cron-overlap'],
  cron: ['cron-overlap'],
};

const INHERENT: Record<Action['kind'], readonly RetrySource[]> = {
  http: ['client-retry'],
  webhook: ['webhook-resend'],
  consumer: ['queue-redelivery'],
  job: ['queue-redelivery'],
  cron: ['cron-overlap'],
};

export interface RetrySourcePlan {
  readonly source: RetrySource;
  readonly description: string;
  /** True when the user did not list it but the action's kind implies it. */
  readonly inherent: boolean;
}

/** Defaults per the brokers' own sources: nats-server (AckWait 30 s, MaxDeliver unlimited), BullMQ (maxStalledCount 1, attempts 1). */
function redeliveryText(broker: Answers['stack']['broker']): string {
  switch (broker) {
    case 'rabbitmq':
      return 'RabbitMQ redelivers every unacknowledged message when the consumer’s channel or connection closes (crash, deploy, network blip), and a `nack` with requeue puts it back at once';
    case 'kafka':
      return 'after a crash or a consumer-group rebalance, Kafka consumers resume from the last committed offset and re-read everything after it';
    case 'sqs':
      return 'SQS makes a received message visible again when its visibility timeout ends before `DeleteMessage`; standard queues may also deliver a message twice on their own';
    case 'nats':
      return 'JetStream redelivers a message that is not acked within `AckWait` (30 s by default), without limit unless `MaxDeliver` is set';
    case 'bullmq':
      return 'BullMQ moves a job whose lock was not renewed (a stalled worker) back to waiting — once by default (`maxStalledCount` 1), then fails it — and retries a failed job only when `attempts` is above its default of 1';
    default:
      return 'at-least-once delivery: any message broker redelivers a message whose acknowledgement did not arrive';
  }
}

const TEXT: Record<Exclude<RetrySource, 'queue-redelivery'>, string> = {
  'client-retry': 'HTTP clients and SDKs retry on timeouts and 5xx; the first attempt may still be running, or may have succeeded with the response lost',
  'double-click': 'a user presses submit twice, or the browser resubmits a form; both requests arrive within milliseconds',
  'load-balancer-replay': 'a proxy or load balancer resends a request whose upstream timed out to another instance (nginx `proxy_next_upstream` with `non_idempotent`, mesh retry policies), while the first instance keeps processing',
  'webhook-resend': 'providers resend a webhook until they get a 2xx — Stripe for up to 3 days with exponential backoff — and sometimes send the same event twice even after a 2xx',
  'cron-overlap': 'the next scheduled run starts while the previous one is still running, or two scheduler instances fire the same tick (failover, clock skew, a manual re-run)',
};

/**
 * The retry sources that apply to one action.
 * @example retrySourcesFor(action, answers)[0].source // 'client-retry'
 */
export function retrySourcesFor(action: Action, answers: Answers): RetrySourcePlan[] {
  const applicable = APPLICABLE[action.kind];
  const listed = answers.retrySources.filter((source) => applicable.includes(source));
  const sources = [...listed];
  for (const source of INHERENT[action.kind]) if (!sources.includes(source)) sources.push(source);
  return sources.map((source) => ({
    source,
    description: source === 'queue-redelivery' ? redeliveryText(answers.stack.broker) : TEXT[source],
    inherent: !listed.includes(source),
  }));
}
