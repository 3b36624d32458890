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
      'The runtime’s claim is one statement and one round trip: it reads the row, then either inserts (`ON CONFLICT DO NOTHING`), takes over an orphan (lease over, same fingerprint and owner) or an expired record with a compare-and-set `UPDATE` that re-checks status, lease and lock_version on the newest row version, or returns the record as it stands — replays write nothing. Under READ COMMITTED a concurrent claim can commit after the statement’s snapshot; the statement then returns no row, and the store runs it once more. The partitioned layout calls a server-side function with the same answers, which takes a per-key advisory lock first.',
    clock: 'Every comparison uses `clock_timestamp()` — the database server’s clock, one clock for every app server — read once per statement. Not `now()`: that is frozen at the start of the transaction, and in transactional mode the claim runs inside the caller’s transaction, possibly seconds after it began.',
  },
  mysql: {
    claim:
      'MySQL and MariaDB have no `INSERT … RETURNING` (MySQL) and evaluate `ON DUPLICATE KEY UPDATE` assignments left to right, which makes a one-statement conditional takeover fragile. The claim is therefore `INSERT IGNORE` (affected rows = 1 → claimed), then `fetch`, then a fenced `UPDATE … WHERE lock_version = <read value> AND <orphaned or expired>` (affected rows = 1 → claimed). Both writes set `lock_version = LAST_INSERT_ID(<new value>)`, so the statement’s own last-insert-id hands the new fencing token back without a second query. Each statement autocommits: no REPEATABLE READ snapshot can hide a concurrent commit, and no gap lock can deadlock two claimers. The key column is `ascii_bin`, so keys that differ only in case are different keys.',
    clock: 'Every comparison uses `UTC_TIMESTAMP(3)` on the server — independent of the session time zone and of application clocks — and `fetch` returns the verdicts computed in SQL.',
  },
  sqlite: {
    claim:
      'Inside one `BEGIN IMMEDIATE` transaction (SQLite serialises writers): `claimRead` reads the store clock and the record, then `claimUpsert` inserts, or takes over only an orphan (same fingerprint and owner) or an expired finished record, by `ON CONFLICT … DO UPDATE … WHERE`. Atomic across every process sharing the file (WAL mode, `busy_timeout` at least the detection-latency budget).',
    clock: 'Times are integer milliseconds from SQLite’s own clock (`unixepoch(\'subsec\')`), fixed for the whole statement; on one host that is the only clock anyway.',
  },
  redis: {
    claim:
      'The runtime’s `claim.lua`, one EVALSHA: it reads the record hash, and inserts, takes over (lease over with the same fingerprint and owner, or an expired finished record) or returns the existing record — all inside one script, which Redis runs atomically. The record and its release fence share a hash tag, so every script touches one slot and runs unchanged on Redis Cluster.',
    clock: 'Scripts read the server clock with `TIME`; application clocks never decide a lease. A finished record carries `PEXPIREAT` (its expiry plus a grace period), so Redis deletes it by itself; a PROCESSING record never gets an expiry — only its lease decides when it can be taken over.',
    durability:
      'Redis replicates asynchronously: a claim acknowledged by a primary that fails before replicating can vanish in a failover, letting a duplicate run. For payment actions, wait for one replica after each write (`WAIT 1 <ms>`, the runtime’s `waitForReplicas` option) and fail closed when it times out; enable AOF with `appendfsync everysec` so a restart does not drop the store.',
  },
  dynamodb: {
    claim:
      'One conditional `PutItem` (`attribute_not_exists(idempotency_key)`) with `lock_version` = the application clock in ms. Conditional writes are strongly consistent; with `ReturnValuesOnConditionCheckFailure = ALL_OLD` a lost claim returns the blocking item in the same round trip, and when that item is dead one fenced `UpdateItem` takes it over — `reclaim` (`status = PROCESSING AND locked_until <= :now AND fingerprint = :fp AND lock_version = :seen`, `lock_version + 1`) or `replaceExpired` (`status <> PROCESSING AND expires_at <= :now AND lock_version = :seen`, `lock_version = max(:seen + 1, :now)`). Reads for the runbook use `ConsistentRead: true`.',
    clock: 'Conditions cannot read a server clock, so `:now` is the application server’s clock. Leases therefore carry a skew buffer (below), and app servers run NTP/chrony with drift alerts.',
  },
  mongodb: {
    claim:
      'One `findOneAndUpdate` with `upsert: true` and a filter of `{user_id, idempotency_key}` plus the takeover conditions. If the existing record may not be taken over, the filter matches nothing, the upsert tries to insert a second document and the unique index `pk_idempotency` refuses it (E11000) — the key exists, so the record is read and answered. Use `writeConcern: majority` for payment actions.',
    clock: 'Conditions and updates use `$$NOW`, the server’s clock, inside aggregation-pipeline updates; application clocks never decide a lease. The TTL index removes expired documents within about a minute, and every claim still checks `expires_at` itself.',
  },
};
