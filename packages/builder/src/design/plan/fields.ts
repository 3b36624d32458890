/**
 * Fingerprint fields: why each significant field belongs in the hash, and which fields are left
 * out (and why) for each kind of action.
 */
import type { Action } from '../../answers.js';

export interface FieldReason {
  readonly field: string;
  readonly reason: string;
}

const REASONS: readonly [RegExp, string][] = [
  [/amount|total|price|sum|value|cents|fee/i, 'how much money moves; another amount is another payment'],
  [/currency/i, 'the same number in another currency is a different charge'],
  [/recipient|payee|destination|beneficiary|iban|merchant|to_?account|^to$/i, 'who receives the funds or the effect'],
  [/payment_?method|card|source|instrument|token|wallet/i, 'which instrument is debited'],
  [/customer|payer|user|member|client/i, 'on whose behalf the action runs (beyond the authenticated scope)'],
  [/order|cart|basket|invoice|booking|reservation|subscription|plan/i, 'which business object the intent refers to; it separates two genuine purchases with equal amounts'],
  [/item|sku|product|quantity|qty|line|seat/i, 'what is bought or reserved; changing it changes the result'],
  [/email|phone|address|channel|template|subject|message|body|text/i, 'what is sent and to whom'],
  [/event|type|status|state|action/i, 'which state transition is requested'],
  [/id$|_id$|Id$/, 'which record the action touches'],
];

/**
 * Why a field is semantically significant, from its name.
 * @example fieldReason('currency') // 'the same number in another currency is a different charge'
 */
export function fieldReason(field: string): string {
  for (const [pattern, reason] of REASONS) if (pattern.test(field)) return reason;
  return 'changes the effect the caller asked for, so a different value is a different intent';
}

export const BINDING_FIELD = '(method and path)';
/** Shown when no field is named: the canonical JSON of the whole body is the fingerprint. */
export const WHOLE_BODY = '(the whole request body, canonical JSON)';

/**
 * The hashed fields of an action, each with why it is significant; the route binding comes first.
 * @example significantFields(action).map((f) => f.field) // ['(method and path)', 'amount', …]
 */
export function significantFields(action: Action): FieldReason[] {
  const http = action.kind === 'http' || action.kind === 'webhook';
  const binding = http ? `${action.method ?? 'POST'} ${action.route ?? `/${action.name}`}` : `${action.kind} ${action.channel ?? action.name}`;
  // No named fields (the handler does not name what it reads): the whole body is hashed rather
  // than invented field names, which would hash `undefined` and let any change pass as a replay.
  const fields = action.significantFields.length > 0
    ? action.significantFields.map((field) => ({ field, reason: fieldReason(field) }))
    : [{ field: WHOLE_BODY, reason: 'the handler does not name the fields it reads, so every byte of the request body counts: any change is a different intent (409), at the cost of treating a reordered or reformatted equal body as the same only after canonicalisation' }];
  return [
    { field: BINDING_FIELD, reason: `binds the fingerprint to \`${binding}\`, so one key reused on another endpoint is a mismatch, never a replay of the wrong response` },
    ...fields,
  ];
}

const COMMON_EXCLUDED: readonly FieldReason[] = [
  { field: 'the idempotency key itself', reason: 'it is the record’s identity; hashing it into its own fingerprint adds nothing' },
  { field: 'client timestamps (`timestamp`, `createdAt`, `sentAt`)', reason: 'they change on every retry of the same intent, which would turn each retry into a 409' },
  { field: 'request and trace ids (`requestId`, `traceId`, `X-Request-Id`, `traceparent`)', reason: 'generated per attempt by clients and proxies' },
  { field: 'authentication (`Authorization`, cookies, session ids)', reason: 'the identity is already the scope column; tokens rotate between retries (refresh) and must never be stored' },
  { field: 'transport metadata (`User-Agent`, client version, `Accept-*`, retry counters)', reason: 'they describe the attempt, not the intent' },
];

const KIND_EXCLUDED: Record<Action['kind'], readonly FieldReason[]> = {
  http: [],
  consumer: [
    { field: 'delivery metadata (delivery tag, `redelivered` flag, `x-death`, offsets, receipt handles)', reason: 'they differ between deliveries of the same message by design' },
  ],
  job: [
    { field: 'job attempt number, queue timestamps, worker id', reason: 'they differ between runs of the same job' },
  ],
  webhook: [
    { field: 'signature headers (`Stripe-Signature`, HMAC headers) and delivery attempt counters', reason: 'providers re-sign every resend with a new timestamp; verify the signature, then leave it out' },
  ],
  cron: [
    { field: 'the actual start time and host name', reason: 'an overlapping or late run of the same slot starts at another time on another host' },
  ],
};

/**
 * Fields deliberately left out of the fingerprint for this action, with reasons.
 * @example excludedFields(action)[0].field // 'the idempotency key itself'
 */
export function excludedFields(action: Action): FieldReason[] {
  return [...COMMON_EXCLUDED, ...KIND_EXCLUDED[action.kind]];
}
