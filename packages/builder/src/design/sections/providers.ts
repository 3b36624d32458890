/** Section 6: payment provider coordination — local keys propagated deterministically to providers. */
import { bullets, callout, code, codeBlock, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import { PROVIDER_FACTS, type Provider } from '../plan/providers.js';
import { artifactAt, type DesignContext } from './context.js';
import { groupBy, groupNames } from './grouping.js';
import { providerCallsSection } from './provider-calls.js';

const HOW: Record<Provider, string> = {
  stripe: 'Pass the local key as the `Idempotency-Key` header (request option `idempotencyKey` in stripe-node). The key sent is derived by the runtime (`stripeIdempotencyKey` in `@idempotency-builder/runtime/payments`): `{scope}:{key}` (and `:{step}` for a sub-operation), as is when it fits 255 characters of `[A-Za-z0-9_.:-]`, otherwise a readable prefix plus `~h` and the base64url SHA-256 of the whole, exactly 255 long. If Stripe answers with a cached result (`Idempotent-Replayed: true`), store it locally as COMPLETED. A key reused with different parameters is an error at Stripe as well as locally.',
  adyen: 'Adyen’s `Idempotency-Key` header allows 64 characters, fewer than local keys may have: the runtime sends `{scope}:{key}` when it fits, otherwise a prefix plus `~h` and the base64url SHA-256 of the whole, exactly 64 long (`adyenIdempotencyKey`). The merchant `reference` (max 80) is `{scope}:{key}_{step}`, fitted the same way (`adyenReference`), so every step of a saga has its own reference and reconciliation can find it.',
  braintree: 'Braintree has no general idempotency key: At-Most-Once Processing (`apiRequestKey`) is only for merchants Braintree enables, and excludes duplicate transaction checking. So the sale carries `orderId` = `{scope}:{key}:charge` fitted to 255 (`braintreeOrderId`), which Braintree’s duplicate check compares (amount, card, `orderId`, 30 s by default) and its transaction search finds. Before a retry of an intent whose outcome is unknown (the record still PROCESSING after its lease, or the call timed out), search the transactions by that `orderId`: one found → complete the record with it, none → release and run once, two → a split brain to refund by hand (in TypeScript, the generated `braintreeLookup` for the runtime’s `reconcile()`). A retry that Braintree rejects as a duplicate (`gateway_rejected`, reason `duplicate`) went through the first time: look it up the same way. Where the account has At-Most-Once Processing, pass the same value as `apiRequestKey`.',
  paypal: 'Send `PayPal-Request-Id` = UUIDv5(namespace, `{scope}:{key}`) (`paypalRequestId`) — a UUID, as PayPal expects, derived from the key with a namespace fixed for this service forever. Also set `invoice_id` (or `custom_id`) to the local key for lookups.',
  'bank-transfer': 'Put the derived `EndToEndId` (first 35 hex characters of SHA-256 of the key) on the instruction; it returns on every statement line and is the reconciliation handle. Few banks deduplicate on it, so the local store is the real guard.',
};

/**
 * Section 6: payment provider coordination (or why there is none).
 * @example providersSection({ plan, artifacts })
 */
export function providersSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const used = [...new Set([...plan.answers.paymentProviders, ...plan.actions.flatMap((a) => (a.action.provider ? [a.action.provider] : []))])];
  // Every money-moving call found in the code, with its key verdict and fix.
  const calls = providerCallsSection(ctx);
  const children = calls ? [calls] : [];
  if (used.length === 0) {
    return section('providers', '6. Payment provider coordination', [
      para(txt`No payment provider is involved${calls ? ' in the protected actions' : ''}. One added later gets a key derived from the local key (Stripe/Adyen \`Idempotency-Key\`, PayPal \`PayPal-Request-Id\`, Braintree \`orderId\`), and key expiry rises to its window (1 to 45 days).`),
    ], children);
  }
  const rows = used.map((provider) => {
    const facts = PROVIDER_FACTS[provider];
    return [facts.name, rich(facts.mechanism), `${formatMs(facts.windowMs)} — ${facts.windowText}`, HOW[provider]];
  });
  // The derivation is one function per provider: one worked example each is enough.
  const examples = [...new Map(plan.actions.filter((a) => a.providerKeys.length > 0).map((a) => [a.action.provider, a])).values()].flatMap((a) =>
    a.providerKeys.map((example) => [[code(a.action.name)], [code(a.key.fullKey)], `${example.header}`, [code(example.value)], example.reference ? [code(example.reference)] : '—']),
  );
  const keys = artifactAt(ctx, plan.stack.language === 'python' ? 'provider_keys.py' : plan.stack.language === 'go' ? 'provider_keys.go' : plan.stack.language === 'java' ? 'ProviderKeys.java' : 'provider-keys.ts');
  return section('providers', '6. Payment provider coordination', [
    para(txt`The local key must reach the provider’s own deduplication, so that a retry after a timeout is recognised by both layers as the same logical request.`),
    callout('warning', 'Invariant', [txt`Never generate a fresh provider reference on retry. Every provider key below is a pure function of the local key; the same local key always yields the same provider key, in every language and on every server.`]),
    table(['Provider', 'Native mechanism', 'Dedup window', 'Coordination'], rows),
    table(['Action', 'Local key', 'Provider field', 'Provider key', 'Reference (step 1)'], examples, 'Derived keys for the examples of section 2'),
    bullets(groupBy(plan.actions.filter((a) => a.action.provider && a.action.kind !== 'webhook'), (a) => `${a.retention.ttlMs}|${a.action.provider}`, (a) => a).map(({ actions, value: a }) => labelled('Key expiry', txt`${groupNames(actions)} keep${actions.length === 1 ? 's' : ''} the local record ${formatMs(a.retention.ttlMs)}, at least ${PROVIDER_FACTS[a.action.provider as Provider].name}’s ${formatMs(PROVIDER_FACTS[a.action.provider as Provider].windowMs)}: a retry the provider would still recognise must be recognised locally too, or the local side would run it as new.`))),
    ...(keys ? [codeBlock(keys.language === 'markdown' ? 'text' : keys.language, keys.content, keys.path)] : []),
  ], children);
}
