/**
 * The operations commands, against a live store named by URL or config file: `stuck`,
 * `release KEY --scope S`, `show KEY --scope S`, `purge`, `stats` — the runbook's queries as
 * commands, through the runtime's own store code, so they mean exactly what the service means.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { countFlag, durationFlag } from '../../ops/flags.js';
import { openStore, type OpenedStore } from '../../ops/open-store.js';
import { relative, viewRecord, type RecordView } from '../../ops/record-view.js';
import { maskUrl, resolveStoreTarget, StoreTargetError, type StoreTargetInput } from '../../ops/store-target.js';

interface CommonFlags extends StoreTargetInput {
  readonly json?: boolean;
}

const out = (text: string) => process.stdout.write(`${text}\n`);
const json = (value: unknown) => out(JSON.stringify(value, null, 2));

/** Opens the store, runs `body`, always closes; a bad target or a store failure is exit code 2. */
async function withStore(flags: CommonFlags, body: (opened: OpenedStore) => Promise<number>): Promise<void> {
  let opened: OpenedStore | undefined;
  try {
    const target = resolveStoreTarget(flags);
    opened = await openStore(target);
    process.exitCode = await body(opened);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
    process.stderr.write(`${pc.red(error instanceof StoreTargetError ? message : `The store failed: ${message}${cause}`)}\n`);
    process.exitCode = 2;
  } finally {
    await opened?.close().catch(() => undefined);
  }
}

function printRecord(view: RecordView): void {
  out(`${pc.bold(view.key)} (scope ${view.scope}${view.owner ? `, owner ${view.owner}` : ''})`);
  out(`  status       ${view.status}`);
  out(`  lockVersion  ${view.lockVersion}`);
  if (view.lockedUntil) out(`  lease        ${view.lockedUntil}${view.leaseRemainingMs === null ? '' : ` (${view.leaseRemainingMs >= 0 ? 'ends' : 'ended'} ${relative(view.leaseRemainingMs)})`}`);
  out(`  fingerprint  ${view.fingerprintPrefix}`);
  out(`  created      ${view.createdAt}`);
  if (view.completedAt) out(`  completed    ${view.completedAt}`);
  out(`  expires      ${view.expiresAt}`);
  if (view.response === null) out('  response     none');
  else if (view.response) {
    out(`  response     ${view.response.statusCode ?? '-'} ${view.response.encoding}, ${view.response.bytes} bytes (${view.response.bodyEncoding})`);
    out(view.response.body);
  }
}

/** Adds the store flags every ops command takes. */
function storeFlags(command: Command): Command {
  return command
    .option('--store <url>', 'sqlite:<file>, postgres://… or redis://… (default: $IDEMPOTENCY_STORE_URL)')
    .option('--config <file>', 'JSON file with "store" and optionally "table", "schema", "prefix"')
    .option('--table <name>', 'table the service uses (SQL stores; default idempotency_store)')
    .option('--schema <name>', 'PostgreSQL schema (default public)')
    .option('--prefix <prefix>', 'Redis key prefix the service uses')
    .option('--json', 'machine-readable output');
}

/**
 * Registers `stuck`, `release`, `show`, `purge` and `stats`.
 * @example registerOpsCommands(program); // idempotency-builder stuck --store sqlite:./idem.db
 */
export function registerOpsCommands(program: Command): void {
  storeFlags(program.command('stuck').description('list PROCESSING records whose lease has ended (orphans: maybe a crashed worker)'))
    .option('--older-than <duration>', 'only leases that ended at least this long ago', '0')
    .option('--limit <n>', 'at most this many', '100')
    .action((flags: CommonFlags & { olderThan?: string; limit?: string }) =>
      withStore(flags, async ({ store }) => {
        const [records, now] = await Promise.all([
          store.listStuck({ olderThanMs: durationFlag('older-than', flags.olderThan, 0), limit: countFlag('limit', flags.limit, 100) }),
          store.now(),
        ]);
        const views = records.map((record) => viewRecord(record, now, { showBody: false }));
        if (flags.json) json(views);
        else if (views.length === 0) out(pc.green('No stuck records.'));
        else for (const view of views) out(`${view.key}  scope=${view.scope}  v=${view.lockVersion}  lease ended ${relative(view.leaseRemainingMs ?? 0)}`);
        return 0;
      }),
    );

  storeFlags(program.command('release').argument('<key>').description('release a stuck PROCESSING record after you reconciled it (fences out its old holder)'))
    .requiredOption('--scope <scope>', 'the record scope (user, account or tenant id)')
    .action((key: string, flags: CommonFlags & { scope: string }) =>
      withStore(flags, async ({ store }) => {
        const released = await store.forceRelease({ key, scope: flags.scope });
        if (flags.json) json({ key, scope: flags.scope, released });
        else if (!released) out(pc.yellow(`${key} has no PROCESSING record in scope ${flags.scope}: nothing released.`));
        else {
          out(pc.green(`Released ${key}: its lease ended now and its old holder is fenced out.`));
          out('The next request with this key and the same parameters takes it over and runs; one with other parameters still gets 409.');
          out('Until that retry comes, `stuck` keeps listing it (a PROCESSING record whose lease has ended).');
        }
        return released ? 0 : 1;
      }),
    );

  storeFlags(program.command('show').argument('<key>').description('show one record: status, lease, version (the body only with --show-body)'))
    .requiredOption('--scope <scope>', 'the record scope (user, account or tenant id)')
    .option('--show-body', 'also print the stored response (it may hold personal data)')
    .action((key: string, flags: CommonFlags & { scope: string; showBody?: boolean }) =>
      withStore(flags, async ({ store }) => {
        const [record, now] = await Promise.all([store.get({ key, scope: flags.scope }), store.now()]);
        if (record === null) {
          if (flags.json) json(null);
          else out(pc.yellow(`No record for ${key} in scope ${flags.scope}.`));
          return 1;
        }
        const view = viewRecord(record, now, { showBody: flags.showBody === true });
        if (flags.json) json(view);
        else printRecord(view);
        return 0;
      }),
    );

  storeFlags(program.command('purge').description('delete expired COMPLETED/FAILED records in batches (PROCESSING records are never purged)'))
    .option('--batch <n>', 'rows per batch', '1000')
    .option('--max-batches <n>', 'stop after this many batches', '1000')
    .action((flags: CommonFlags & { batch?: string; maxBatches?: string }) =>
      withStore(flags, async ({ store }) => {
        const batch = countFlag('batch', flags.batch, 1000);
        const maxBatches = countFlag('max-batches', flags.maxBatches, 1000);
        let purged = 0;
        let batches = 0;
        for (; batches < maxBatches; batches++) {
          const deleted = await store.purgeExpired(batch);
          purged += deleted;
          if (deleted < batch) {
            batches++;
            break;
          }
        }
        if (flags.json) json({ purged, batches });
        else out(`Purged ${purged} expired record(s) in ${batches} batch(es).`);
        return 0;
      }),
    );

  storeFlags(program.command('stats').description('records held, stuck records, and the store clock'))
    .action((flags: CommonFlags) =>
      withStore(flags, async ({ store }) => {
        const [size, stuck, now] = await Promise.all([store.size(), store.listStuck({ olderThanMs: 0, limit: 1000 }), store.now()]);
        const stats = { store: maskUrl(resolveStoreTarget(flags).url), records: size, stuck: stuck.length, stuckCapped: stuck.length === 1000, storeClock: new Date(now).toISOString() };
        if (flags.json) json(stats);
        else out(`${stats.store}\n  records  ${size}\n  stuck    ${stuck.length}${stats.stuckCapped ? '+' : ''}\n  clock    ${stats.storeClock}`);
        return 0;
      }),
    );
}
