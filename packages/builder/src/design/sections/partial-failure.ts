/** Section 5: partial failure recovery — orphaned claims, half-done actions, dead vs slow, cleanup. */
import { bullets, codeBlock, join, labelled, link, para, plain, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { formatCount, formatMs } from '../plan/durations.js';
import type { ActionPlan, Plan } from '../plan/plan.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import { actionAnchor, artifactAt, generatedTransactional, recoveryInCode, type DesignContext } from './context.js';
import { groupBy, groupLabel, groupNames, withoutName } from './grouping.js';
import { claimSequenceDiagram } from './diagrams.js';

const CLEANUP_TEXT = {
  postgresql: 'A job deletes expired COMPLETED/FAILED rows every minute in batches of 1,000 (the runtime’s `purgeExpired`: `FOR UPDATE SKIP LOCKED`, so it never blocks or waits for a claim), using the partial index on `expires_at`. It is safe on every instance at once. PROCESSING rows are never purged: they belong to a live or reclaimable claim.',
  mysql: 'A job deletes expired COMPLETED/FAILED rows every minute in batches of 1,000 (`DELETE … ORDER BY expires_at LIMIT`), short statements that hold row locks for milliseconds. It is safe on every instance at once. PROCESSING rows are never purged.',
  sqlite: 'A job deletes expired COMPLETED/FAILED rows every minute in batches of 1,000; each batch is one short write transaction, so claims wait at most one batch. PROCESSING rows are never purged.',
  redis: 'No job deletes records: each finished record carries `PEXPIREAT` (expiry plus a grace period) and Redis removes it; PROCESSING records never expire by themselves. A small job only audits — it counts records with SCAN on a replica for the store_size gauge.',
  dynamodb: 'DynamoDB TTL on the `ttl` attribute (expiresAt plus a grace period, in epoch seconds) deletes expired items, typically within 48 hours and free of write cost; until then every condition checks `expiresAt` itself, so a late deletion never makes an expired record replayable.',
  mongodb: 'The TTL index on `expires_at` deletes expired documents (the TTL monitor runs every 60 s); claims check `expires_at` themselves, so a late deletion never makes an expired record replayable.',
} as const;

function reconciliation(a: ActionPlan): string | undefined {
  const provider = a.action.provider;
  if (!provider || a.action.kind === 'webhook') return undefined;
  const facts = PROVIDER_FACTS[provider];
  const lookup = {
    stripe: 'within 24 h, re-send the original request with the same `Idempotency-Key` — Stripe returns the original result without charging again (`Idempotent-Replayed: true`); after that, find the PaymentIntent by the local key stored in `metadata.idempotency_key`',
    adyen: 'within 31 days, re-send with the same `Idempotency-Key` — Adyen returns the first response; otherwise match the AUTHORISATION webhook by `merchantReference` (= the derived reference)',
    paypal: 're-send with the same `PayPal-Request-Id` — PayPal returns the latest status of the first request; also set `invoice_id` to the local key so PayPal’s duplicate-invoice check is a second guard',
    'bank-transfer': 'match the bank statement (camt.053/054) by `EndToEndId` — the derived id is on every statement line',
  }[provider];
  return `${a.action.name}: every 5 minutes, take PROCESSING records older than 2 × the lease (${formatMs(2 * a.lease.leaseMs)}) and ask ${facts.name}: ${lookup}. Found → store the result as COMPLETED. Not found → release the record so the next retry runs once, cleanly.`;
}

function storageEstimate(plan: Plan): string {
  const rows = plan.keysPerDay * Math.max(1, plan.maxTtlMs / 86_400_000);
  const bytes = rows * 1024;
  const gib = bytes / 2 ** 30;
  return `Steady state: ${formatCount(plan.keysPerDay)} keys a day × ${formatMs(plan.maxTtlMs)} ≈ ${formatCount(rows)} records; at about 1 KiB each (key, fingerprint, a small JSON response, index entries) that is ${gib < 1 ? `${Math.max(1, Math.round(gib * 1024))} MiB` : `${gib.toFixed(1)} GiB`}.`;
}

/**
 * Section 5: orphans, half-done actions, dead-or-slow, cleanup and key expiry.
 * @example partialFailureSection({ plan, artifacts })
 */
export function partialFailureSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const crash = section('crash-after-claim', '5.1 Crash after the claim, before completion', [
    para(txt`The orphan is a record still PROCESSING whose \`locked_until\` has passed. Nothing scans for it to retry on its own initiative: the next retry of the same key (client, broker or scheduler) finds it, and the reclaim in section 4.6 takes it over atomically with \`lock_version + 1\`. The runbook’s stuck-record query shows orphans that nobody retried.`),
    claimSequenceDiagram(plan, generatedTransactional(ctx)),
    table(['Actions', 'Detected after', 'Strategy'], groupBy(plan.actions, (a) => withoutName(a, `${a.lease.leaseMs}|${recoveryInCode(ctx, a).summary}`), (a) => a).map(({ actions, value: a }) => [groupLabel(actions), formatMs(a.lease.leaseMs), rich(withoutName(a, recoveryInCode(ctx, a).summary).split('{action}').join('the action'))])),
  ]);
  const reconcile = groupBy(plan.actions.filter((a) => reconciliation(a) !== undefined), (a) => withoutName(a, reconciliation(a) ?? ''), (a) => a).map(({ actions, value: a }) => (reconciliation(a) ?? '').replace(`${a.action.name}:`, `${groupLabel(actions)}:`));
  const partialBlocks: Block[] = [
    // Each treatment's full recovery path is written once, in section 1; this section adds what is specific to a half-done action.
    para(txt`Each action’s full recovery path is stated once, with its treatment, in ${link('section 1', 'action-analysis')}: ${join(groupBy(plan.actions, (x) => withoutName(x, recoveryInCode(ctx, x).summary), (x) => x).map(({ actions }) => [{ text: `${groupLabel(actions)} — ` }, { link: { text: 'recovery path', target: actionAnchor('action', actions[0] as ActionPlan) } }]), '; ')}.`),
  ];
  if (reconcile.length > 0) {
    partialBlocks.push(para(txt`Reconciliation job for provider calls (the charge succeeded, the local write did not):`));
    partialBlocks.push(bullets(reconcile.map((text) => rich(text))));
  }
  const partial = section('partially-completed', '5.2 Action partially completed', partialBlocks);
  const alive = section('still-processing', '5.3 Failed permanently, or still processing elsewhere?', [
    para(txt`Age decides nothing; the lease does. A live worker extends it every third of the lease (heartbeat), so a running lease means a live worker and a lapsed one means nobody. A worker told its lease is lost stops; its late completion carries a stale lock_version and is refused.`),
    bullets([
      labelled('Permanent failure', txt`(declined card, validation error): the record becomes FAILED with the error response, and retries replay that answer instead of charging again.`),
      labelled('Transient failure', txt`(timeout, 5xx from a dependency): the claim is released at once, so a retry with the same key runs again without waiting for the lease.`),
      labelled('Unclassified errors', txt`count as transient — retrying a request that never completed is safe, because the provider key makes the provider side idempotent too.`),
    ]),
  ]);
  const cleanupArtifact = artifactAt(ctx, plan.stack.language === 'python' ? 'cleanup.py' : plan.stack.language === 'go' ? 'cleanup.go' : plan.stack.language === 'java' ? 'IdempotencyCleanupJob.java' : 'cleanup.ts');
  const cleanup = section('cleanup', '5.4 Cleanup and key expiry', [
    bullets(groupBy(plan.actions, (a) => withoutName(a, a.retention.justification), (a) => a).map(({ actions, value: a }) => labelled('Key expiry', txt`${groupNames(actions)} ${formatMs(a.retention.ttlMs)}. ${rich(withoutName(a, a.retention.justification).split('{action}').join('the action'))}`))),
    para(txt`An expired record is never replayed: a request after expiry counts as new (the runtime’s \`onExpired: 'new'\`), and an expired key can never be reactivated into an old response. Where a late retry must be refused instead, set \`onExpired: 'reject'\` (422).`),
    para(rich(CLEANUP_TEXT[plan.stack.store])),
    para(plain(storageEstimate(plan))),
    ...(cleanupArtifact ? [codeBlock(cleanupArtifact.language === 'markdown' ? 'text' : cleanupArtifact.language, cleanupArtifact.content, `Cleanup job — ${cleanupArtifact.path}`)] : []),
  ]);
  return section(
    'partial-failure',
    '5. Partial failure recovery',
    [para(txt`What happens when the process dies between claiming a key and recording the outcome — the hardest part of the design.`)],
    [crash, partial, alive, cleanup],
  );
}
