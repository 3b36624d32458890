/**
 * The CI check: which mutating entry points with a duplicate cost are unprotected, and which
 * money-moving provider calls pass no sound provider idempotency key — each with `path:line`, a
 * fix, and an allow-list so a team can accept a finding on purpose.
 */
import { readFileSync } from 'node:fs';
import type { EndpointFinding, Inspection, PaymentCallFinding } from './types.js';

export interface AuditViolation {
  readonly kind: 'unprotected-entry-point' | 'webhook-without-event-dedup' | 'provider-call-without-key' | 'provider-key-unsound';
  /** `POST /orders` or the SDK call. */
  readonly subject: string;
  readonly location: string;
  readonly cost: string;
  readonly fix: string;
}

export interface AuditResult {
  readonly violations: readonly AuditViolation[];
  /** Violations matched by the allow-list, kept visible. */
  readonly allowed: readonly AuditViolation[];
  readonly checkedEntryPoints: number;
  readonly checkedProviderCalls: number;
}

/** The cost levels that fail the audit: money and outbound effects by default, writes with `includeWrites`. */
export interface AuditOptions {
  readonly includeWrites?: boolean;
  /** Allow-list entries: `POST /path`, `path:line`, `path` (a whole file) or a provider call text. */
  readonly allow?: readonly string[];
}

/**
 * Reads an allow-list file: one entry a line, `#` starts a comment.
 * @example parseAllowList('POST /api/login  # tokens are never replayed\nsrc/legacy/pay.ts:40') // ['POST /api/login', 'src/legacy/pay.ts:40']
 */
export function parseAllowList(text: string): string[] {
  return text.split('\n').map((line) => line.replace(/#.*$/, '').trim()).filter(Boolean);
}

/**
 * Loads the allow-list at `path`, or none when it does not exist.
 * @example loadAllowList('.idempotency-allow')
 */
export function loadAllowList(path: string): string[] {
  try {
    return parseAllowList(readFileSync(path, 'utf8'));
  } catch {
    return [];
  }
}

/** The same fix, in the call's own language. */
function stripeExample(call: PaymentCallFinding): string {
  const ext = /\.(\w+):\d+$/.exec(call.location)?.[1] ?? 'ts';
  switch (ext) {
    case 'py': return `${call.call}(..., idempotency_key=f"{idempotency_key}:1")`;
    case 'go': return 'params.SetIdempotencyKey(idempotencyKey + ":1")';
    case 'rb': return `${call.call}({...}, { idempotency_key: "#{idempotency_key}:1" })`;
    case 'php': return `${call.call}([...], ['idempotency_key' => $idempotencyKey . ':1'])`;
    case 'java': case 'kt': return `${call.call}(params, RequestOptions.builder().setIdempotencyKey(idempotencyKey + ":1").build())`;
    case 'cs': return `service.CreateAsync(options, new RequestOptions { IdempotencyKey = idempotencyKey + ":1" })`;
    default: return `${call.call}(params, { idempotencyKey: \`\${idempotencyKey}:1\` })`;
  }
}

function providerFix(call: PaymentCallFinding): string {
  const option = call.provider === 'paypal' ? 'the PayPal-Request-Id header' : call.provider === 'stripe' ? 'an idempotency key'
    : call.provider === 'braintree' ? 'orderId (and apiRequestKey where Braintree has enabled At-Most-Once Processing; reconcile by orderId before a retry)' : 'the Idempotency-Key header';
  const example = call.provider === 'stripe' ? stripeExample(call) : `send ${option} = the request's idempotency key (or the order id) + a step suffix`;
  const why = call.keyIssue ? ` The key now passed (${call.keyExpression ?? 'as written'}) is ${call.keyIssue}.` : '';
  return `At ${call.location}: pass ${option} derived from the action's local idempotency key (one key per intent, the same on every retry), e.g. ${example}.${why}`;
}

function matchesAllow(allow: readonly string[], violation: AuditViolation): boolean {
  const file = violation.location.replace(/:\d+$/, '');
  return allow.some((entry) => entry === violation.subject || entry === violation.location || entry === file
    || (entry.endsWith('/') && violation.location.startsWith(entry)));
}

function entryViolation(endpoint: EndpointFinding, includeWrites: boolean): AuditViolation | undefined {
  const level = endpoint.cost?.level ?? 'write';
  const subject = `${endpoint.method} ${endpoint.route}${endpoint.operation ? ` ${endpoint.operation}` : endpoint.serverAction ? ` server action ${endpoint.serverAction.name}` : ''}`;
  if (endpoint.protection) return undefined;
  if (endpoint.webhook) {
    return {
      kind: 'webhook-without-event-dedup', subject, location: endpoint.location, cost: 'a resent event is applied twice',
      fix: `Record the provider's event id (Stripe \`event.id\`, Adyen \`pspReference\`+\`eventCode\`, PayPal event id) under a unique constraint before applying the event at ${endpoint.location}; answer 2xx only after it is recorded. Never require an Idempotency-Key header: the provider does not send one.`,
    };
  }
  const fails = level === 'money' || level === 'external' || (includeWrites && level === 'write');
  if (!fails) return undefined;
  return {
    kind: 'unprotected-entry-point', subject, location: endpoint.location, cost: `${level}: ${endpoint.cost?.evidence.join('; ') ?? 'writes'}`,
    fix: `Protect ${subject} ${endpoint.serverAction ? "by wrapping the action with the runtime's makeIdempotent (/functions) keyed by an idempotencyKey form field the page generates once per render — a server action has no route and no Idempotency-Key header" : endpoint.operation ? "by wrapping its resolver with the runtime's makeIdempotent (/functions) keyed by the mutation's idempotencyKey argument — route middleware on the shared GraphQL endpoint cannot tell operations apart" : "with the runtime's middleware keyed by the Idempotency-Key header"} (fingerprint: ${endpoint.bodyFields.length > 0 ? endpoint.bodyFields.filter((f) => !(endpoint.secretFields ?? []).includes(f)).join(', ') : 'the canonical JSON of the whole body'}), or allow-list it with a reason.`,
  };
}

/**
 * Audits an inspection.
 * @example const result = auditInspection(await inspectCodebase('.'), { allow: loadAllowList('.idempotency-allow') }); result.violations.length
 */
export function auditInspection(inspection: Inspection, options: AuditOptions = {}): AuditResult {
  const all: AuditViolation[] = [];
  const mutating = inspection.endpoints;
  for (const endpoint of mutating) {
    const violation = entryViolation(endpoint, options.includeWrites ?? false);
    if (violation) all.push(violation);
  }
  for (const call of inspection.paymentCalls) {
    if (!call.passesIdempotencyKey) {
      all.push({ kind: 'provider-call-without-key', subject: call.call, location: call.location, cost: 'a retry of this call moves money twice at the provider', fix: providerFix(call) });
    } else if (call.keyIssue) {
      all.push({ kind: 'provider-key-unsound', subject: `${call.call} key ${call.keyExpression ?? ''}`.trim(), location: call.location, cost: call.keyIssue, fix: providerFix(call) });
    }
  }
  const allow = options.allow ?? [];
  return {
    violations: all.filter((v) => !matchesAllow(allow, v)),
    allowed: all.filter((v) => matchesAllow(allow, v)),
    checkedEntryPoints: mutating.length,
    checkedProviderCalls: inspection.paymentCalls.length,
  };
}
