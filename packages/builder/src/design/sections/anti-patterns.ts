/** Section 9: anti-patterns — the spec's list, filtered and extended for the user's stack. */
import { collapse, para, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { Plan } from '../plan/plan.js';
import { generatedCodec, type DesignContext } from './context.js';

interface AntiPattern {
  readonly name: string;
  readonly why: string;
  readonly here: string;
  /** A trap of this stack, beyond the method's own list. */
  readonly stack?: boolean;
}

function antiPatterns(plan: Plan, codec: 'encryption' | 'hash-only' | 'none'): AntiPattern[] {
  const { store } = plan.stack;
  const broker = plan.answers.stack.broker;
  const http = plan.actions.some((a) => a.action.kind === 'http');
  const list: AntiPattern[] = [
    { name: 'Checking application state without a DB constraint', why: 'Two threads both read “not exists” and both insert.', here: `The claim is the ${store === 'redis' ? 'Lua script' : store === 'dynamodb' ? 'conditional write' : 'primary-key insert'} itself; nothing reads then writes.` },
    { name: 'Range partitioning on created_at with a (key, user_id) primary key', why: 'The partition column joins the primary key, so one (key, user) can exist once per partition.', here: !plan.partitioned
      ? 'Not needed at your volume; later, partition by hash of the key, or by time behind a per-key guard.'
      : store === 'postgresql'
        ? 'The runtime’s layout ranges on created_at and keeps (key, user) unique across partitions with a per-key advisory lock in its claim function (4.2); never claim around it.'
        : 'The DDL partitions by KEY (idempotency_key), which keeps uniqueness global.' },
    { name: 'Locking without a timeout', why: 'A crashed process holds the lock forever.', here: 'Every claim has a lease (4.3) and a heartbeat.' },
    { name: 'Comparing timestamps using the application clock', why: 'Clock skew between app servers causes false lock reclaims.', here: store === 'dynamodb' ? 'DynamoDB forces the app clock: leases carry a skew buffer.' : 'Every lease and expiry comparison uses the store’s clock.' },
    { name: 'Trusting the payment provider to prevent local duplicates', why: 'It does not stop your database from recording two orders.', here: 'The local claim comes first; the provider key, derived from it, is a second layer.' },
    { name: 'Storing keys indefinitely without cleanup', why: 'The table grows without bound; lookups slow down.', here: 'Every record expires; cleanup removes it, store_size alerts if not.' },
    { name: 'Using timestamps as idempotency keys', why: 'Two requests in one millisecond collide; a retry a second later is new.', here: 'No clock is read to build a key.' },
    { name: 'Using request-body equality instead of a stable key', why: 'Bodies differ in timestamps and trace ids between retries.', here: 'The key names the intent; the fingerprint covers significant fields only.' },
    { name: 'Storing full response bodies without encryption', why: 'PII/PCI exposure if the store leaks.', here: codec === 'encryption' ? 'The generated engine sets createEncryptionCodec: stored bodies are AES-256-GCM encrypted.' : codec === 'hash-only' ? 'The generated engine sets createHashOnlyCodec: only the status and a SHA-256 of the body are stored.' : 'NOT YET: the generated code sets no codec. Add createEncryptionCodec(...) to the engine options before storing card or personal data (section 8).' },
    { name: 'Not partitioning/archiving the idempotency table', why: 'At > 1M keys a day, bloat degrades lookups.', here: `${plan.keysPerDay.toLocaleString('en-US')} keys a day: ${plan.partitioned ? (store === 'postgresql' ? 'range partitions, created ahead and dropped behind by the runtime’s maintenance.' : 'key partitions plus batched purges.') : 'batched purges suffice below 100K a day.'}` },
  ];
  if (http) list.push({ name: 'Relying on UI button disabling alone', why: 'It does not stop network retries, API clients or races.', here: 'The server-side key guarantees one execution.' });
  // Everything after this point is a trap of this stack rather than one of the method's list.
  const method = list.length;
  if (store === 'mysql') list.push({ name: 'Case-insensitive collation on the key column', why: 'With utf8mb4_0900_ai_ci, `Abc` and `abc` are one key: two intents meet.', here: 'The DDL declares `ascii_bin` for the key and `utf8mb4_bin` for user_id.' });
  if (store === 'mysql') list.push({ name: 'Reading after INSERT IGNORE inside a REPEATABLE READ transaction', why: 'The snapshot hides the row that blocked the insert.', here: 'Claim statements autocommit one by one.' });
  if (store === 'postgresql') list.push({ name: 'Treating an empty INSERT … ON CONFLICT result as “no record”', why: 'A claim committed after the statement’s snapshot makes both branches return nothing.', here: 'The claim is re-run when it returns no row (4.1).' });
  if (store === 'redis') list.push({ name: 'SETNX lock released with a plain DEL', why: 'A stalled worker deletes the lock a newer one holds; both run.', here: 'Every script checks lock_version before it writes.' });
  if (store === 'redis') list.push({ name: 'Redis without persistence or replica acknowledgement for payments', why: 'A failover loses acknowledged claims; the charge runs again.', here: 'AOF everysec plus WAIT 1 for payment actions (4.1).' });
  if (store === 'dynamodb') list.push({ name: 'Check with an eventually consistent read, then write', why: 'The read can miss a claim made a moment ago.', here: 'The claim is one conditional write; no read precedes it.' });
  if (store === 'mongodb') list.push({ name: 'Claiming without the unique index', why: 'Two upserts with the same filter both insert.', here: 'pk_idempotency is unique on (key, scope).' });
  if (broker !== 'none') list.push({ name: 'Acknowledging a message before processing it', why: 'A crash after the ack loses the work.', here: 'Acked only after COMPLETED or FAILED.' });
  if (broker === 'kafka' || broker === 'sqs') list.push({ name: 'Using the offset or the broker’s message id as the key', why: 'A re-published event gets a new offset or MessageId.', here: 'The key is the producer’s event id.' });
  if (plan.stack.framework === 'koa' && http) {
    list.push({ name: 'Koa: idempotency middleware ahead of the auth that fills ctx.state', why: 'The scope resolver finds no principal there, so every keyed request is answered 401.', here: 'koa.ts’s middleware goes into each route’s own registration right before the handler, after the route’s auth and body parser (section 14).' });
    list.push({ name: 'Koa: a protected handler that bypasses ctx (ctx.respond = false, writing ctx.res)', why: 'Koa never sees the response, so it cannot be stored for a replay.', here: 'The runtime’s Koa middleware stores what the handler leaves on ctx; for a bypassed response it gives the key back — keep protected handlers on ctx.status and ctx.body.' });
  }
  if (plan.actions.some((a) => a.action.kind === 'webhook')) list.push({ name: 'Answering 200 to a webhook before the work is stored', why: 'A crash after the 200 loses the event for good.', here: '2xx only after COMPLETED; 409 while another delivery holds the key.' });
  return list.map((item, index) => (index >= method ? { ...item, stack: true } : item));
}

/**
 * Section 9: the anti-pattern table for this stack.
 * @example antiPatternsSection({ plan, artifacts })
 */
export function antiPatternsSection(ctx: DesignContext): Section {
  const all = antiPatterns(ctx.plan, generatedCodec(ctx));
  // Open: what still needs doing and the traps of this stack; folded: the method's list this design already avoids.
  const open = all.filter((item) => item.stack === true || item.here.startsWith('NOT YET'));
  const handled = all.filter((item) => !open.includes(item));
  const rows = (items: readonly AntiPattern[]) => items.map((item) => [item.name, item.why, item.here]);
  return section('anti-patterns', '9. Anti-patterns to avoid', [
    para(txt`Flag these in design review; the last column is where this design stands.`),
    table(['Anti-pattern', 'Why it fails', 'In this design'], rows(open), 'Open, or a trap of this stack'),
    collapse(table(['Anti-pattern', 'Why it fails', 'In this design'], rows(handled), 'Avoided by this design'), `Show the ${handled.length} the design already avoids`),
  ]);
}
