/** Section 13: the operational runbook, with runnable queries for the user's store. */
import { bullets, codeBlock, labelled, numbered, para, plain, section, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { DesignContext } from './context.js';
import { runbookSnippets, type Snippet } from './runbook-queries.js';

const snippetBlocks = (snippets: readonly Snippet[]): Block[] => snippets.map((snippet) => codeBlock(snippet.language, snippet.code, snippet.title));

/**
 * Section 13: the five runbook procedures with runnable queries for the user's store.
 * @example runbookSection({ plan, artifacts }).children.length // 5
 */
export function runbookSection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const q = runbookSnippets(plan);
  const minLease = Math.min(...plan.actions.map((a) => a.lease.leaseMs));
  const providers = [...new Set(plan.actions.flatMap((a) => (a.action.provider ? [PROVIDER_FACTS[a.action.provider].name] : [])))];
  const stuck = section('stuck-processing-records', '13.1 Stuck PROCESSING records', [
    para(txt`Alert: IdempotencyLockTimeouts or IdempotencySlowActions. A record is stuck when its lease ended (more than ${formatMs(2 * minLease)} ago here) and no retry came to reclaim it.`),
    ...snippetBlocks(q.stuck),
    numbered([
      txt`Check that the owning worker is really gone (deploy, OOM kill, node loss). A lease that ended means no heartbeat reached the store for a whole lease.`,
      txt`For payment actions, first settle with the provider (13.4): never release a payment record whose charge may have gone through without knowing its outcome.`,
      txt`Release it manually. The release bumps lock_version, so the old holder — if it is alive after all — is fenced out and its late write changes nothing; the client’s next retry runs once.`,
    ]),
    ...snippetBlocks(q.release),
  ]);
  const splitBrain = section('split-brain-detection', '13.2 Split-brain detection', [
    para(txt`Split brain: two workers both believe they hold one key — a worker that stalled past its lease (GC pause, network partition) resumes after another reclaimed it. Fencing makes the stalled worker’s writes to the store fail, but its side effects outside the store may already have happened. Signals: orphan_reclaims and lock_timeouts rising together, lease_lost errors in the logs, duplicates_blocked spiking.`),
    ...snippetBlocks(q.splitBrain),
    bullets([
      labelled('Confirm', txt`for each reclaimed payment key, ask the provider by the derived key (13.4): one provider charge per key means the fencing held; two means the provider key was not derived from the local key somewhere — a bug to fix before anything else.`),
      labelled('Contain', txt`raise the lease for the affected action (section 4.3) if durations grew, and look for the stall (GC logs, CPU throttling, network errors to the store).`),
    ]),
  ]);
  const maintenance = section('partition-maintenance', '13.3 Partition and table maintenance', [
    para(plan.partitioned
      ? txt`The table is hash-partitioned: there is no partition rotation. Each partition is cleaned by the batched purge; watch dead tuples and vacuum per partition. To change the partition count, create the new layout beside the old, dual-write claims for one retention period, then switch reads — never split partitions in place under load.`
      : txt`The table is not partitioned at ${plan.keysPerDay.toLocaleString('en-US')} keys a day. Watch size, dead rows and cleanup lag; partition by hash of the key if volume passes 100K a day.`),
    ...snippetBlocks(q.maintenance),
  ]);
  const divergence = section('provider-local-divergence', '13.4 Provider / local state divergence', [
    para(providers.length > 0
      ? txt`The local record and ${providers.join(' / ')} can disagree: charged at the provider but PROCESSING locally (crash after the provider answered), or COMPLETED locally with no provider record (a bug or a refund outside this system). The reconciliation job of section 5.2 settles the first case automatically; this is the manual procedure and the daily check.`
      : txt`No payment provider is involved; divergence here means the business table and the idempotency record disagree. The business row carries the idempotency key, so the checks below join on it.`),
    ...snippetBlocks(q.divergence),
    numbered([
      txt`For each record, look it up at the provider by its derived key (section 6): re-send with the same key inside the window, or search by the key stored in metadata/reference outside it.`,
      txt`Found at the provider: complete the local record with the provider’s result (fenced by the current lock_version), and write the business row if it is missing.`,
      txt`Not found: release the record (13.1) so the client’s retry runs once.`,
      txt`Daily: diff the provider’s settlement report against the completed records of the day by provider key; every difference is an incident.`,
    ]),
  ]);
  const flooding = section('key-flooding-abuse-response', '13.5 Key-flooding abuse response', [
    para(txt`Alert: IdempotencyKeyFlooding or IdempotencyFingerprintMismatches. One principal creating thousands of keys fills the store and probes for collisions.`),
    ...snippetBlocks(q.flooding),
    numbered([
      txt`The per-principal limit (100 new keys a minute, 429) should already be answering; confirm it is active on every instance (shared limiter on Redis).`,
      txt`Block or lower the limit for the offending principal at the gateway; revoke its tokens if the account looks compromised.`,
      txt`Delete its unfinished non-payment records only; never delete a COMPLETED payment record — it is what stops a double charge when the real client retries.`,
      txt`If mismatches dominate, the client is reusing keys across intents: a bug to report to its owner, not an attack.`,
    ]),
  ]);
  return section(
    'runbook',
    '13. Operational runbook',
    [para(plain(`Procedures for the on-call engineer, with runnable ${plan.stack.storeName} queries. Placeholders are written <like_this>. Also written to runbook.md beside the generated code.`))],
    [stuck, splitBrain, maintenance, divergence, flooding],
  );
}
