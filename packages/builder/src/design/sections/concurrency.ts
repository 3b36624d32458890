/** Section 4: concurrency control in the user's database — claim, schema, lock timeout, contention, clocks, ABA. */
import { subpathAvailable, STORE_IMPORTS } from '../../emit/typescript/runtime-api.js';
import { isSqlStore, referenceDdl, sqlStatementsFor } from '../../emit/ddl/index.js';
import { REDIS_FIELDS, redisScripts } from '../../emit/ddl/redis.js';
import { runtimeOwnsStore } from '../../emit/ddl/runtime-schema.js';
import { bullets, callout, code, codeBlock, labelled, para, rich, section, table, txt } from '../inline.js';
import type { Block, Section } from '../model.js';
import { formatMs } from '../plan/durations.js';
import type { DesignContext } from './context.js';
import { STORE_TEXT } from './store-text.js';

function claimCode(ctx: DesignContext): Block[] {
  const { plan } = ctx;
  const store = plan.stack.store;
  if (isSqlStore(store)) {
    const statements = sqlStatementsFor(store, plan.table, false);
    const names = store === 'postgresql' ? ['claim'] : ['claim_insert', 'fetch', 'reclaim'];
    return names.map((name) => {
      const statement = statements.find((s) => s.name === name);
      return codeBlock('sql', `-- ${statement?.purpose ?? ''}\n${statement?.sql ?? ''};`, `${name} — ${plan.stack.storeName}`);
    });
  }
  if (store === 'redis') return [codeBlock('lua', redisScripts()[0]?.source ?? '', 'claim.lua')];
  const layout = ctx.artifacts.find((a) => a.path.startsWith('db/'));
  return layout ? [codeBlock(layout.language === 'markdown' ? 'text' : layout.language, layout.content, layout.path)] : [];
}

function schemaBlocks(ctx: DesignContext): Block[] {
  const { plan } = ctx;
  const ddl = ctx.artifacts.find((a) => a.path === `db/${plan.table}.sql`);
  const runtime = runtimeOwnsStore(plan);
  if (ddl) {
    const blocks: Block[] = [
      para(runtime
        ? txt`Deliverable 2, ready to run (also written to ${code(ddl.path)}): the runtime’s own migration, so the table is exactly what the store expects — the reference schema plus four columns the runtime needs (the creator for shared namespaces, replayed headers, the body’s encoding and its exact bytes). The primary key makes double-processing physically impossible; the CHECK keeps the status inside the state machine.`
        : txt`Deliverable 2, ready to run (also written to ${code(ddl.path)}). The primary key makes double-processing physically impossible: a second claim of the same (key, user) cannot insert a row, whatever the application does. The CHECK keeps the status inside the state machine.`),
      codeBlock('sql', ddl.content, ddl.path),
    ];
    if (plan.partitioned && runtime && plan.stack.store === 'postgresql') {
      blocks.push(callout('warning', 'The partitioning trap, and how the runtime avoids it', [
        txt`Above 100K keys a day (you expect ${plan.keysPerDay.toLocaleString('en-US')}) the table is range-partitioned on \`created_at\` so old partitions can be dropped instead of deleted row by row. PostgreSQL then forces \`created_at\` into the primary key, which no longer stops the same (key, user) from existing once per partition. The runtime closes the gap in its claim function: every claim of one (key, user) first takes a per-key advisory lock, then reads all partitions, then writes — so a second row can never appear. Create partitions ahead and drop them behind with \`createPartitionMaintenance\`; never add a partition scheme of your own beside it.`,
      ]));
    } else if (plan.partitioned) {
      blocks.push(callout('warning', 'Why hash partitioning, not range partitioning on created_at', [
        txt`Above 100K keys a day (you expect ${plan.keysPerDay.toLocaleString('en-US')}), the spec suggests range partitioning on \`created_at\` and dropping old partitions. That trap breaks uniqueness: a primary key on a partitioned table must include the partition column, so the key becomes (idempotency_key, user_id, created_at) and the same (key, user) can exist once per partition — a retry that lands after midnight inserts a second row. Partitioning by HASH (idempotency_key) keeps the partition column inside the primary key and uniqueness global; expired rows go by batched DELETE per partition, which touches one small partition at a time.`,
      ]));
    }
    return blocks;
  }
  const layout = ctx.artifacts.filter((a) => a.path.startsWith('db/') && plan.stack.store !== 'redis');
  const redis: Block[] = plan.stack.store === 'redis'
    ? [
        table(['Hash field', 'Value', 'Role'], REDIS_FIELDS.map(([field, value, role]) => [[code(field)], value, role]), 'One hash per record: idem:<scope length>:<scope>:<key>'),
        ...(runtime ? [para(txt`With the runtime, \`createRedisStore\` owns this layout (one hash per record, written only by its versioned Lua scripts, expiring by PEXPIREAT): nothing needs to be created.`)] : []),
      ]
    : [];
  return [
    para(txt`${plan.stack.storeName} has no DDL; the layout below is the store redesigned from the logical model (key, scope, fingerprint, status, lock, response, expiry). The reference DDL after it is that logical model — the constraints every layout must enforce: one record per (idempotency_key, user_id), and status within PROCESSING/COMPLETED/FAILED.`),
    ...redis,
    ...layout.slice(0, 2).map((artifact) => codeBlock(artifact.language === 'markdown' ? 'text' : artifact.language, artifact.content, artifact.path)),
    codeBlock('sql', referenceDdl(plan), 'Logical model — the PostgreSQL reference schema (for review; not run against this store)'),
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
    const { module, factory } = STORE_IMPORTS[plan.stack.store];
    runtime.push(para(subpathAvailable(module)
      ? txt`The TypeScript code uses ${code(module)} (${code(factory)}), which implements this claim with the same guarantees; the statements here document what it does.`
      : txt`Not yet available: this version of idempotency-builder does not export ${code(module)}. The generated TypeScript imports it as ${code(factory)}; until it ships, implement the store contract (\`IdempotencyStore\`) with the statements above, or run the runtime on a store that exists.`));
  }
  const claim = section('claim', '4.1 The atomic claim', [
    para(rich(text.claim)),
    ...claimCode(ctx),
    ...(text.durability ? [callout('warning', 'Durability', [rich(text.durability)])] : []),
    para(rich(plan.latencyAssessment)),
    ...runtime,
  ]);
  const schema = section('store-schema', '4.2 Store schema', schemaBlocks(ctx));
  const lease = section('lock-timeout', '4.3 Lock timeout', [
    para(txt`The lock timeout (lease) is how long a claim is held without a heartbeat. Derived per action from its p99 duration plus a buffer:`),
    table(['Action', 'p99 duration', 'Buffer', 'Skew', 'Lock timeout', 'Heartbeat'], plan.actions.map((a) => [
      [code(a.action.name)],
      `${formatMs(a.lease.durationMs)}${a.lease.durationAssumed ? ' (assumed)' : ''}`,
      formatMs(a.lease.bufferMs),
      a.lease.skewMs > 0 ? formatMs(a.lease.skewMs) : '—',
      formatMs(a.lease.leaseMs),
      `every ${formatMs(a.lease.heartbeatMs)}`,
    ])),
    bullets(plan.actions.map((a) => labelled('Lock timeout', txt`${code(a.action.name)} ${formatMs(a.lease.leaseMs)}. ${rich(a.lease.justification)}`))),
  ]);
  const contested = section('contested', '4.4 Contested keys', [
    bullets(plan.actions.map((a) => labelled(a.action.name, rich(a.contested)))),
    para(txt`Waiting (polling until the first holder finishes, then replaying) is available per route but off by default: it holds a connection for up to the lease and turns a fast 409 into a slow 200; clients that send \`Idempotency-Key\` already retry on 409 with \`Retry-After\`.`),
  ]);
  const clocks = section('clock-skew', '4.5 Clock skew', [
    para(rich(text.clock)),
    para(plan.actions.some((a) => a.lease.skewMs > 0)
      ? txt`Leases above include a ${formatMs(Math.max(...plan.actions.map((a) => a.lease.skewMs)))} skew buffer, because more than one clock can judge them on ${plan.stack.storeName}.`
      : txt`No skew buffer is needed: one clock (the database’s) judges every lease.`),
  ]);
  const reclaim = isSqlStore(plan.stack.store) ? sqlStatementsFor(plan.stack.store, plan.table, false).find((s) => s.name === 'reclaim') : undefined;
  const aba = section('aba', '4.6 The ABA problem', [
    para(txt`Reclaiming an orphaned claim is one compare-and-set: status = PROCESSING, lease over and the lock_version that was read are all checked in the same atomic write, and the write bumps lock_version. Of many nodes that saw the same orphan, exactly one matches; the rest affect zero rows and answer “in progress”. A read-then-write would let two nodes both decide the lock is free and both run. The bumped lock_version is also a fencing token: the stalled original worker’s late complete/fail/extend carries the old version and changes nothing.`),
    para(txt`Where fencing tokens start matters as much as how they grow. A fresh record’s lock_version is the ${plan.stack.store === 'dynamodb' ? 'application' : 'database'} clock in milliseconds (a 64-bit column); an orphan reclaim adds 1; replacing an expired COMPLETED/FAILED record takes the greater of lock_version + 1 and the clock; a manual release adds 1. Were every record to start at 1, worker A (version 1) could stall, B reclaim (version 2) and then release on a transient error — deleting the row — and C claim version 1 again: A’s late completion would match and land in C’s record. Starting at the clock puts each new incarnation of a key above every token the previous one handed out, so the stale holder’s write affects zero rows.`),
    ...(reclaim ? [codeBlock('sql', `${reclaim.sql};`, `reclaim — ${plan.stack.storeName}`)] : []),
  ]);
  return section(
    'concurrency',
    '4. Concurrency control',
    [para(txt`How ${plan.stack.storeName} guarantees that of any number of concurrent duplicates exactly one runs the action.`)],
    [claim, schema, lease, contested, clocks, aba],
  );
}
