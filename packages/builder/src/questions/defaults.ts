/**
 * The stated assumptions the flow falls back on when questions 3–7 stay unanswered, the generic
 * action of an agnostic design, and the reading of free-text answers to question 1. Every value
 * here travels with the sentence that justifies it, so the document can say what was assumed.
 */
import { KOA_DEFAULT_PRINCIPAL, type Action, type Answers } from '../answers.js';
import { HOUR, formatMs } from '../design/plan/durations.js';
import { PROVIDER_FACTS } from '../design/plan/providers.js';
import { camelCase } from './naming.js';

type RetrySource = Answers['retrySources'][number];
type Provider = NonNullable<Action['provider']>;

const SOURCES_BY_KIND: Record<Action['kind'], readonly RetrySource[]> = {
  http: ['client-retry', 'double-click'],
  webhook: ['webhook-resend'],
  consumer: ['queue-redelivery'],
  job: ['queue-redelivery'],
  cron: ['cron-overlap'],
};

/**
 * Retry sources implied by the kinds of the protected actions.
 * @example inferRetrySources([{ kind: 'http' }, { kind: 'consumer' }]) // ['client-retry', 'double-click', 'queue-redelivery']
 */
export function inferRetrySources(actions: readonly Pick<Action, 'kind'>[]): RetrySource[] {
  const out: RetrySource[] = [];
  for (const action of actions) for (const source of SOURCES_BY_KIND[action.kind]) if (!out.includes(source)) out.push(source);
  return out.length > 0 ? out : ['client-retry'];
}

/** The sentence stating how retry sources were inferred. */
export const RETRY_SOURCES_ASSUMPTION =
  'inferred from the kinds of the protected actions: HTTP endpoints see client retries and double-clicks, webhooks see provider resends, consumers see redelivery, scheduled jobs see overlapping runs';

/** Without payments, a day covers client retry windows (minutes) and next-morning manual retries. */
export const BASE_RETENTION_MS = 24 * HOUR;

/**
 * Retention that covers every involved provider's deduplication window (never below 24 h).
 * @example recommendedRetention(['adyen']) // { ms: 31 days, reason: '... Adyen ...' }
 */
export function recommendedRetention(providers: readonly Provider[]): { ms: number; reason: string } {
  let ms = BASE_RETENTION_MS;
  let reason = 'no payment provider window applies; 24 hours covers client retry windows and a next-day manual retry';
  for (const provider of providers) {
    const facts = PROVIDER_FACTS[provider];
    if (facts.windowMs >= ms) {
      ms = facts.windowMs;
      reason = `at least ${facts.name}'s deduplication window (${formatMs(facts.windowMs)}), so a retry the provider still recognises is also recognised locally`;
    }
  }
  return { ms, reason };
}

/** One indexed primary-key claim in the same region answers well within this. */
export const DEFAULT_DETECTION_LATENCY_MS = 100;
export const DETECTION_LATENCY_ASSUMPTION =
  'a duplicate must be rejected within 100 ms (p99): one indexed claim round trip to the store, with contested keys answered at once instead of waiting';

export const CONCURRENCY_ASSUMPTION =
  'several instances behind a load balancer (multi-instance): the safe choice, since the design must hold under concurrent duplicates on different nodes anyway';

export const SCOPE_ASSUMPTION = 'keys are scoped to the authenticated user (composite primary key of key + user id), the default that prevents key enumeration across users';

/** Koa: the principal taken when no handler reads one on `ctx.state`. */
export const KOA_PRINCIPAL_ASSUMPTION = `${KOA_DEFAULT_PRINCIPAL}, where koa-jwt and koa-passport put the authenticated user; no handler was seen reading a principal on ctx.state — change principalOf in koa.ts if yours lives elsewhere`;

/**
 * The placeholder action of a technology-agnostic design (question 1 unanswered).
 * @example genericAction().name // 'protectedAction'
 */
export function genericAction(): Action {
  return {
    name: 'protectedAction',
    kind: 'http',
    description: 'The critical action to protect (not named): any request that mutates state or calls an external system, e.g. creating a payment',
    method: 'POST',
    significantFields: ['amount', 'currency', 'recipientId'],
    keySource: 'client',
  };
}

const PROVIDER_WORDS: Array<[RegExp, Provider]> = [[/stripe/i, 'stripe'], [/adyen/i, 'adyen'], [/paypal/i, 'paypal'], [/braintree/i, 'braintree'], [/bank|sepa|wire/i, 'bank-transfer']];

function kindOf(text: string): Action['kind'] {
  if (/webhook|callback|notification from|ipn/i.test(text)) return 'webhook';
  if (/consum|message|event|queue|kafka|rabbit|sqs|nats|topic/i.test(text)) return 'consumer';
  if (/cron|nightly|hourly|daily|schedul|batch|sweep/i.test(text)) return 'cron';
  if (/\bjob\b|worker|background/i.test(text)) return 'job';
  return 'http';
}

/**
 * Fingerprint fields assumed when none are known: per kind, payments by their money fields.
 * @example defaultFields('webhook', 'stripe') // ['eventId', 'eventType']
 */
export function defaultFields(kind: Action['kind'], provider: Provider | undefined, text = ''): string[] {
  if (kind === 'webhook') return ['eventId', 'eventType'];
  if (kind === 'consumer' || kind === 'job') return ['payload'];
  if (kind === 'cron') return ['jobName', 'slot'];
  if (provider || /pay|charge|refund|transfer|payout|checkout/i.test(text)) return ['amount', 'currency', 'recipientId'];
  if (/order|cart|checkout/i.test(text)) return ['cartId', 'itemsHash'];
  if (/notif|email|sms|mail/i.test(text)) return ['recipientId', 'template'];
  return ['body'];
}

/** Answers that mean "I don't know" rather than naming an action. */
const UNKNOWN = /^(\?+|-|n\/?a|none|no idea|not sure|unsure|skip|i don'?t know|don'?t know|dunno|unknown)$/i;

/**
 * Actions from a free-text answer to question 1 (`create payment, process webhook`). Empty or
 * "don't know" gives an empty list.
 * @example parseActionsText('create payment via Stripe, nightly settlement')[1].kind // 'cron'
 */
export function parseActionsText(text: string): Action[] {
  const parts = text.split(/[,;\n]|\band\b/).map((part) => part.trim()).filter((part) => part && !UNKNOWN.test(part));
  return parts.map((part) => {
    const kind = kindOf(part);
    const provider = PROVIDER_WORDS.find(([pattern]) => pattern.test(part))?.[1];
    const name = camelCase(part.replace(/\b(via|with|using|through)\b.*$/i, '') || part);
    return {
      name,
      kind,
      description: part.charAt(0).toUpperCase() + part.slice(1),
      ...(kind === 'http' ? { method: 'POST' as const } : {}),
      significantFields: defaultFields(kind, provider, part),
      ...(provider ? { provider } : {}),
      keySource: kind === 'http' ? ('client' as const) : ('derived' as const),
    };
  });
}
