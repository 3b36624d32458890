/**
 * Key format per action: `{scope}_{action}_{intent}`, a filled-in example from the user's domain,
 * and the uniqueness assessment (a birthday bound where the intent id is random or custom).
 */
import { createHash } from 'node:crypto';
import type { Action, Answers } from '../../answers.js';

export type KeyScope = 'user' | 'account' | 'tenant' | 'global' | 'provider-account';

export interface KeyPlan {
  readonly scope: KeyScope;
  /** Example value of the scope column (user_id). */
  readonly scopeExample: string;
  /** What the intent part is, in words. */
  readonly intentSource: string;
  readonly intentExample: string;
  /** Stored in idempotency_key: `{action}_{intent}`. */
  readonly storedKey: string;
  /** The full logical key `{scope}_{action}_{intent}`, used for provider keys. */
  readonly fullKey: string;
  /** Who generates the intent part. */
  readonly generator: string;
  readonly uniqueness: Uniqueness;
}

export interface Uniqueness {
  /** The variable components and their cardinality, in words. */
  readonly components: string;
  /** Random bits in the intent, when it is random; null when uniqueness is by construction. */
  readonly randomBits: number | null;
  readonly verdict: string;
}

const SCOPE_EXAMPLES: Record<KeyScope, string> = {
  user: 'usr-7fQ9x',
  account: 'acct-51Hx2',
  tenant: 'tnt-acme',
  global: 'global',
  'provider-account': 'acct-1Nx7Pz',
};

/**
 * A stable UUIDv4-shaped example, so the document does not change between runs.
 * @example exampleUuid('createPayment') // 'ab5064ed-ed81-4bdc-9f56-a7a184e11114'
 */
export function exampleUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function webhookEventExample(provider: Action['provider']): { id: string; source: string } {
  switch (provider) {
    case 'stripe':
      return { id: 'evt_1PqR7sK2eZvKYlo2C0a1b2c3', source: 'the Stripe event id (`event.id`), identical on every resend of that event' };
    case 'adyen':
      return { id: 'ZX4F7Q9K2M8R3T5B-AUTHORISATION', source: 'the notification `pspReference` plus `eventCode`, identical on every resend' };
    case 'paypal':
      return { id: 'WH-58D329510W468432D-8HN650336L201105X', source: 'the PayPal webhook event id, identical on every resend' };
    default:
      return { id: 'dlv-7c1e2b9a', source: 'the sender’s event or delivery id, identical on every resend (ask the sender to guarantee this)' };
  }
}

function scopeFor(action: Action, answers: Answers): KeyScope {
  if (action.kind === 'webhook') return 'provider-account';
  if (action.kind === 'cron' || action.kind === 'job') return 'global';
  return answers.scope;
}

/**
 * The key plan for one action.
 * @example planKey(action, answers).fullKey // 'usr-7fQ9x_createPayment_4b9e2a5c-…'
 */
export function planKey(action: Action, answers: Answers): KeyPlan {
  const scope = scopeFor(action, answers);
  const scopeExample = SCOPE_EXAMPLES[scope];
  let intentSource: string;
  let intentExample: string;
  let generator: string;
  let uniqueness: Uniqueness;

  if (action.kind === 'webhook') {
    const event = webhookEventExample(action.provider);
    intentSource = event.source;
    intentExample = event.id;
    generator = 'Derived from the request content: the provider’s event id, read after the signature is verified.';
    uniqueness = {
      components: 'one provider event id per event; the provider guarantees it is unique within its account',
      randomBits: null,
      verdict: 'Sufficient by construction: the provider never reuses an event id, and every resend carries the same one.',
    };
  } else if (action.kind === 'cron') {
    intentSource = 'the scheduled slot the run belongs to (the fire time from the schedule, not the clock when it started)';
    intentExample = '2025-06-01T02:00Z';
    generator = 'Derived by the scheduler from the schedule slot; a late or overlapping run of the same slot computes the same key.';
    uniqueness = {
      components: 'one slot per schedule tick',
      randomBits: null,
      verdict: 'Unique by construction: each tick has exactly one slot. This is the one place a time value belongs in a key — it names the run, it is not read from the clock at retry time.',
    };
  } else if (action.kind === 'consumer' || action.kind === 'job') {
    intentSource = 'the producer-assigned event id carried in the message (a UUIDv4 set once at publish time, never the broker’s delivery tag or offset)';
    intentExample = exampleUuid(`${action.name}:event`);
    generator = 'Derived from the message: the producer sets the event id once (in the transactional outbox, before the first publish), so every redelivery and every re-publish carries it.';
    uniqueness = {
      components: 'a UUIDv4 event id: 122 random bits',
      randomBits: 122,
      verdict: 'Negligible collision risk at any practical volume, provided producers really use UUIDv4 (or ULID). A broker-assigned id is not enough: a re-published duplicate gets a new one.',
    };
  } else if (action.keySource === 'derived') {
    const fields = action.significantFields.join(' + ');
    intentSource = `SHA-256 (hex) of the stable intent fields: ${fields}`;
    intentExample = createHash('sha256').update(`${action.name}|${fields}`).digest('hex');
    generator = 'Derived by the server from the request content, so a client that cannot keep a key across retries still gets deduplication.';
    uniqueness = {
      components: `SHA-256 of ${fields}: two requests share a key exactly when these fields are equal`,
      randomBits: null,
      verdict: 'Hash collisions are negligible (256 bits); the real question is the business one. Two genuine, separate intents with identical fields would be merged into one — include a per-intent identifier (cart id, order id, invoice id) among the fields, or switch to client-generated keys.',
    };
  } else {
    const byServer = action.keySource === 'server';
    intentSource = byServer
      ? 'a UUIDv4 the server issues when the intent starts (e.g. when the checkout form is rendered) and the client sends back on every attempt'
      : 'a UUIDv4 the client generates once per user intent and resends on every retry';
    intentExample = exampleUuid(action.name);
    generator = byServer
      ? 'The server, once per intent; the client only echoes it. Use this when clients cannot be trusted to generate good keys.'
      : action.serverAction
        // Next.js sends no Idempotency-Key header for an action, and the page may be re-rendered between attempts.
        ? `The page, once per form render (\`crypto.randomUUID()\` in the server component, or \`useState(() => crypto.randomUUID())\` in a client one), sent as the hidden form field (or argument) \`idempotencyKey\` and resent unchanged when the user retries; a new key only for a new intent (after success, the next render). A server action gets no Idempotency-Key header.`
        : action.operation
        // One HTTP request may batch several operations, so one header cannot name each intent.
        ? `The client, once per intent, kept across retries, sent as an \`idempotencyKey\` argument of the mutation: every GraphQL operation shares ${action.route ?? '/graphql'}, and one request may batch several mutations, so no header can name each intent.`
        : 'The client, once per intent (when the user opens the form or presses the button the first time), kept across retries, sent in the `Idempotency-Key` header.';
    uniqueness = {
      components: 'a UUIDv4: 122 random bits',
      randomBits: 122,
      verdict: 'Negligible at any practical scale for UUIDv4 keys. The runtime validates only the charset (`[A-Za-z0-9_.:~-]`) and length (≤ 255), so it also accepts a short custom id such as `k1`: require UUIDs in your client SDK or API contract if entropy matters, and keys stay scoped per user either way.',
    };
  }
  // makeIdempotent (server actions) stores `<name>:<value>`; everything else `{action}_{intent}`.
  const storedKey = action.serverAction ? `${action.name}:${intentExample}` : `${action.name}_${intentExample}`;
  return {
    scope,
    scopeExample,
    intentSource,
    intentExample,
    storedKey,
    fullKey: `${scopeExample}_${storedKey}`,
    generator,
    uniqueness,
  };
}

/**
 * log10 of the birthday-bound collision probability for n ids of `bits` random bits.
 * @example birthdayLog10(1_000_000, 122) // ≈ -25
 */
export function birthdayLog10(n: number, bits: number): number {
  if (n < 2) return -Infinity;
  // p ≈ n(n-1) / 2^(bits+1) while p is small.
  return Math.log10(n) + Math.log10(n - 1) - (bits + 1) * Math.log10(2);
}

/**
 * Random bits an intent id needs so that n live ids collide with probability ≤ 10^targetLog10.
 * @example bitsNeeded(750_000) // 68
 */
export function bitsNeeded(n: number, targetLog10 = -9): number {
  if (n < 2) return 1;
  return Math.ceil(Math.log2(n) + Math.log2(n - 1) - 1 - targetLog10 * Math.log2(10));
}

/**
 * A probability written for people, from its log10.
 * @example formatProbability(-20.3) // '≈ 5 × 10^-21'
 */
export function formatProbability(log10: number): string {
  if (log10 === -Infinity) return '0';
  if (log10 >= -3) return `≈ ${Math.min(1, 10 ** log10).toPrecision(2)}`;
  const exponent = Math.floor(log10);
  const mantissa = 10 ** (log10 - exponent);
  return `≈ ${mantissa.toFixed(1)} × 10^${exponent}`;
}
