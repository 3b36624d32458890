/**
 * Side effects described as data for the pattern scanners: each rule is a regex plus what a match
 * means (payment call, consumer, scheduler, database or broker client). Languages differ only in
 * their rule tables; the application of rules is shared here.
 */
import { formatLocation } from '../location.js';
import { addEntry, appendArgument, fixSiteAt, KEY_PLACEHOLDER } from '../fix-site.js';
import type { Broker, CallProvider, Database, FileFindings, PaymentCallFinding } from '../types.js';
import { judgeKey, keyExpressionAt, operationOf } from '../provider-keys.js';
import { codeFamilyOf, maskCode } from './code-mask.js';
import { constantHeaderKey, constructedCarriers, functionStartBefore, keyCarriers, statementAt, type KeyCarrier } from './key-carriers.js';
import { callText, matchesWithLines } from './line-patterns.js';

export type EffectRule =
  | {
    readonly kind: 'payment'; readonly pattern: RegExp; readonly value: CallProvider; readonly key: RegExp; readonly requires?: RegExp;
    /** Where a missing key goes: a new last argument, or a first entry of the call's `{…}` argument; `{{KEY}}` = the derived key. */
    readonly fix?: { readonly argument: string } | { readonly entry: string; readonly unless?: RegExp };
    /** The match is a whole statement (an HTTP request builder): the key is looked for in it, not in one call's parentheses. */
    readonly statement?: boolean;
    /** The match constructs a request object the code sets up, then executes (`new OrdersCaptureRequest(id)`): the key is looked for in its setters. */
    readonly construction?: boolean;
    /** How the call is named: `requests POST /v2/checkout/orders/:id/capture` for REST, else the match. */
    readonly label?: (match: RegExpMatchArray) => string;
  }
  | { readonly kind: 'consumer'; readonly pattern: RegExp; readonly value: Broker; readonly channel?: number; readonly requires?: RegExp }
  | { readonly kind: 'scheduler'; readonly pattern: RegExp; readonly value: string; readonly schedule?: number; readonly handler?: number; readonly requires?: RegExp }
  | { readonly kind: 'database'; readonly pattern: RegExp; readonly value: Database; readonly requires?: RegExp }
  | { readonly kind: 'broker'; readonly pattern: RegExp; readonly value: Broker; readonly requires?: RegExp };

/**
 * Applies every rule to a file and appends located findings to `out`. Clients are reported once
 * per file and technology; everything else once per match.
 * @example
 * applyEffectRules('pay.py', 'stripe.Refund.create(charge=c)', [
 *   { kind: 'payment', pattern: /stripe\.Refund\.create/, value: 'stripe', key: /idempotency_key/ },
 * ], out); // out.paymentCalls[0].location === 'pay.py:1'
 */
export function applyEffectRules(relPath: string, text: string, rules: readonly EffectRule[], out: FileFindings): void {
  const seenClients = new Set<string>();
  // Rules match code only: a call commented out (`# Stripe::Charge.create(…)`) is no call, and a fix
  // diff into the comment would be wrong. Offsets and lines are unchanged, so findings read `text`.
  // Only Ruby and PHP are blanked here; other languages are matched as written.
  const family = codeFamilyOf(relPath);
  const code = family === 'ruby' || family === 'php' ? maskCode(text, family) : text;
  for (const rule of rules) {
    if (rule.requires && !rule.requires.test(code)) continue;
    for (const { match, line, index } of matchesWithLines(code, rule.pattern)) {
      const location = formatLocation(relPath, line);
      const evidence = match[0].trim().replace(/\s+/g, ' ');
      switch (rule.kind) {
        case 'payment': {
          out.paymentCalls.push(paymentFinding(relPath, text, rule, match, index, location, evidence));
          break;
        }
        case 'consumer': {
          const channel = rule.channel === undefined ? undefined : match[rule.channel];
          out.consumers.push({ broker: rule.value, ...(channel ? { channel } : {}), location, evidence });
          break;
        }
        case 'scheduler': {
          const schedule = rule.schedule === undefined ? undefined : match[rule.schedule];
          const handler = rule.handler === undefined ? undefined : match[rule.handler];
          out.schedulers.push({ mechanism: rule.value, ...(schedule ? { schedule } : {}), location, ...(handler ? { handler } : {}) });
          break;
        }
        case 'database':
          if (!seenClients.has(rule.value)) out.databases.push({ value: rule.value, location, evidence });
          seenClients.add(rule.value);
          break;
        case 'broker':
          if (!seenClients.has(rule.value)) out.brokers.push({ value: rule.value, location, evidence });
          seenClients.add(rule.value);
          break;
      }
    }
  }
}

type PaymentRule = Extract<EffectRule, { kind: 'payment' }>;

/**
 * A provider REST call's name: client, method and path with parameters as `:id`.
 * @example restLabel('requests', '/v2/checkout/orders/{order_id}/capture') // 'requests POST /v2/checkout/orders/:id/capture'
 */
export function restLabel(client: string, path: string): string {
  return `${client} POST ${path.replace(/\{[^}]*\}|#\{[^}]*\}|["']\s*\+\s*[\w.()]+\s*\+\s*["']|%s|%v/g, ':id')}`;
}

// The money-moving REST paths of PayPal (Orders v2, Payments v2, Payouts) and Stripe, as they appear inside a URL literal.
export const PAYPAL_REST_PATH = String.raw`\/v2\/checkout\/orders(?:\/[^"'\n]*?\/(?:capture|authorize))?|\/v2\/payments\/(?:authorizations\/[^"'\n]*?\/capture|captures\/[^"'\n]*?\/refund)|\/v1\/payments\/payouts`;
export const STRIPE_REST_PATH = String.raw`\/v1\/(?:payment_intents|charges|refunds|payouts|transfers|checkout\/sessions)(?:\/[^"'\n]*?\/(?:confirm|capture|cancel))?`;

/**
 * The value a bare name (`key`, `$key`) was last given before `before` (`key = f"..."`, `key := ...`,
 * `String key = ...`), with its offset: in the function around `before`, else a module- or
 * class-level constant — never another function's local of the same name, as the TS scanner.
 */
function assignedBefore(text: string, name: string, before: number): { value: string; offset: number } | undefined {
  return assignedIn(text, name, functionStartBefore(text, before), before) ?? assignedIn(text, name, 0, before, true);
}

function assignedIn(text: string, name: string, from: number, before: number, constantsOnly = false): { value: string; offset: number } | undefined {
  const escaped = name.replace(/\$/g, '\\$');
  const pattern = new RegExp(`(?:^|[\\s;(])(?:(?:final\\s+)?(?:var|val|let|const|String|string|\\w+)\\s+)?${escaped}\\b\\s*(?::=|=(?![=>]))\\s*`, 'g');
  let found: { value: string; offset: number } | undefined;
  for (const m of text.slice(from, before).matchAll(pattern)) {
    const at = from + (m.index ?? 0);
    const line = text.slice(text.lastIndexOf('\n', at) + 1, at + m[0].length);
    // Outside the function: only a declaration at the top level or a constant (`static final`, `const`, `readonly`).
    if (constantsOnly && !/^\S|\b(?:static\s+final|final\s+static|const|readonly)\b/.test(line)) continue;
    const offset = at + m[0].length;
    // The whole statement: a value may span lines (`$key = $this->helper->make(\n $request\n);`).
    const value = statementAt(text, offset).trim().replace(/;$/, '').replace(/,\s*$/, '').trim();
    found = { value, offset };
  }
  return found;
}

/** `headers=h` / `headers: h` passed by name: the dict or map that name was given, so the key inside it is seen. */
function resolvedHeaders(text: string, call: string, before: number): { searched: string; from: number } {
  const name = /headers\s*[=:]\s*([A-Za-z_]\w*)\b(?!\s*[({[])/.exec(call)?.[1];
  if (!name) return { searched: call, from: before };
  // The last assignment of that name before the call (`headers = {` on its own line), not a keyword argument elsewhere.
  const assignments = [...text.slice(0, before).matchAll(new RegExp(`(?:^|\\n)[ \\t]*${name}\\s*(?::\\s*[\\w\\[\\], ]+)?=\\s*\\{`, 'g'))];
  const last = assignments[assignments.length - 1];
  const start = last ? (last.index ?? 0) + last[0].indexOf(name) : -1;
  // Braces read as parentheses so the dict's extent is found the way a call's is.
  return start < 0 ? { searched: call, from: before } : { searched: `${call}\n${callText(text.replace(/\{/g, '(').replace(/\}/g, ')'), start)}`, from: start };
}

/** The first key expression among the call's own text and the statements that set up what it passes, with its offset. */
function writtenKey(text: string, call: { searched: string; from: number }, carriers: readonly KeyCarrier[]): { written: string; offset: number } | undefined {
  const own = keyExpressionAt(call.searched);
  if (own) return { written: own.value, offset: text.indexOf(own.value, call.from) };
  for (const carrier of carriers) {
    const at = keyExpressionAt(carrier.text) ?? constantHeaderKey(text, carrier.text);
    if (!at) continue;
    // A helper's parameter stands for the argument the call gives it (`options(order.getId())`).
    const bound = carrier.bindings?.get(at.value);
    return bound ? { written: bound.text, offset: bound.offset } : { written: at.value, offset: carrier.offset + at.index };
  }
  return undefined;
}

/** One provider call found by a rule: its key, the key's verdict, and where the fix goes. */
function paymentFinding(relPath: string, text: string, rule: PaymentRule, match: RegExpMatchArray, index: number, location: string, evidence: string): PaymentCallFinding {
  // From the call's own parenthesis: `new XService().CreateAsync(...)` has two.
  const open = index + Math.max(0, match[0].lastIndexOf('('));
  const call = rule.statement ? match[0] : callText(text, open);
  const own = resolvedHeaders(text, call, index);
  // The key is often set on what the call passes, or on the request object the code builds, not in the call.
  const carriers = rule.statement ? [] : rule.construction ? constructedCarriers(text, index) : keyCarriers(text, open, call);
  const passes = rule.key.test(own.searched) || carriers.some((carrier) => rule.key.test(carrier.text) || constantHeaderKey(text, carrier.text) !== undefined);
  const name = rule.label ? rule.label(match) : evidence.replace(/\($/, '');
  const base = { provider: rule.value, call: name, location };
  const key = passes ? writtenKey(text, own, carriers) : undefined;
  if (!passes || !key) {
    const fix = passes ? undefined : missingKeyFix(relPath, text, rule, open, call);
    return { ...base, passesIdempotencyKey: passes, ...(fix ? { fix } : {}) };
  }
  const { written } = key;
  const assigned = /^\$?[A-Za-z_]\w*$/.test(written) ? assignedBefore(text, written, key.offset >= 0 ? key.offset : index) : undefined;
  const valueOffset = assigned?.offset ?? key.offset;
  const value = assigned?.value ?? written;
  const verdict = judgeKey(value, operationOf(name));
  const keyLocation = valueOffset >= 0 ? fixSiteAt(relPath, text, valueOffset, 0, '')?.location : undefined;
  const fix = verdict.verdict !== 'sound' && valueOffset >= 0 ? fixSiteAt(relPath, text, valueOffset, value.length, KEY_PLACEHOLDER) : undefined;
  return {
    ...base, passesIdempotencyKey: true, keyExpression: written,
    ...(verdict.verdict === 'unsound' ? { keyIssue: verdict.reason } : {}),
    keyVerdict: verdict,
    ...(keyLocation ? { keyLocation } : {}),
    ...(fix ? { fix } : {}),
  };
}

function missingKeyFix(relPath: string, text: string, rule: PaymentRule, open: number, call: string): PaymentCallFinding['fix'] {
  if (!rule.fix || rule.statement || !call.endsWith(')')) return undefined;
  if ('argument' in rule.fix) {
    // Ruby keyword-style parameters (`create(amount: 1, currency: 'usd')`) take no hash after them:
    // they are braced into the params hash the options hash then follows.
    const paren = call.indexOf('(');
    const inner = call.slice(paren + 1, -1);
    if (relPath.endsWith('.rb') && /^\s*\w+:\s/.test(inner)) return fixSiteAt(relPath, text, open + paren + 1, inner.length, `{ ${inner.trim()} }, ${rule.fix.argument}`);
    return appendArgument(relPath, text, open + call.length - 1, rule.fix.argument);
  }
  const brace = /^\(\s*\{/.exec(call);
  if (!brace || rule.fix.unless?.test(call)) return undefined;
  return addEntry(relPath, text, open + brace[0].length - 1, rule.fix.entry);
}
