/** Section 4: concurrency control in the user's database — claim, schema, lock timeout, contention, clocks, ABA. */
import { REDIS_DEFAULT_PREFIX, REDIS_RECORD_FIELDS } from '@idempotency-builder/runtime/contract';
import { MONGO_UNTESTED } from '../../emit/typescript/mongo-store-file.js';
import { subpathAvailable, STORE_IMPORTS } from '../../emit/typescript/runtime-api.js';
import { referenceDdl } from '../../emit/ddl/index.js';
import { runtimeRunsStore, runtimeScripts, runtimeStatement, type SqlContractStore } from '../../emit/runtime-contract.js';
import { bullets, callout, code, codeBlock, collapse, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import type { Plan } from '../plan/plan.js';
import type { DesignContext } from './context.js';
import { groupBy, groupLabel, groupNames } from './grouping.js';
import { STORE_TEXT } from './store-text.js';
import { recordStateDiagram } from './diagrams.js';

const target = (plan: Plan) => ({ table: plan.table, partitioned: plan.partitioned && plan.stack.store === 'postgresql' });

/** Quotes one of the runtime's statements verbatim, with what its parameters are. */
function runtimeSqlBlock(plan: Plan, store: SqlContractStore, name: string): Block {
  const statement = runtimeStatement(store, target(plan), name);
  const params = statement.params.length > 0 ? `-- ${statement.params.map((p, i) => `$${i + 1} ${p}`).join(', ')}\n` : '';
  return codeBlock('sql', `-- ${statement.purpose}\n${params}${statement.sql};`, `${name} — the runtime's ${plan.stack.storeName} store, as it executes it`);
}

function claimCode(ctx: DesignContext): Block[] {
  const { plan } = ctx;
  const store = plan.stack.store;
  if (store === 'postgresql') return [runtimeSqlBlock(plan, 'postgresql', 'claim')];
  if (store === 'sqlite') return [runtimeSqlBlock(plan, 'sqlite', 'claimRead'), runtimeSqlBlock(plan, 'sqlite', 'claimUpsert')];
  if (store === 'redis') {
    const claim = runtimeScripts().find((s) => s.operation === 'claim');
    return claim ? [codeBlock('lua', claim.source, `claim.lua — the runtime's script (SHA-1 ${claim.sha1}), as createRedisStore loads it`)] : [];
  }
  if (store === 'mysql') return [runtimeSqlBlock(plan, 'mysql', 'claimUpsert'), runtimeSqlBlock(plan, 'mysql', 'claimRead')];
  const layout = ctx.artifacts.find((a) => a.path.startsWith('db/'));
  return layout ? [codeBlock(layout.language === 'markdown' ? 'text' : layout.language, layout.content, layout.path)] : [];
}

/** What each field of the runtime's Redis record hash holds. */
const REDIS_FIELD_ROLES: Readonly<Record<keyof typeof REDIS_RECORD_FIELDS, [string, string]>> = {
  key: ['text', 'the idempotency key'],
  scope: ['text', 'the scope (user, account or tenant)'],
  owner: ['text', 'who created the record in a shared namespace'],
  fingerprint: ['64 hex chars', 'SHA-256 fingerprint of the significant fields'],
  status: ['PROCESSING | COMPLETED | FAILED', 'the state machine; only the scripts write it'],
  lockVersion: ['integer (ms-sized)', 'the fencing token: the server clock in ms on a fresh claim, +1 on a reclaim'],
  lockedUntil: ['ms since epoch (Redis TIME)', 'lease end, present only while PROCESSING'],
  createdAt: ['ms since epoch', 'created_at'],
  completedAt: ['ms since epoch', 'completed_at'],
  expiresAt: ['ms since epoch', 'expires_at; complete/fail also set PEXPIREAT after it (a PROCESSING record never expires by itself)'],
  statusCode: ['integer', 'stored response status'],
  headers: ['JSON', 'allow-listed response headers'],
  encoding: ['text', 'what the body bytes are (json, bytes, a codec’s wrapper)'],
  body: ['bytes', 'stored response body (encrypted at rest when a codec is set)'],
};

function schemaBlocks(ctx: DesignContext): Block[] {
  const { plan } = ctx;
  const ddl = ctx.artifacts.find((a) => a.path === `db/${plan.table}.sql`);
  const runtime = runtimeRunsStore(plan.stack.store);
  if (ddl) {
    const blocks: Block[] = [
      para(runtime
        ? txt`Deliverable 2, the runtime’s own schema (also ${code(ddl.path)}): the primary key makes double-processing physically impossible, the CHECK keeps status in the state machine.`
        : txt`Deliverable 2, ready to run (also ${code(ddl.path)}). The primary key makes double-processing physically impossible; the CHECK keeps the status inside the state machine.`),
      codeBlock('sql', ddl.content, ddl.path),
    ];
    if (plan.partitioned && plan.stack.store === 'postgresql') {
      blocks.push(callout('warning', 'The partitioning trap, and how the runtime avoids it', [
        txt`Above 100K keys a day (you expect ${plan.keysPerDay.toLocaleString('en-US')}) the table is range-partitioned on \`created_at\` so old partitions can be dropped instead of deleted row by row. PostgreSQL then forces \`created_at\` into the primary key, which no longer stops the same (key, user) from existing once per partition. The runtime closes the gap in its claim function (in the migration above): every claim of one (key, user) first takes a per-key advisory lock, then reads all partitions, then writes — so a second row can never appear. Create partitions ahead and drop them behind with \`createPartitionMaintenance\`; never add a partition scheme of your own beside it.`,
      ]));
    } else if (plan.partitioned && plan.stack.store === 'mysql') {
      blocks.push(callout('warning', 'Why hash partitioning, not range partitioning on created_at', [
        txt`Above 100K keys a day (you expect ${plan.keysPerDay.toLocaleString('en-US')}), the spec suggests range partitioning on \`created_at\` and dropping old partitions. That trap breaks uniqueness: a primary key on a partitioned table must include the partition column, so the key becomes (idempotency_key, user_id, created_at) and the same (key, user) can exist once per partition — a retry that lands after midnight inserts a second row. Partitioning by KEY (idempotency_key) keeps the partition column inside the primary key and uniqueness global; expired rows go by batched DELETE, one small partition at a time.`,
      ]));
    }
    return blocks;
  }
  const layout = ctx.artifacts.filter((a) => a.path.startsWith('db/') && plan.stack.store !== 'redis');
  const fields = Object.entries(REDIS_RECORD_FIELDS) as [keyof typeof REDIS_RECORD_FIELDS, string][];
  const redis: Block[] = plan.stack.store === 'redis'
    ? [
        para(txt`The runtime’s \`createRedisStore\` owns the layout: one hash per record, written only by its versioned Lua scripts (also in \`db/redis/\`); nothing needs to be created.`),
        collapse(table(['Hash field', 'Value', 'Role'], fields.map(([name, field]) => [[code(field)], REDIS_FIELD_ROLES[name][0], REDIS_FIELD_ROLES[name][1]]), `One hash per record: ${REDIS_DEFAULT_PREFIX}r:{<scope>|<key>} (hash-tagged, so each script touches one Cluster slot)`), 'Show the record’s fields'),
      ]
    : [];
  return [
    para(txt`${plan.stack.storeName} has no DDL: the layout below is redesigned from the logical model, whose reference DDL follows — the constraints every layout enforces: one record per (idempotency_key, user_id), status within PROCESSING/COMPLETED/FAILED.`),
    ...redis,
    ...layout.slice(0, 2).map((artifact) => codeBlock(artifact.language === 'markdown' ? 'text' : artifact.language, artifact.content, artifact.path)),
    codeBlock('sql', referenceDdl(plan), 'Logical model — the runtime’s PostgreSQL schema (for review; not run against this store)'),
  ];
}

/**
 * Section 4: claim, schema, lock timeout, contention, clock skew and ABA for the user's store.
 * @example concurrencySection({ plan, artifacts }).children.map((c) => c.id)
 */
export function concurrencySection(ctx: DesignContext): Section {
  const { plan } = ctx;
  const text = STORE_TEXT[plan.stack.store];
  const runtime: Block[] = [];
  if (plan.stack.language === 'typescript') {
    const { module, factory, generated } = STORE_IMPORTS[plan.stack.store];
    const available = generated === true || subpathAvailable(module);
    runtime.push(para(generated
      ? txt`The TypeScript code uses the generated ${code('mongo-store.ts')} (${code(factory)}), which implements the runtime’s store contract with the claim above. ${MONGO_UNTESTED}`
      : available && runtimeRunsStore(plan.stack.store)
      ? txt`The TypeScript code uses ${code(module)} (${code(factory)}), which executes exactly the ${plan.stack.store === 'redis' ? 'script' : 'statements'} quoted here.`
      : available
        ? txt`The TypeScript code uses ${code(module)} (${code(factory)}). The statements above are the builder’s description of the claim for ${plan.stack.storeName}, not text taken from that store: read its source for what it sends.`
        : txt`Not yet available: this version of idempotency-builder does not export ${code(module)}. The generated TypeScript imports it as ${code(factory)}; until it ships, implement the store contract (\`IdempotencyStore\`) with the statements above, or run the runtime on a store that exists.`));
  }
  if (plan.stack.language !== 'typescript' && runtimeRunsStore(plan.stack.store)) {
    runtime.push(para(txt`The generated ${plan.stack.languageName} store sends this same ${plan.stack.store === 'redis' ? 'script' : 'text'}, taken from the runtime’s contract; the shared conformance scenarios check both on the same server.`));
  }
  const claim = section('claim', '4.1 The atomic claim', [
    para(rich(text.claim)),
    ...claimCode(ctx),
    ...(text.durability ? [callout('warning', 'Durability', [rich(text.durability)])] : []),
    para(rich(plan.latencyAssessment)),
    ...runtime,
  ]);
  const schema = section('store-schema', '4.2 Store schema', schemaBlocks(ctx));
  const skewed = plan.actions.some((a) => a.lease.skewMs > 0);
  const lease = section('lock-timeout', '4.3 Lock timeout', [
    // The rule once; then one line per distinct lease with its numbers.
    para(txt`Lease = p99 duration + the larger of 5 s and half of it${skewed ? ' + the skew buffer of 4.5' : ''}, rounded up to a second; a heartbeat every third of it means only a crash lets it lapse. Shorter risks false orphans; longer, waits after a crash.`),
    bullets(groupBy(plan.actions, (a) => JSON.stringify([a.lease, a.lease.durationAssumed]), (a) => a).map(({ actions, value: a }) => labelled('Lock timeout', txt`${groupNames(actions)} ${formatMs(a.lease.leaseMs)}. ${a.lease.durationAssumed ? 'Assumed' : 'Stated'} p99 ${formatMs(a.lease.durationMs)} + ${formatMs(a.lease.bufferMs)} buffer${a.lease.skewMs > 0 ? ` + ${formatMs(a.lease.skewMs)} skew` : ''}; heartbeat every ${formatMs(a.lease.heartbeatMs)}.`))),
  ]);
  const contested = section('contested', '4.4 Contested keys', [
    bullets(groupBy(plan.actions, (a) => a.contested, (a) => a.contested).map(({ actions, value }) => labelled(groupLabel(actions), rich(value)))),
  ]);
  const clocks = section('clock-skew', '4.5 Clock skew', [
    para(rich(text.clock)),
    ...(plan.actions.some((a) => a.lease.skewMs > 0)
      ? [para(txt`Leases above include a ${formatMs(Math.max(...plan.actions.map((a) => a.lease.skewMs)))} skew buffer, because more than one clock can judge them on ${plan.stack.storeName}.`)]
      : [para(txt`One clock judges every lease: no skew buffer.`)]),
  ]);
  const aba = section('aba', '4.6 The ABA problem', [
    para(txt`Reclaiming an orphan is one compare-and-set on status, lease end and lock_version that bumps lock_version: one node wins, and the stalled worker’s late writes are fenced out.`),
    // Where tokens start is the subtle half of ABA: reference for the reviewer who asks.
    collapse(bullets([txt`A fresh record’s lock_version is the ${plan.stack.store === 'dynamodb' ? 'application' : 'database'} clock in milliseconds (a 64-bit column); an orphan reclaim adds 1; replacing an expired record takes the greater of lock_version + 1 and the clock; a manual release adds 1. Starting at 1 instead, A (version 1) could stall, B reclaim (2) and release, and C claim version 1 again — A’s late completion would land in C’s record.`]), 'Why a fencing token starts at the store clock, not at 1'),
  ]);
  return section(
    'concurrency',
    '4. Concurrency control',
    [recordStateDiagram(plan)],
    [claim, schema, lease, contested, clocks, aba],
  );
}
