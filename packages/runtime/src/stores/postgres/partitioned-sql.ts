/**
 * The partitioned layout's claim: a server-side function, so the claim stays one statement and
 * one round trip while keeping (key, user_id) unique across partitions — which no index can do
 * once the table is range-partitioned on created_at.
 *
 * Why a function: uniqueness is enforced by a per-key advisory lock, and the read that decides
 * "absent" must see every row committed before the lock was granted. In READ COMMITTED a
 * plain statement reads with the snapshot it took before waiting for the lock; each statement
 * inside a VOLATILE function takes a fresh one. So: lock, then read, then write — all in here.
 */
import type { TableNames } from './schema.js';
import { clockMsBigint } from './sql.js';

/**
 * `<table>_claim(p_key, p_scope, p_fingerprint, p_owner, p_lease_ms, p_ttl_ms, p_replace)`
 * returns one row (outcome, reclaimed, replaced, clock, rec) with the same meaning as the plain
 * claim (sql.ts); `rec` is the record row.
 *
 *  - Every claimer of one (key, scope) first takes pg_advisory_xact_lock(lockClass, hash): held
 *    to the end of the claimer's transaction (the statement, or the caller's whole transaction in
 *    transactional mode), so two claims of one key never interleave, whatever partition they
 *    would write. A hash collision between two keys only makes them wait for each other.
 *  - The read covers every attached partition (no created_at bound), so uniqueness does not
 *    depend on how often partition maintenance runs.
 *  - Takeovers are compare-and-set UPDATE/DELETE on (created_at, status, lock_version): writers
 *    that do not claim (complete, release, purge) still race with us, and lose or win cleanly;
 *    when one changed the row between our read and our write, we read again.
 *  - An expired record is replaced by DELETE + INSERT rather than an UPDATE of created_at: moving
 *    a row to another partition makes a concurrent writer of the old version fail with a
 *    serialization error instead of simply finding it gone.
 *  - Fencing tokens as in the plain claim (src/stores/contract.ts): a fresh record starts at
 *    the clock in ms, a reclaim adds 1, a replacement takes GREATEST(old + 1, clock in ms).
 *  - Only under READ COMMITTED: a REPEATABLE READ snapshot could miss a row committed while we
 *    waited for the lock, and insert a duplicate. The function refuses to run there.
 *
 * @example await db.query(claimFunctionSql(tableNames('public', 'idempotency_store')));
 */
export function claimFunctionSql(names: TableNames): string {
  const t = names.qualified;
  const insertFresh = (lockVersion: string) => `INSERT INTO ${t} AS r
          (idempotency_key, user_id, owner_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
        VALUES (p_key, p_scope, p_owner, p_fingerprint, 'PROCESSING', ${lockVersion}, now_ts + lease, now_ts, now_ts + ttl)
        RETURNING r.* INTO won`;
  return `CREATE FUNCTION ${names.claimFunction}(
  p_key text, p_scope text, p_fingerprint text, p_owner text,
  p_lease_ms float8, p_ttl_ms float8, p_replace boolean)
RETURNS TABLE (outcome text, reclaimed boolean, replaced boolean, clock timestamptz, rec ${t})
LANGUAGE plpgsql VOLATILE
AS $claim$
DECLARE
  cur ${t};
  won ${t};
  now_ts timestamptz;
  lease interval := interval '1 millisecond' * p_lease_ms;
  ttl interval := interval '1 millisecond' * p_ttl_ms;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'idempotency claim on a partitioned table needs READ COMMITTED, not %',
      current_setting('transaction_isolation') USING ERRCODE = '25001';
  END IF;
  PERFORM pg_advisory_xact_lock(${names.lockClass}, hashtext(p_scope || '/' || p_key));
  FOR attempt IN 1..5 LOOP
    now_ts := clock_timestamp();
    SELECT * INTO cur FROM ${t} AS r
      WHERE r.idempotency_key = p_key AND r.user_id = p_scope
      ORDER BY r.created_at DESC LIMIT 1;
    IF NOT FOUND THEN
      ${insertFresh(clockMsBigint('now_ts'))};
      RETURN QUERY SELECT 'claimed'::text, false, false, now_ts, won;
      RETURN;
    ELSIF cur.status = 'PROCESSING' AND cur.locked_until <= now_ts
        AND cur.fingerprint = p_fingerprint AND cur.owner_id IS NOT DISTINCT FROM p_owner THEN
      UPDATE ${t} AS r SET lock_version = r.lock_version + 1, locked_until = now_ts + lease, expires_at = now_ts + ttl
        WHERE r.idempotency_key = p_key AND r.user_id = p_scope AND r.created_at = cur.created_at
          AND r.status = 'PROCESSING' AND r.lock_version = cur.lock_version AND r.locked_until <= now_ts
        RETURNING r.* INTO won;
      IF FOUND THEN
        RETURN QUERY SELECT 'claimed'::text, true, false, now_ts, won;
        RETURN;
      END IF;
    ELSIF cur.status <> 'PROCESSING' AND cur.expires_at <= now_ts AND p_replace THEN
      DELETE FROM ${t} AS r
        WHERE r.idempotency_key = p_key AND r.user_id = p_scope AND r.created_at = cur.created_at
          AND r.status = cur.status AND r.lock_version = cur.lock_version;
      IF FOUND THEN
        ${insertFresh(`GREATEST(cur.lock_version + 1, ${clockMsBigint('now_ts')})`)};
        RETURN QUERY SELECT 'claimed'::text, false, true, now_ts, won;
        RETURN;
      END IF;
    ELSE
      RETURN QUERY SELECT 'existing'::text, false, false, now_ts, cur;
      RETURN;
    END IF;
  END LOOP;
  RAISE EXCEPTION 'idempotency claim did not settle after 5 attempts' USING ERRCODE = '40001';
END
$claim$`;
}
