/**
 * Section 6.1: every money-moving provider call found in the code, with the key it passes and the
 * verdict on that key; each call without a sound key gets its fix at its own line.
 */
import type { ProviderCall } from '../../answers-provider-calls.js';
import { bullets, callout, code, codeBlock, labelled, para, plain, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { callFix, type CallFix } from '../plan/provider-call-fixes.js';
import { artifactAt, type DesignContext } from './context.js';

const NAME: Record<ProviderCall['provider'], string> = { stripe: 'Stripe', adyen: 'Adyen', paypal: 'PayPal', braintree: 'Braintree', 'bank-transfer': 'Bank transfer' };
const FIELD: Record<ProviderCall['provider'], string> = {
  stripe: 'the `Idempotency-Key` (stripe-node option `idempotencyKey`)',
  adyen: 'the `Idempotency-Key` header (request option `idempotencyKey`)',
  paypal: 'the `PayPal-Request-Id` header (server SDK `paypalRequestId`)',
  braintree: '`orderId` (and `apiRequestKey` where At-Most-Once Processing is enabled)',
  'bank-transfer': 'the `EndToEndId`',
};

type Verdict = 'sound' | 'unsound' | 'unknown' | 'missing';

function verdictOf(call: ProviderCall): { verdict: Verdict; reason: string } {
  if (!call.passesIdempotencyKey) {
    return call.provider === 'braintree'
      ? { verdict: 'missing', reason: 'no `apiRequestKey`: a retry after a timeout creates a second transaction unless Braintree’s duplicate check (same amount, card and `orderId` within its window, 30 s by default) happens to catch it' }
      : { verdict: 'missing', reason: 'no provider key: a retry after a timeout moves the money a second time' };
  }
  if (call.keyVerdict) return call.keyVerdict;
  return call.keyIssue ? { verdict: 'unsound', reason: call.keyIssue } : { verdict: 'unknown', reason: 'the key could not be read from the code' };
}

function keyCell(call: ProviderCall): ReturnType<typeof plain> {
  if (!call.passesIdempotencyKey) return plain('none');
  return call.keyExpression ? [code(call.keyExpression), ...(call.keyLocation && call.keyLocation !== call.location ? plain(` (${call.keyLocation})`) : [])] : plain('passed (not readable)');
}

function fixBlocks(call: ProviderCall, fix: CallFix): Block[] {
  const at = call.fix?.location ?? call.location;
  const field = rich(FIELD[call.provider]);
  const out: Block[] = [];
  if (call.provider === 'braintree' && !call.fix) {
    const lookup = call.operation === 'refund' ? 'read the original transaction’s `refundIds` (`gateway.transaction.find`)' : 'look the transaction up by its `orderId` (`gateway.transaction.search` on `orderId`)';
    out.push(para(txt`Fix at ${at} (${call.call}): run it inside the action’s claim, and before a retry of the same local key find the earlier attempt instead of sending it again — ${rich(lookup)}; where the account has At-Most-Once Processing, pass ${fix.expression ? [code(fix.expression)] : 'the derived key'} as \`apiRequestKey\`.`));
    return out;
  }
  if (fix.diff) {
    const where = fix.imports?.includes('./idempotency/') ? ' (the path of the generated `provider-keys.ts` in your tree)' : '';
    out.push(para(txt`Fix at ${at} (${call.call}): send ${field} derived from the action’s local key, step ${[code(call.operation)]}.${fix.imports ? txt` Add ${[code(fix.imports)]}${rich(where)}.` : ''}`));
    out.push(codeBlock('text', fix.diff, `${at} — fix`));
    return out;
  }
  const snippet = fix.expression
    ? txt`pass ${field} = ${[code(fix.expression)]}${fix.imports ? txt` (${[code(fix.imports)]})` : ''}`
    : txt`pass ${field} = the provider key derived from the action’s local key (${call.provider === 'paypal' ? 'UUIDv5 of `{scope}:{key}:{step}`' : '`{scope}:{key}:{step}`, fitted to the provider’s limit'}, as the runtime’s \`/payments\` derivation and the generated \`provider_keys\` module compute it)`;
  out.push(para(txt`Fix at ${at} (${call.call}): the call’s shape allows no line edit here; ${snippet}.`));
  return out;
}

const BRAINTREE_FACTS = [
  txt`Braintree’s server SDKs accept \`apiRequestKey\` on \`transaction.sale\`, \`credit\`, \`refund\`, \`void\`, \`submitForSettlement\` and \`submitForPartialSettlement\` (braintree_node 3.37.0, braintree_python 4.43.0, braintree_ruby 4.36.0): the same key within 30 days returns the first transaction in its current state; a key reused with other input, or while the first request is in flight, is a validation error; at most 255 characters.`,
  txt`Braintree documents this At-Most-Once Processing as limited to selected merchants and mutually exclusive with duplicate transaction checking; an account without it answers \`ApiRequestKeyNotAllowed\` (915231). So the fixes below do not add it: they put the derived key in \`orderId\`, which every account accepts.`,
  txt`What protects a Braintree call without \`apiRequestKey\`: the local claim (one execution per local key; a duplicate waits or replays), the derived \`orderId\` on the transaction (Braintree’s duplicate check compares amount, card and \`orderId\` within its window, 30 s by default — a guard against double clicks, not a key), and reconciliation: before re-sending an intent whose record is still in progress, search the transactions by that \`orderId\` and complete the record from what is found (section 6).`,
];

/**
 * The provider-calls subsection, or none when the inspection found no provider call.
 * @example providerCallsSection(ctx)?.title // '6.1 Provider calls in the code'
 */
export function providerCallsSection(ctx: DesignContext): Section | undefined {
  const calls = ctx.plan.answers.providerCalls;
  if (calls.length === 0) return undefined;
  const fixContext = {
    stackLanguage: ctx.plan.stack.language,
    tsProviderKeys: artifactAt(ctx, 'provider-keys.ts') !== undefined,
    standaloneKeys: ['provider_keys.py', 'ProviderKeys.java', 'provider_keys.go'].some((path) => artifactAt(ctx, path) !== undefined),
  };
  const judged = calls.map((call) => ({ call, ...verdictOf(call) }));
  const needFix = judged.filter((j) => j.verdict !== 'sound');
  const rows = judged.map(({ call, verdict, reason }) => [
    // Reasons are authored prose (provider-keys.ts) quoting identifiers in backticks.
    plain(call.location), plain(NAME[call.provider]), [code(call.call)], plain(call.operation), keyCell(call), [{ strong: verdict }], rich(reason),
  ]);
  const fixes = needFix.flatMap(({ call }) => fixBlocks(call, callFix(call, fixContext)));
  const names = callFix(needFix[0]?.call ?? calls[0] as ProviderCall, fixContext).keyName;
  return section('provider-calls', '6.1 Provider calls in the code', [
    para(txt`The inspection found ${String(calls.length)} money-moving provider call${calls.length === 1 ? '' : 's'}; ${String(needFix.length)} without a sound key. A key is sound when it is derived from the local idempotency key or is a stored unique id of the intent: one per intent, the same on every retry. It is unsound when it is made at the call (a random value or a time: a retry sends a new one) or built from values two distinct intents share (user, card, order, amount).`),
    table(['Where', 'Provider', 'Call', 'Operation', 'Key passed', 'Verdict', 'Why'], rows, 'Every money-moving provider call found'),
    ...(needFix.length > 0 ? [para(txt`In the fixes, ${[code(names)]} and \`scope\` are the action’s local key and scope — the request’s \`Idempotency-Key\` and the authenticated user id the middleware claims with — passed down to the code that calls the provider${ctx.plan.actions.some((a) => a.action.serverAction) ? txt`; for a server action, the key its wrapper claims with (${code('<action>:<idempotencyKey>')}, the form's \`idempotencyKey\` field after the action's name) and the signed-in user id` : ''}. The step (${[code(needFix[0]?.call.operation ?? 'charge')]}, …) keeps two provider calls of one intent apart.`)] : []),
    ...(calls.some((c) => c.provider === 'braintree') ? [callout('note', 'Braintree', BRAINTREE_FACTS)] : []),
    ...fixes,
    ...(needFix.length === 0 ? [bullets([labelled('All sound', txt`every provider call found passes a key that is one per intent and stable across retries.`)])] : []),
  ]);
}
