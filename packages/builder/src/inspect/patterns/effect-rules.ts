/**
 * Side effects described as data for the pattern scanners: each rule is a regex plus what a match
 * means (payment call, consumer, scheduler, database or broker client). Languages differ only in
 * their rule tables; the application of rules is shared here.
 */
import { formatLocation } from '../location.js';
import type { Broker, Database, FileFindings, Provider } from '../types.js';
import { keyExpressionIn, keyIssue } from '../provider-keys.js';
import { callText, matchesWithLines } from './line-patterns.js';

export type EffectRule =
  | { readonly kind: 'payment'; readonly pattern: RegExp; readonly value: Provider; readonly key: RegExp; readonly requires?: RegExp }
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
  for (const rule of rules) {
    if (rule.requires && !rule.requires.test(text)) continue;
    for (const { match, line, index } of matchesWithLines(text, rule.pattern)) {
      const location = formatLocation(relPath, line);
      const evidence = match[0].trim().replace(/\s+/g, ' ');
      switch (rule.kind) {
        case 'payment': {
          // From the call's own parenthesis: `new XService().CreateAsync(...)` has two.
          const call = callText(text, index + Math.max(0, match[0].lastIndexOf('(')));
          const key = rule.key.test(call) ? keyExpressionIn(call) : undefined;
          const issue = key ? keyIssue(key) : undefined;
          out.paymentCalls.push({
            provider: rule.value,
            call: evidence.replace(/\($/, ''),
            location,
            passesIdempotencyKey: rule.key.test(call),
            ...(key ? { keyExpression: key } : {}),
            ...(issue ? { keyIssue: issue } : {}),
          });
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
