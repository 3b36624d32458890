/**
 * Generated TypeScript: message/cron workers and payment-provider keys on the runtime's entry
 * points (consumers/*, schedules, functions, payments), and the cleanup job.
 */
import type { Plan } from '../../design/plan/plan.js';
import { braintreeKeys } from './braintree-keys.js';

type Worker = Plan['actions'][number];

/** One broker's entry point from `@idempotency-builder/runtime/consumers/<broker>`, as generated code calls it. */
interface BrokerEntry {
  readonly module: string;
  readonly imports: string;
  /** The exported function(s) for consumer actions. */
  readonly body: string;
}

const RUN_OPTIONS = 'runOptions: POLICIES[action]';

function brokerEntry(broker: string): BrokerEntry | undefined {
  switch (broker) {
    case 'rabbitmq':
      return {
        module: 'rabbitmq',
        imports: 'startRabbitConsumer, type MessageHandler, type RabbitChannelLike, type RabbitConsumer, type RabbitMessageLike',
        body: `/**
 * Consumes the action's queue with manual acks: ack after the outcome is stored, a delayed
 * requeue for an in-progress duplicate or a transient failure, reject (to the queue's
 * x-dead-letter-exchange — declare one) for a permanent failure. The key is the producer's
 * properties.messageId (publishers must set it; AMQP assigns none). Call channel.prefetch(n) first.
 */
export function startConsumer(action: ConsumerAction, channel: RabbitChannelLike, handler: MessageHandler<RabbitMessageLike, unknown>): Promise<RabbitConsumer> {
  return startRabbitConsumer({ channel, queue: CHANNELS[action], idempotency, handler, ${RUN_OPTIONS} });
}
`,
      };
    case 'nats':
      return {
        module: 'jetstream',
        imports: 'createJetStreamHandler, type JetStreamMessageLike, type MessageHandler',
        body: `/**
 * A per-message function for a JetStream consumer: ack after the outcome is stored, nak(delay)
 * for an in-progress duplicate or a transient failure, term() for a permanent failure. The key is
 * the Nats-Msg-Id header (the same id JetStream's own duplicate window uses). Keep the consumer's
 * AckWait above the action's leaseMs.
 *   const handle = consumerHandler('…', async (msg) => …); for await (const msg of await consumer.consume()) await handle(msg);
 */
export function consumerHandler(action: ConsumerAction, handler: MessageHandler<JetStreamMessageLike, unknown>) {
  return createJetStreamHandler({ idempotency, handler, scope: CHANNELS[action], ${RUN_OPTIONS} });
}
`,
      };
    case 'kafka':
      return {
        module: 'kafka',
        imports: 'createKafkaEachMessage, type ConsumeDecision, type KafkaRecordLike, type MessageHandler',
        body: `/**
 * A kafkajs eachMessage handler: the offset is committed only after the outcome is stored; a
 * permanent failure goes to \`deadLetter\` (Kafka has no dead-letter queue: publish to a DLQ topic).
 * The key is the producer's 'message-id' header, never the offset.
 *   await consumer.run({ autoCommit: false, eachMessage: eachMessage('…', handler, deadLetter) });
 */
export function eachMessage(
  action: ConsumerAction,
  handler: MessageHandler<KafkaRecordLike, unknown>,
  deadLetter: (record: KafkaRecordLike, decision: Extract<ConsumeDecision, { kind: 'dead-letter' }>) => Promise<void>,
) {
  return createKafkaEachMessage({ idempotency, handler, deadLetter, scope: CHANNELS[action], ${RUN_OPTIONS} });
}
`,
      };
    case 'sqs':
      return {
        module: 'sqs',
        imports: 'createSqsBatchHandler, type MessageHandler, type SqsRecordLike',
        body: `/**
 * A Lambda SQS batch handler that reports partial batch failures (enable ReportBatchItemFailures):
 * only messages whose outcome is stored are deleted. The key is the producer's 'message-id'
 * message attribute. Keep the queue's visibility timeout above the action's leaseMs.
 */
export function sqsHandler(action: ConsumerAction, handler: MessageHandler<SqsRecordLike, unknown>) {
  return createSqsBatchHandler({ idempotency, handler, scope: CHANNELS[action], ${RUN_OPTIONS} });
}
`,
      };
    case 'bullmq':
      return {
        module: 'bullmq',
        imports: 'createBullmqProcessor, type BullJobLike, type MessageHandler',
        body: `/**
 * A BullMQ processor (new Worker(queue, processor(…))): the job completes only after its outcome is
 * stored; an in-progress duplicate is moved to the delayed set; a permanent failure fails the job
 * for good. The key is the job id: add jobs with an explicit { jobId } (auto ids are a counter).
 */
export function processor(action: ConsumerAction, handler: MessageHandler<BullJobLike, unknown>) {
  return createBullmqProcessor({ idempotency, handler, scope: CHANNELS[action], ${RUN_OPTIONS} });
}
`,
      };
    default:
      return undefined;
  }
}

/**
 * `worker.ts`, or undefined when no action is a consumer, job or cron run. Consumers and jobs call
 * the runtime's consumer entry point for the plan's broker (or makeIdempotent when the broker has
 * none); scheduled runs call runScheduled and its node-cron / croner / BullMQ adapters.
 * @example workerFile(plan)?.includes('@idempotency-builder/runtime/schedules')
 */
export function workerFile(plan: Plan): string | undefined {
  const consumers = plan.actions.filter((a) => a.action.kind === 'consumer' || a.action.kind === 'job');
  const crons = plan.actions.filter((a) => a.action.kind === 'cron');
  if (consumers.length === 0 && crons.length === 0) return undefined;
  const union = (list: readonly Worker[]) => list.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const entry = brokerEntry(plan.stack.broker);
  const parts: string[] = [];
  const imports: string[] = [];
  parts.push(`// Message consumers and scheduled jobs on the idempotency-builder runtime's own entry points: a
// message is acknowledged only after its outcome is stored, so a crash means redelivery and the
// redelivery finds the record instead of re-running; an in-progress duplicate is redelivered later,
// never dropped. Scheduled runs are keyed by the schedule slot (the fire time), never the clock.`);
  if (consumers.length > 0) {
    const channels = consumers.map((a) => `  ${a.action.name}: ${JSON.stringify(a.action.channel ?? a.action.name)},`).join('\n');
    if (entry) {
      imports.push(`import { ${entry.imports} } from '@idempotency-builder/runtime/consumers/${entry.module}';`);
      parts.push(`export type ConsumerAction = ${union(consumers)};

/** Queue / subject / topic of each consumer, from the design; also its idempotency scope. */
export const CHANNELS: Record<ConsumerAction, string> = {
${channels}
};

${entry.body}`);
    } else {
      imports.push("import { makeIdempotent } from '@idempotency-builder/runtime/functions';");
      parts.push(`export type ConsumerAction = ${union(consumers)};

/** Queue / channel of each consumer, from the design; also its idempotency scope. */
export const CHANNELS: Record<ConsumerAction, string> = {
${channels}
};

/** A message as your transport delivers it: the producer-assigned id, identical on every redelivery. */
export interface Message {
  readonly id: string;
  readonly body: unknown;
}

/**
 * Wraps your handler so it runs once per message id (the runtime's makeIdempotent). Acknowledge
 * the message only after the returned promise resolved; on InProgressError redeliver it later
 * (never drop it); on ReplayedFailureError or FingerprintMismatchError send it to your dead-letter path.
 */
export function idempotentConsumer<R>(action: ConsumerAction, handler: (message: Message) => Promise<R>) {
  return makeIdempotent(handler, { idempotency, name: action, key: (message) => message.id, scope: CHANNELS[action], fingerprint: (message) => message.body, ...POLICIES[action] });
}
`);
    }
  }
  if (crons.length > 0) {
    const bull = plan.stack.broker === 'bullmq';
    imports.push(
      `import { cronerJob, nodeCronTask, runScheduled, ${bull ? 'bullmqScheduledProcessor, ' : ''}type OverlapPolicy, type ScheduledContext } from '@idempotency-builder/runtime/schedules';`,
    );
    const schedules = crons.map((a) => `  ${a.action.name}: ${JSON.stringify(a.action.channel ?? '')},`).join('\n');
    parts.push(`export type ScheduledAction = ${union(crons)};

/** The schedule of each job, as the design records it (documentation: your scheduler owns it). */
export const SCHEDULES: Record<ScheduledAction, string> = {
${schedules}
};

type Job<T> = (context: ScheduledContext) => T | Promise<T>;

/**
 * One run per schedule slot across every instance. \`slot\` is the fire time from the schedule.
 * overlap: 'skip' (default) leaves a slot out while the previous run still holds the job,
 * 'wait' waits for it, 'takeover' takes over a crashed or stalled run once its lease lapsed.
 */
export function runSlot<T>(action: ScheduledAction, slot: Date, job: Job<T>, overlap: OverlapPolicy = 'skip') {
  return runScheduled(idempotency, action, slot, job, { overlap, ...POLICIES[action] });
}

/** node-cron 4: cron.schedule(SCHEDULES.x, nodeCron('x', job)) on every instance; each slot runs once. */
export function nodeCron<T>(action: ScheduledAction, job: Job<T>, overlap: OverlapPolicy = 'skip') {
  return nodeCronTask(idempotency, action, job, { overlap, ...POLICIES[action] });
}

/** croner 11: new Cron(SCHEDULES.x, { catch: true }, croner('x', job)). */
export function croner<T>(action: ScheduledAction, job: Job<T>, overlap: OverlapPolicy = 'skip') {
  return cronerJob(idempotency, action, job, { overlap, ...POLICIES[action] });
}
${bull ? `
/** BullMQ job schedulers (queue.upsertJobScheduler): new Worker(queue, bullmqScheduled('x', job)). */
export function bullmqScheduled<T>(action: ScheduledAction, job: Job<T>, overlap: OverlapPolicy = 'skip') {
  return bullmqScheduledProcessor(idempotency, job, { jobName: action, overlap, ...POLICIES[action] });
}
` : ''}`);
  }
  imports.push("import { idempotency, POLICIES } from './idempotency.js';");
  return `${parts[0]}\n${imports.join('\n')}\n\n${parts.slice(1).join('\n')}`;
}

/**
 * `provider-keys.ts`, or undefined when the runtime's `/payments` functions suffice as they are.
 * Stripe and Adyen keys are imported from '@idempotency-builder/runtime/payments' directly; this
 * file only binds the service's PayPal namespace, derives bank-transfer ids and Braintree order ids
 * (which the runtime does not cover), and gives the runtime's `reconcile()` a Braintree lookup.
 * @example providerKeysFile(plan)?.includes('PAYPAL_NAMESPACE')
 */
export function providerKeysFile(plan: Plan): string | undefined {
  const providers = new Set(plan.actions.flatMap((a) => (a.action.provider && a.action.kind !== 'webhook' ? [a.action.provider] : [])));
  for (const provider of plan.answers.paymentProviders) providers.add(provider);
  if (!providers.has('paypal') && !providers.has('bank-transfer') && !providers.has('braintree')) return undefined;
  const parts: string[] = [];
  const runtimeImports = [
    ...(providers.has('paypal') ? ['paypalRequestId as runtimePaypalRequestId'] : []),
    ...(providers.has('braintree') ? ['fitProviderKey'] : []),
    ...(providers.has('bank-transfer') || providers.has('braintree') ? ['intentMaterial'] : []),
    'type IntentId',
    ...(providers.has('braintree') ? ['type ProviderLookup'] : []),
  ];
  parts.push(`// Provider keys come from the runtime (@idempotency-builder/runtime/payments): stripeIdempotencyKey,
// adyenIdempotencyKey, adyenReference and paypalRequestId derive them from (scope, key[, step]), so
// a retry never mints a fresh provider reference. This file only fixes what is this service's own.
${providers.has('bank-transfer') ? "import { createHash } from 'node:crypto';\n" : ''}import { ${runtimeImports.join(', ')} } from '@idempotency-builder/runtime/payments';
`);
  if (providers.has('paypal')) {
    parts.push(`/** Fixed for this service forever: changing it changes every PayPal-Request-Id. */
export const PAYPAL_NAMESPACE = '${plan.paypalNamespace}';

/** PayPal-Request-Id = UUIDv5(PAYPAL_NAMESPACE, the intent): pass it as the SDK's paypalRequestId. */
export function paypalRequestId(intent: IntentId): string {
  return runtimePaypalRequestId(intent, PAYPAL_NAMESPACE);
}
`);
  }
  if (providers.has('braintree')) parts.push(braintreeKeys());
  if (providers.has('bank-transfer')) {
    parts.push(`/**
 * ISO 20022 EndToEndId (max 35 chars): the first 35 hex chars of SHA-256 of the runtime's intent
 * material — 140 bits. Builder-written: the runtime derives no bank-transfer ids.
 */
export function endToEndId(intent: IntentId): string {
  return createHash('sha256').update(intentMaterial(intent)).digest('hex').slice(0, 35);
}
`);
  }
  return parts.join('\n');
}

/**
 * `cleanup.ts`: the scheduled purge of expired records.
 * @example cleanupFile().includes('purgeExpired')
 */
export function cleanupFile(): string {
  return `// Cleanup job: deletes expired COMPLETED/FAILED records in bounded batches (PROCESSING records are
// never touched: they belong to a live or reclaimable claim). Safe on every instance at once.
import { store } from './idempotency.js';

export const CLEANUP = { everyMs: 60_000, batchSize: 1_000, maxBatchesPerRound: 500 } as const;

export async function purgeExpired(): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < CLEANUP.maxBatchesPerRound; batch++) {
    const deleted = await store.purgeExpired(CLEANUP.batchSize);
    total += deleted;
    if (deleted < CLEANUP.batchSize) break;
  }
  return total;
}

/** Starts the job; report() receives each round's count and the store size (the store_size gauge). */
export function startCleanup(report: (stats: { purged: number; size: number }) => void = () => {}): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow round never overlaps the next
    running = true;
    purgeExpired()
      .then(async (purged) => report({ purged, size: await store.size() }))
      .catch((error: unknown) => console.error('idempotency cleanup failed', error))
      .finally(() => {
        running = false;
      });
  }, CLEANUP.everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
`;
}
