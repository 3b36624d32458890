/** Section 9: anti-patterns — the spec's list, filtered and extended for the user's stack. */
import { para, section, table, txt } from '../inline.js';
import type { Section } from '../model.js';
import type { Plan } from '../plan/plan.js';
import { generatedCodec, type DesignContext } from './context.js';

interface AntiPattern {
  readonly name: string;
  readonly why: string;
  readonly here: string;
}

function antiPatterns(plan: Plan, codec: 'encryption' | 'hash-only' | 'none'): AntiPattern[] {
  const { store } = plan.stack;
  const broker = plan.answers.stack.broker;
  const http = plan.actions.some((a) => a.action.kind === 'http');
  const list: AntiPattern[] = [
    { name: 'Checking application state without a DB constraint', why: 'Two threads both read “not exists” and both insert.', here: `The claim is the ${store === 'redis' ? 'Lua script' : store === 'dynamodb' ? 'conditional write' : 'primary-key insert'} itself; there is no read-then-write anywhere in the flow.` },
    { name: 'Range partitioning on created_at with a (key, user_id) primary key', why: 'The partition column must join the primary key, so the same (key, user) can exist once per partition: a retry after the partition boundary inserts a duplicate.', here: !plan.partitioned
      ? 'Not needed at your volume; if you partition later, partition by hash of the key, or by time only behind a per-key uniqueness guard.'
      : store === 'postgresql'
        ? 'Your volume needs partitioning; the runtime’s partitioned layout ranges on created_at (old partitions are dropped) and keeps (key, user) unique across partitions with a per-key advisory lock in its claim function (section 4.2). Never claim around that function.'
        : 'Your volume needs partitioning; the DDL partitions by KEY (idempotency_key), which keeps uniqueness global.' },
    { name: 'Locking without a timeout', why: 'A crashed process holds the lock forever.', here: 'Every claim has a lease (section 4.3) and a heartbeat; orphans are reclaimed by the next retry.' },
    { name: 'Comparing timestamps using the application clock', why: 'Clock skew between app servers causes false lock reclaims.', here: store === 'dynamodb' ? 'DynamoDB forces the app clock; the lease carries a skew buffer and servers run NTP with drift alerts.' : 'All lease and expiry comparisons happen in the store, on its clock.' },
    { name: 'Trusting the payment provider to prevent local duplicates', why: 'Provider deduplication does not stop your database from recording two orders.', here: 'The local claim comes first; the provider key is a second layer, derived from the same local key.' },
    { name: 'Storing keys indefinitely without cleanup', why: 'The table grows without bound and index lookups slow down.', here: 'Every record has expires_at; the cleanup job (or TTL) removes it, and store_size alerts when it does not.' },
    { name: 'Using timestamps as idempotency keys', why: 'Two requests in one millisecond collide; one intent retried a second later does not deduplicate.', here: 'Keys are UUIDv4/ULID intents or provider/producer event ids; no clock is read to build a key.' },
    { name: 'Using request-body equality instead of a stable key', why: 'Bodies differ in non-significant fields (timestamps, trace ids) between retries.', here: 'The key identifies the intent; the fingerprint covers only significant fields.' },
    { name: 'Storing full response bodies without encryption', why: 'PII/PCI exposure if the store is compromised.', here: codec === 'encryption' ? 'The generated engine sets createEncryptionCodec: stored bodies are AES-256-GCM encrypted.' : codec === 'hash-only' ? 'The generated engine sets createHashOnlyCodec: only the status and a SHA-256 of the body are stored.' : 'NOT YET: the generated code sets no codec, so bodies are stored as sent. Add codec: createEncryptionCodec(...) (or createHashOnlyCodec()) to the engine options before storing card or personal data (section 8).' },
    { name: 'Not partitioning/archiving the idempotency table', why: 'At high volume (> 1M keys a day) table bloat degrades lookups.', here: `${plan.keysPerDay.toLocaleString('en-US')} keys a day: ${plan.partitioned ? (store === 'postgresql' ? 'range partitions on created_at, created ahead and dropped behind by the runtime’s partition maintenance.' : 'key partitions plus batched purges.') : 'batched purges are enough; revisit above 100K a day.'}` },
  ];
  if (http) list.push({ name: 'Relying on UI button disabling alone', why: 'It does not stop network retries, API clients or races.', here: 'Disable the button for UX, but the server-side key is what guarantees one execution.' });
  if (store === 'mysql') list.push({ name: 'Case-insensitive collation on the key column', why: 'With utf8mb4_0900_ai_ci, `Abc` and `abc` are one key: two different intents meet, and one gets a 409 or — worse — the other’s replay if fingerprints happen to match.', here: 'The DDL declares `ascii_bin` for the key and `utf8mb4_bin` for user_id.' });
  if (store === 'mysql') list.push({ name: 'Reading after INSERT IGNORE inside a REPEATABLE READ transaction', why: 'The snapshot taken before a concurrent commit hides the row that blocked the insert: the claimer sees neither its own row nor the other one.', here: 'Claim statements autocommit one by one; never wrap them in a long transaction.' });
  if (store === 'postgresql') list.push({ name: 'Treating an empty INSERT … ON CONFLICT result as “no record”', why: 'Under READ COMMITTED a concurrent claim that commits after the statement’s snapshot makes both branches return nothing.', here: 'The claim is re-run when it returns no row (section 4.1).' });
  if (store === 'redis') list.push({ name: 'SETNX lock released with a plain DEL', why: 'A worker that stalled past its TTL deletes the lock a newer worker now holds; both run.', here: 'Every script checks lock_version (a fencing token) before it writes or deletes.' });
  if (store === 'redis') list.push({ name: 'Redis without persistence or replica acknowledgement for payments', why: 'A restart or failover loses acknowledged claims, and a retry runs the charge again.', here: 'AOF everysec plus WAIT 1 for payment actions (section 4.1).' });
  if (store === 'dynamodb') list.push({ name: 'Check with an eventually consistent read, then write', why: 'The read can miss a claim made a moment ago.', here: 'The claim is one conditional write; no read precedes it.' });
  if (store === 'mongodb') list.push({ name: 'Claiming without the unique index', why: 'Two upserts with the same filter both insert.', here: 'pk_idempotency is unique on (key, scope).' });
  if (broker !== 'none') list.push({ name: 'Acknowledging a message before processing it', why: 'A crash after the ack loses the message; the work never happens and nobody retries.', here: 'Messages are acked only after the record is COMPLETED or FAILED.' });
  if (broker === 'kafka' || broker === 'sqs') list.push({ name: 'Using the offset or the broker’s message id as the key', why: 'A producer retry re-publishes the same event with a new offset or MessageId.', here: 'The key is the producer’s event id, set once in the outbox.' });
  if (plan.actions.some((a) => a.action.kind === 'webhook')) list.push({ name: 'Answering 200 to a webhook before the work is stored', why: 'A crash after the 200 loses the event: the provider will not resend it.', here: 'The webhook answers 2xx only after COMPLETED, and 409 while another delivery holds the key.' });
  return list;
}

/**
 * Section 9: the anti-pattern table for this stack.
 * @example antiPatternsSection({ plan, artifacts })
 */
export function antiPatternsSection(ctx: DesignContext): Section {
  return section('anti-patterns', '9. Anti-patterns to avoid', [
    para(txt`Flag these in design review. The last column says where this design stands on each.`),
    table(['Anti-pattern', 'Why it fails', 'In this design'], antiPatterns(ctx.plan, generatedCodec(ctx)).map((item) => [item.name, item.why, item.here])),
  ]);
}
