/** Section 13: the operational runbook, with runnable queries for the user's store. */
import { codeBlock, collapse, numbered, para, plain, section, txt } from '../inline.js';
import type { Block, Inline, Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import { PROVIDER_FACTS } from '../plan/providers.js';
import type { DesignContext } from './context.js';
import { runbookSnippets, type Snippet } from './runbook-queries.js';

// In the design document the queries and the steps fold (reference for the on-call engineer);
// runbook.md, rendered from the same section, writes them open.
const COMMENT = { sql: '--', bash: '#', javascript: '//' } as const;
/** A procedure's queries as one runnable block, each headed by its title as a comment, folded. */
function snippetBlocks(snippets: readonly Snippet[]): Block[] {
  const language = snippets[0]?.language;
  if (!language || snippets.some((s) => s.language !== language)) return snippets.map((s) => collapse(codeBlock(s.language, s.code, s.title), 'Query'));
  const code = snippets.map((s) => `${COMMENT[language]} ${s.title}\n${s.code}`).join('\n\n');
  return [collapse(codeBlock(language, code), snippets.length === 1 ? 'Query' : `Queries (${snippets.length})`)];
}
const steps = (items: readonly (readonly Inline[])[]): Block => collapse(numbered(items), 'Procedure');

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
    para(txt`IdempotencyLockTimeouts or IdempotencySlowActions: a lease ended over ${formatMs(2 * minLease)} ago and no retry reclaimed it.`),
    ...snippetBlocks([...q.stuck, ...q.release]),
    steps([
      txt`Check that the owning worker is gone (deploy, OOM kill, node loss): no heartbeat reached the store for a whole lease.`,
      txt`For a payment action, settle with the provider first (13.4): never release a record whose charge may have gone through.`,
      txt`Release it. The release bumps lock_version, so the old holder, if alive, is fenced out; the client’s next retry runs once.`,
    ]),
  ]);
  const splitBrain = section('split-brain-detection', '13.2 Split-brain detection', [
    para(txt`A worker resumed after its key was reclaimed: fencing stops its store writes, not its side effects. Signals: orphan_reclaims with lock_timeouts, lease_lost in logs.`),
    ...snippetBlocks(q.splitBrain),
    steps([
      txt`Confirm: for each reclaimed payment key, ask the provider by the derived key (13.4). One provider charge per key means the fencing held; two means a provider key was not derived from the local key somewhere — fix that first.`,
      txt`Contain: raise the affected action’s lease (4.3) if durations grew, and find the stall (GC logs, CPU throttling, network errors to the store).`,
    ]),
  ]);
  const maintenance = section('partition-maintenance', '13.3 Partition and table maintenance', [
    para(plan.partitioned
      ? txt`Partitioned: watch dead rows per partition; change the layout only beside the old one, dual-writing for one retention period.`
      : txt`Not partitioned at ${plan.keysPerDay.toLocaleString('en-US')} keys a day: watch size, dead rows and cleanup lag.`),
    ...snippetBlocks(q.maintenance),
  ]);
  const divergence = section('provider-local-divergence', '13.4 Provider / local state divergence', [
    para(providers.length > 0
      ? txt`Charged at ${providers.join(' / ')} but PROCESSING locally, or COMPLETED with no provider record; the job of 5.2 settles the first case.`
      : txt`The business table and the idempotency record disagree; the business row carries the key to join on.`),
    ...snippetBlocks(q.divergence),
    steps([
      txt`Look each record up at the provider by its derived key (section 6): re-send with the same key inside the window, or search by the key stored in metadata/reference.`,
      txt`Found: complete the local record with the provider’s result (fenced by the current lock_version); write the business row if missing.`,
      txt`Not found: release the record (13.1) so the client’s retry runs once.`,
      txt`Daily: diff the provider’s settlement report against the day’s completed records by provider key; every difference is an incident.`,
    ]),
  ]);
  const flooding = section('key-flooding-abuse-response', '13.5 Key-flooding abuse response', [
    para(txt`IdempotencyKeyFlooding or IdempotencyFingerprintMismatches: one principal creating thousands of keys.`),
    ...snippetBlocks(q.flooding),
    steps([
      txt`Confirm the per-principal limit (100 new keys a minute, 429) is active on every instance (shared limiter on Redis).`,
      txt`Block or lower the limit for the principal at the gateway; revoke its tokens if the account looks compromised.`,
      txt`Delete its unfinished non-payment records only; never a COMPLETED payment record — it stops a double charge when the real client retries.`,
      txt`If mismatches dominate, the client reuses keys across intents: a bug for its owner, not an attack.`,
    ]),
  ]);
  return section(
    'runbook',
    '13. Operational runbook',
    [para(plain(`Runnable ${plan.stack.storeName} queries (placeholders <like_this>); also in runbook.md.`))],
    [stuck, splitBrain, maintenance, divergence, flooding],
  );
}
