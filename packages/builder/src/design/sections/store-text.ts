/**
 * Store-specific prose for section 4: how the claim is made atomic in the user's database, and how
 * its clock is used. Each store is redesigned from the logical model, not translated DDL.
 */
import type { StoreKind } from '../plan/stack.js';

export interface StoreText {
  readonly claim: string;
  readonly clock: string;
  readonly durability?: string;
}

export const STORE_TEXT: Record<StoreKind, StoreText> = {
  postgresql: {
    claim:
      'One statement, one round trip: insert, take over an orphan or expired record by compare-and-set, or return the record; an empty result (a concurrent commit after its snapshot) is run again.',
    clock: 'Every comparison uses `clock_timestamp()`, the database server’s one clock, read once per statement — not `now()`, which is frozen at the start of the caller’s transaction.',
  },
  mysql: {
    claim:
      '`INSERT IGNORE` (1 row → claimed), then `fetch`, then a fenced `UPDATE … WHERE lock_version = <read value> AND <orphaned or expired>` (1 row → claimed); both set `lock_version = LAST_INSERT_ID(<new value>)`, which hands the new fencing token back without a second query. Each statement autocommits, so no snapshot hides a concurrent commit and no gap lock deadlocks two claimers; the key column is `ascii_bin` (case matters).',
    clock: 'Every comparison uses `UTC_TIMESTAMP(3)` on the server — independent of the session time zone and of application clocks — and `fetch` returns the verdicts computed in SQL.',
  },
  sqlite: {
    claim:
      'One `BEGIN IMMEDIATE` transaction (SQLite serialises writers): `claimRead` reads the clock and the record, then `claimUpsert` inserts or takes over an orphan or an expired record by `ON CONFLICT … DO UPDATE … WHERE` — atomic across every process sharing the file (WAL, `busy_timeout` ≥ the detection budget).',
    clock: 'Times are integer milliseconds from SQLite’s own clock (`unixepoch(\'subsec\')`), fixed for the whole statement; on one host that is the only clock anyway.',
  },
  redis: {
    claim:
      'The runtime’s `claim.lua`, one EVALSHA that Redis runs atomically: insert, take over an orphan or an expired record, or return the record. The record and its fence share a hash tag, so it runs unchanged on Redis Cluster.',
    clock: 'Scripts read the server clock with `TIME`; a finished record carries `PEXPIREAT`, a PROCESSING one never expires by itself — only its lease decides a takeover.',
    durability:
      'Redis replicates asynchronously: a claim lost in a failover lets a duplicate run. For payment actions wait for one replica (`WAIT 1 <ms>`, the runtime’s `waitForReplicas`) and fail closed on timeout; enable AOF (`appendfsync everysec`).',
  },
  dynamodb: {
    claim:
      'One conditional `PutItem` (`attribute_not_exists(idempotency_key)`); a lost claim returns the blocking item in the same round trip (`ALL_OLD`), and a dead one is taken over by one fenced `UpdateItem` (`lock_version = :seen` plus the orphan or expiry condition). Runbook reads use `ConsistentRead: true`.',
    clock: 'Conditions cannot read a server clock, so `:now` is the application server’s: leases carry a skew buffer (below), and servers run NTP with drift alerts.',
  },
  mongodb: {
    claim:
      'One upserting `findOneAndUpdate` filtered on `{user_id, idempotency_key}` plus the takeover conditions; when the record may not be taken over, the unique index `pk_idempotency` refuses the second insert (E11000) and the record is answered. Use `writeConcern: majority` for payments.',
    clock: 'Updates use `$$NOW`, the server’s clock; the TTL index removes expired documents within about a minute, and every claim still checks `expires_at` itself.',
  },
};
