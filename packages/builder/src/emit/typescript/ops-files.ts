/**
 * Generated TypeScript: message/cron workers, payment-provider key derivation, and the cleanup job.
 */
import type { Plan } from '../../design/plan/plan.js';

const brokerNote: Record<string, string> = {
  rabbitmq: `// RabbitMQ (amqplib): channel.consume(queue, async (msg) => {
//   const outcome = await processMessage('…', { eventId: msg.properties.messageId, scope, body }, handle);
//   if (outcome.kind === 'retry-later') return republishWithDelay(msg, outcome.delayMs); // or nack(msg, false, true)
//   if (outcome.kind === 'dead-letter') return channel.nack(msg, false, false);       // to the DLX
//   channel.ack(msg);
// }); Publishers must set messageId (AMQP has no broker-assigned id).`,
  kafka: `// Kafka: commit the offset only after processMessage() returned 'ack'; the event id comes from the
// record's key or an 'event-id' header set by the producer, never from the offset.`,
  sqs: `// SQS: DeleteMessage only after 'ack'; for 'retry-later' ChangeMessageVisibility to delayMs.
// Keep the queue's visibility timeout above the action's leaseMs.`,
  nats: `// NATS JetStream: msg.ack() after 'ack'; msg.nak(delayMs) for 'retry-later'; msg.term() for 'dead-letter'.
// Keep AckWait above the action's leaseMs. The event id is the Nats-Msg-Id header.`,
  bullmq: `// BullMQ: return normally after 'ack'; throw (with a backoff) for 'retry-later'; move to failed for
// 'dead-letter'. The event id is the job id you pass to queue.add(name, data, { jobId }).`,
};

/**
 * `worker.ts`, or undefined when no action is a consumer, job or cron run.
 * @example workerFile(plan)?.includes('processMessage')
 */
export function workerFile(plan: Plan): string | undefined {
  const workers = plan.actions.filter((a) => a.action.kind === 'consumer' || a.action.kind === 'job' || a.action.kind === 'cron');
  if (workers.length === 0) return undefined;
  const union = workers.map((a) => JSON.stringify(a.action.name)).join(' | ');
  const note = brokerNote[plan.stack.broker] ?? '// Ack/commit/delete the message only after processMessage() returned { kind: "ack" }.';
  return `// Message consumers and scheduled jobs: the message is acknowledged only after its outcome is
// stored, so a crash means redelivery, and the redelivery finds the record instead of re-running.
${note}
import {
  FingerprintMismatchError,
  IdempotencyError,
  InProgressError,
  ReplayedFailureError,
  type ActionContext,
  type Idempotency,
} from '@idempotency-builder/runtime';
import { fingerprint } from './fingerprints.js';
import { idempotency, POLICIES } from './idempotency.js';

export type WorkerAction = ${union};

export type Outcome =
  | { readonly kind: 'ack'; readonly replayed: boolean }
  | { readonly kind: 'retry-later'; readonly delayMs: number }
  | { readonly kind: 'dead-letter'; readonly reason: string };

export interface Message {
  /** The producer-assigned event id (UUIDv4), identical on every redelivery. */
  readonly eventId: string;
  /** The owning user/account/tenant from the message, or 'global' for system events. */
  readonly scope: string;
  readonly body: unknown;
}

const EVENT_ID = /^[A-Za-z0-9_.:~-]{1,180}$/;

export async function processMessage(
  action: WorkerAction,
  message: Message,
  handler: (context: ActionContext) => Promise<unknown>,
  engine: Idempotency = idempotency,
): Promise<Outcome> {
  if (!EVENT_ID.test(message.eventId)) return { kind: 'dead-letter', reason: 'message has no usable event id' };
  try {
    const { replayed } = await engine.run(
      { key: \`\${action}_\${message.eventId}\`, scope: message.scope, fingerprint: fingerprint(action, message.body) },
      handler,
      POLICIES[action],
    );
    return { kind: 'ack', replayed };
  } catch (error) {
    // Another worker holds it: never drop the message, the holder may still crash.
    if (error instanceof InProgressError) return { kind: 'retry-later', delayMs: Math.max(error.retryAfterMs, 1000) };
    if (error instanceof FingerprintMismatchError) return { kind: 'dead-letter', reason: 'same event id with a different payload (producer bug)' };
    if (error instanceof ReplayedFailureError) return { kind: 'dead-letter', reason: \`permanent failure: \${error.message}\` };
    if (error instanceof IdempotencyError) return { kind: 'retry-later', delayMs: 1000 };
    return { kind: 'retry-later', delayMs: 5000 }; // transient: the claim was released
  }
}

/** Scheduled runs: the key is the schedule slot (the fire time), never the clock at start. */
export async function runScheduled(
  action: WorkerAction,
  slot: Date,
  handler: (context: ActionContext) => Promise<unknown>,
  engine: Idempotency = idempotency,
): Promise<'ran' | 'replayed' | 'skipped'> {
  const slotId = \`\${slot.toISOString().slice(0, 16)}Z\`;
  try {
    const { replayed } = await engine.run(
      { key: \`\${action}_\${slotId}\`, scope: 'global', fingerprint: fingerprint(action, { slot: slotId }) },
      handler,
      POLICIES[action],
    );
    return replayed ? 'replayed' : 'ran';
  } catch (error) {
    if (error instanceof InProgressError) return 'skipped'; // an overlapping run owns this slot
    throw error;
  }
}
`;
}

/**
 * `provider-keys.ts`, or undefined without payment providers.
 * @example providerKeysFile(plan)?.includes('paypalRequestId')
 */
export function providerKeysFile(plan: Plan): string | undefined {
  const providers = new Set(plan.actions.flatMap((a) => (a.action.provider ? [a.action.provider] : [])));
  for (const provider of plan.answers.paymentProviders) providers.add(provider);
  if (providers.size === 0) return undefined;
  const parts: string[] = [];
  parts.push(`// Provider-side keys, derived deterministically from the local key. A retry must never mint a
// fresh provider reference: the same local key always maps to the same provider key, so the
// provider deduplicates the same logical request the local store does.
import { createHash } from 'node:crypto';${providers.has('paypal') ? "\nimport { v5 as uuidv5 } from 'uuid';" : ''}

/** The full logical key {scope}_{action}_{intent}: scope included, because provider keys are account-wide. */
export function fullKey(scope: string, storedKey: string): string {
  return \`\${scope}_\${storedKey}\`;
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
`);
  if (providers.has('stripe')) {
    parts.push(`/** Stripe Idempotency-Key (max 255 chars; Stripe keeps it for at least 24 h). */
export function stripeIdempotencyKey(key: string): string {
  return key.length <= 255 ? key : \`sha256-\${sha256Hex(key)}\`;
}
`);
  }
  if (providers.has('adyen')) {
    parts.push(`/** Adyen Idempotency-Key (max 64 chars): longer keys map to their SHA-256 hex, exactly 64 chars. */
export function adyenIdempotencyKey(key: string): string {
  return key.length <= 64 ? key : sha256Hex(key);
}

/** Adyen merchant reference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 chars. */
export function adyenReference(key: string, step: number): string {
  const direct = \`\${key}_\${step}\`;
  return direct.length <= 80 ? direct : \`\${createHash('sha256').update(key).digest('base64url')}_\${step}\`;
}
`);
  }
  if (providers.has('paypal')) {
    parts.push(`/** Fixed for this service forever: changing it changes every PayPal-Request-Id. */
export const PAYPAL_NAMESPACE = '${plan.paypalNamespace}';

/** PayPal-Request-Id = UUIDv5(namespace, key). */
export function paypalRequestId(key: string): string {
  return uuidv5(key, PAYPAL_NAMESPACE);
}
`);
  }
  if (providers.has('bank-transfer')) {
    parts.push(`/** ISO 20022 EndToEndId (max 35 chars): the first 35 hex chars of SHA-256(key) — 140 bits. */
export function endToEndId(key: string): string {
  return sha256Hex(key).slice(0, 35);
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
