/** Section 5: partial failure recovery — orphaned claims, half-done actions, dead vs slow, cleanup. */
import { bullets, codeBlock, labelled, link, para, plain, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { formatCount, formatMs } from '../plan/durations.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import { analysisAnchor } from './action-analysis.js';
import { artifactAt, generatedTransactional, recoveryInCode, type DesignContext } from './context.js';
import { groupBy, groupLabel, groupNames, withoutName } from './grouping.js';
import { claimSequenceDiagram } from './diagrams.js';

const CLEANUP_TEXT = {
  postgresql: 'A job deletes expired COMPLETED/FAILED rows every minute, 1,000 at a time (`purgeExpired`, `SKIP LOCKED`: it never waits for a claim), on every instance; PROCESSING rows are never purged.',
  mysql: 'A job deletes expired COMPLETED/FAILED rows every minute, 1,000 at a time (`DELETE … ORDER BY expires_at LIMIT`); safe on every instance at once. PROCESSING rows are never purged.',
  sqlite: 'A job deletes expired COMPLETED/FAILED rows every minute, 1,000 per short write transaction. PROCESSING rows are never purged.',
  redis: 'Redis deletes each finished record by its `PEXPIREAT`; PROCESSING records never expire by themselves. A small job only counts records (SCAN on a replica) for the store_size gauge.',
  dynamodb: 'DynamoDB TTL on `ttl` (expiresAt plus a grace period) deletes expired items, typically within 48 hours; every condition checks `expiresAt` itself, so a late deletion never makes a record replayable.',
  mongodb: 'The TTL index on `expires_at` deletes expired documents (every 60 s); claims check `expires_at` themselves, so a late deletion never makes a record replayable.',
} as const;

/** The closing sentence every retention justification shares (design/plan/timing.ts). */
const SHARED_EXPIRY_REASON = /A retry that arrives later is treated as a new request[\s\S]*$/;
/** The lease is always among the bounds and never binds in practice: naming it says nothing. */
const LEASE_BOUND = /(?:; )?[\d.]+ (?:ms|s|min) from the lease \(a record must outlive its own lock\)/;

function reconciliation(a: ActionPlan): string | undefined {
  const provider = a.action.provider;
  if (!provider || a.action.kind === 'webhook') return undefined;
  const facts = PROVIDER_FACTS[provider];
  const lookup = {
    stripe: 'within 24 h, re-send the original request with the same `Idempotency-Key` — Stripe returns the original result without charging again (`Idempotent-Replayed: true`); after that, find the PaymentIntent by the local key stored in `metadata.idempotency_key`',
    adyen: 'within 31 days, re-send with the same `Idempotency-Key` — Adyen returns the first response; otherwise match the AUTHORISATION webhook by `merchantReference` (= the derived reference)',
    paypal: 're-send with the same `PayPal-Request-Id` — PayPal returns the latest status of the first request; also set `invoice_id` to the local key so PayPal’s duplicate-invoice check is a second guard',
    braintree: 'search its transactions by the derived `orderId` (`gateway.transaction.search` on `orderId`) — Braintree keeps no key for most accounts, so the search, not a re-send, tells whether the first attempt charged; two transactions for one `orderId` are a split brain to refund by hand',
    'bank-transfer': 'match the bank statement (camt.053/054) by `EndToEndId` — the derived id is on every statement line',
  }[provider];
  return `${a.action.name}: every 5 minutes, take PROCESSING records older than 2 × the lease (${formatMs(2 * a.lease.leaseMs)}) and ask ${facts.name}: ${lookup}. Found → store the result as COMPLETED. Not found → release the record so the next retry runs once, cleanly.`;
}

function storageEstimate(plan: Plan): string {
  const rows = plan.keysPerDay * Math.max(1, plan.maxTtlMs / 86_400_000);
  const bytes = rows * 1024;
  const gib = bytes / 2 ** 30;
  return `Steady state: ${formatCount(plan.keysPerDay)} keys a day × ${formatMs(plan.maxTtlMs)} ≈ ${formatCount(rows)} records of about 1 KiB, ${gib < 1 ? `${Math.max(1, Math.round(gib * 1024))} MiB` : `${gib.toFixed(1)} GiB`}.`;
}

/**
 * Section 5: orphans, half-done actions, dead-or-slow, cleanup and key expiry.
 * @example partialFailureSection({ plan, artifacts })
 */
export function partialFailureSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const crash = section('crash-after-claim', '5.1 Crash after the claim, before completion', [
    para(txt`An orphan (PROCESSING, \`locked_until\` passed) is taken over by the next retry of its key (4.6); the runbook lists those nobody retried.`),
    claimSequenceDiagram(plan, generatedTransactional(ctx)),
    // Each treatment's recovery is written once, in section 1: with several treatments, a table of links.
    ...(plan.actions.length > 1
      ? [table(['Actions', 'Orphan detected after', 'Recovery'], groupBy(plan.actions, (a) => withoutName(a, `${a.lease.leaseMs}|${recoveryInCode(ctx, a).summary}`), (a) => a).map(({ actions, value: a }) => [groupLabel(actions), formatMs(a.lease.leaseMs), [link('recovery path', analysisAnchor(ctx, a))]]))]
      : []),
  ]);
  const reconcile = groupBy(plan.actions.filter((a) => reconciliation(a) !== undefined), (a) => withoutName(a, reconciliation(a) ?? ''), (a) => a).map(({ actions, value: a }) => (reconciliation(a) ?? '').replace(`${a.action.name}:`, `${groupLabel(actions)}:`));
  // Each treatment's full recovery path is written once, in section 1 (linked above); here only what a half-done provider call adds.
  const partialBlocks: Block[] = reconcile.length > 0
    ? [para(txt`Each action’s recovery path is in ${link('section 1', 'action-analysis')}. Reconciliation job for provider calls (charged at the provider, local write lost):`), bullets(reconcile.map((text) => rich(text)))]
    : [para(txt`No provider call needs reconciling; each recovery path is in ${link('section 1', 'action-analysis')}.`)];
  const partial = section('partially-completed', '5.2 Action partially completed', partialBlocks);
  const alive = section('still-processing', '5.3 Failed permanently, or still processing elsewhere?', [
    para(txt`The lease decides, not age: a live worker heartbeats, so a lapsed lease means nobody is working; a worker that lost it stops.`),
    bullets([
      labelled('Permanent failure', txt`(declined card, validation error): stored as FAILED; retries replay that answer.`),
      labelled('Transient failure', txt`(timeout, a dependency’s 5xx): the claim is released at once; the retry runs again.`),
      labelled('Unclassified errors', txt`count as transient${plan.actions.some((a) => a.action.provider && a.action.kind !== 'webhook') ? '; the derived provider key keeps a re-run idempotent at the provider' : ''}.`),
    ]),
  ]);
  const cleanupArtifact = artifactAt(ctx, plan.stack.language === 'python' ? 'cleanup.py' : plan.stack.language === 'go' ? 'cleanup.go' : plan.stack.language === 'java' ? 'IdempotencyCleanupJob.java' : 'cleanup.ts');
  const cleanup = section('cleanup', '5.4 Cleanup and key expiry', [
    // The plan's justification ends with the same reason for every action; it is said once, below.
    bullets(groupBy(plan.actions, (a) => withoutName(a, a.retention.justification), (a) => a).map(({ actions, value: a }) => labelled('Key expiry', txt`${groupNames(actions)} ${formatMs(a.retention.ttlMs)}, the retry window. ${rich(withoutName(a, a.retention.justification).replace(SHARED_EXPIRY_REASON, '').replace(LEASE_BOUND, '').replace(/ It also covers \.\s*$/, '').trim().split('{action}').join('the action'))}`))),
    para(txt`After the window a request runs as new (\`onExpired: 'new'\`; \`'reject'\` answers 422); an expired record is never replayed.`),
    para(rich(CLEANUP_TEXT[plan.stack.store])),
    para(plain(storageEstimate(plan))),
    ...(cleanupArtifact ? [codeBlock(cleanupArtifact.language === 'markdown' ? 'text' : cleanupArtifact.language, cleanupArtifact.content, `Cleanup job — ${cleanupArtifact.path}`)] : []),
  ]);
  return section(
    'partial-failure',
    '5. Partial failure recovery',
    [],
    [crash, partial, alive, cleanup],
  );
}
