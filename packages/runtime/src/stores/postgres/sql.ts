/**
 * The PostgreSQL store's statements: named, parameterised, one statement per store operation.
 * Identifiers arrive already checked and quoted (identifiers.ts); every value is a `$n` parameter.
 *
 * The clock is `clock_timestamp()` — the wall clock of the database server at the moment it is
 * read — never `now()`, which is frozen at the start of the transaction: in transactional mode
 * the claim and the completion run inside the caller's transaction, possibly seconds after it
 * began, and a lease computed from its start would be short by that much. Where one statement
 * needs "now" more than once it reads the clock once (a MATERIALIZED CTE, or an uncorrelated
 * sub-select, which PostgreSQL evaluates once and can use as an index bound).
 */
import type { PostgresLayout, TableNames } from './schema.js';

/** A TIMESTAMPTZ as float ms since the epoch (microseconds kept as the fraction). */
export const epochMs = (expression: string) => `(extract(epoch FROM ${expression}) * 1000)::float8`;

/**
 * A TIMESTAMPTZ as whole ms since the epoch, BIGINT: a fresh record's fencing token (see
 * "Fencing tokens" in src/stores/contract.ts). Whole, because lock_version is an integer.
 * @example `INSERT ... lock_version ... VALUES (${clockMsBigint('clock.now')})`
 */
export const clockMsBigint = (expression: string) => `floor(extract(epoch FROM ${expression}) * 1000)::bigint`;

/**
 * The select list that row-mapping.ts reads: raw columns, times as `<name>_ms`. `source` is a
 * table alias or a composite value such as `(f.rec)`.
 */
export function recordSelect(source: string): string {
  return [
    `${source}.idempotency_key`,
    `${source}.user_id`,
    `${source}.owner_id`,
    `${source}.fingerprint`,
    `${source}.status`,
    `${source}.lock_version`,
    `${source}.response_code`,
    `${source}.response_headers`,
    `${source}.response_encoding`,
    `${source}.response_bytes`,
    `${epochMs(`${source}.locked_until`)} AS locked_until_ms`,
    `${epochMs(`${source}.created_at`)} AS created_at_ms`,
    `${epochMs(`${source}.completed_at`)} AS completed_at_ms`,
    `${epochMs(`${source}.expires_at`)} AS expires_at_ms`,
  ].join(', ');
}

/** `$n` milliseconds as an interval. */
const ms = (param: string) => `(interval '1 millisecond' * ${param}::float8)`;

/** The row of (key, scope): parameters $1 key, $2 scope. */
const byId = (alias: string) => `${alias}.idempotency_key = $1::text AND ${alias}.user_id = $2::text`;

/**
 * May a claim take this row? A PROCESSING record whose lease is over, for the same fingerprint
 * and owner (orphan reclaim); or an expired COMPLETED/FAILED record when replacing is allowed.
 * Parameters: $3 fingerprint, $4 owner, $7 replaceExpired. NULLs count as "no".
 */
const claimable = (row: string, now: string) => `COALESCE(
      (${row}.status = 'PROCESSING' AND ${row}.locked_until <= ${now}
        AND ${row}.fingerprint = $3::text AND ${row}.owner_id IS NOT DISTINCT FROM $4::text)
      OR (${row}.status <> 'PROCESSING' AND ${row}.expires_at <= ${now} AND $7::boolean),
    false)`;

/** The columns a fresh claim clears: a replaced record starts without a response. */
const CLEARED_RESPONSE = `completed_at = NULL, response_code = NULL, response_body = NULL,
        response_headers = NULL, response_encoding = NULL, response_bytes = NULL`;

/**
 * The claim's text (documented on `claim` in postgresStatements). `settings`, when given, is a
 * query that must run before the claim can wait on any lock — transactional mode's settings
 * (transactionalClaim) — answering one row with a column `done` that is true. It becomes a
 * MATERIALIZED CTE the claim reads before anything else: the plain claim takes its clock from it,
 * the partitioned one passes `done` into the claim function's arguments (a call cannot start
 * before its arguments exist), so the order follows from data dependence, not from the planner.
 */
function claimStatement(table: string, claimFunction?: string, settings?: string): string {
  const claimOutput = (outcome: string, reclaimed: string, replaced: string, source: string) =>
    `SELECT '${outcome}'::text AS outcome, ${reclaimed} AS reclaimed, ${replaced} AS replaced,
       ${epochMs('clock.now')} AS now_ms, ${recordSelect(source)}`;
  return claimFunction
    ? `${settings ? `WITH settings AS MATERIALIZED (${settings})\n        ` : ''}SELECT f.outcome, f.reclaimed, f.replaced, ${epochMs('f.clock')} AS now_ms, ${recordSelect('(f.rec)')}
        FROM ${settings ? 'settings, ' : ''}${claimFunction}($1::text, $2::text, $3::text, $4::text, $5::float8, $6::float8, $7::boolean${settings ? ' AND settings.done' : ''}) AS f`
    : `WITH ${settings ? `settings AS MATERIALIZED (${settings}),\n      ` : ''}clock AS MATERIALIZED (SELECT clock_timestamp() AS now${settings ? ' FROM settings' : ''}),
      prior AS MATERIALIZED (
        SELECT r.*, ${claimable('r', 'clock.now')} AS claimable
        FROM ${table} AS r, clock
        WHERE ${byId('r')}
      ),
      inserted AS (
        INSERT INTO ${table} AS r
          (idempotency_key, user_id, owner_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
        SELECT $1::text, $2::text, $4::text, $3::text, 'PROCESSING', ${clockMsBigint('clock.now')},
          clock.now + ${ms('$5')}, clock.now, clock.now + ${ms('$6')}
        FROM clock
        WHERE NOT EXISTS (SELECT 1 FROM prior)
        ON CONFLICT (idempotency_key, user_id) DO NOTHING
        RETURNING r.*
      ),
      taken AS (
        UPDATE ${table} AS r SET
          fingerprint = $3::text, owner_id = $4::text, status = 'PROCESSING',
          lock_version = CASE WHEN prior.status = 'PROCESSING' THEN r.lock_version + 1
            ELSE GREATEST(r.lock_version + 1, ${clockMsBigint('clock.now')}) END,
          locked_until = clock.now + ${ms('$5')},
          created_at = CASE WHEN prior.status = 'PROCESSING' THEN r.created_at ELSE clock.now END,
          expires_at = clock.now + ${ms('$6')},
          ${CLEARED_RESPONSE}
        FROM clock, prior
        WHERE prior.claimable AND ${byId('r')}
          AND r.status = prior.status AND r.lock_version = prior.lock_version
          AND ${claimable('r', 'clock.now')}
        RETURNING r.*, prior.status = 'PROCESSING' AS was_processing
      ),
      newest AS (
        SELECT r.* FROM ${table} AS r
        WHERE ${byId('r')}
          AND EXISTS (SELECT 1 FROM prior WHERE prior.claimable)
          AND NOT EXISTS (SELECT 1 FROM taken)
        FOR SHARE
      )
      ${claimOutput('claimed', 'false', 'false', 'i')} FROM inserted AS i, clock
      UNION ALL
      ${claimOutput('claimed', 't.was_processing', 'NOT t.was_processing', 't')} FROM taken AS t, clock
      UNION ALL
      ${claimOutput('existing', 'false', 'false', 'p')} FROM prior AS p, clock WHERE NOT p.claimable
      UNION ALL
      ${claimOutput('existing', 'false', 'false', 'n')} FROM newest AS n, clock`;
}

/**
 * The statements for one table. `table` is the qualified, quoted name; `claimFunction`, when
 * given, is the partitioned layout's server-side claim (partitioned-sql.ts) used instead of the
 * single-statement claim.
 * @example const sql = postgresStatements('"public"."idempotency_store"'); await db.query(sql.get, [key, scope]);
 */
export function postgresStatements(table: string, claimFunction?: string) {
  return {
    /**
     * claim — $1 key, $2 scope, $3 fingerprint, $4 owner (NULL), $5 leaseMs, $6 ttlMs,
     * $7 replaceExpired. ONE statement, one round trip. Answers at most one row:
     *   outcome 'claimed'  — inserted (absent), or taken over (reclaimed / replaced);
     *   outcome 'existing' — the record as it stands, with the statement's clock as now_ms;
     *   no row             — the READ COMMITTED gap: a concurrent claim committed the key after
     *                        this statement's snapshot was taken, so the INSERT met a conflict
     *                        the snapshot cannot see (or a claimable row vanished under us).
     *                        The caller re-runs the statement; its new snapshot sees the row.
     * How: `prior` reads the row from the snapshot. Absent → INSERT ... ON CONFLICT DO NOTHING.
     * Present and claimable → a compare-and-set UPDATE whose WHERE re-checks status, lease,
     * fingerprint and lock_version on the newest row version after taking the row lock (READ
     * COMMITTED re-evaluates it), so of many concurrent reclaimers exactly one wins. A loser
     * re-reads the row with FOR SHARE, which follows the update chain to the winner's version —
     * never the stale snapshot. Present and not claimable (replay, in progress, mismatch) → the
     * snapshot row, read without taking any lock: replays write nothing.
     * Fencing tokens (src/stores/contract.ts): a fresh row starts at the clock in ms; an orphan
     * reclaim adds 1; replacing an expired record takes the larger of +1 and the clock in ms, so
     * the new incarnation is above every token the old one handed out.
     */
    claim: claimStatement(table, claimFunction),

    /**
     * finish — $1 key, $2 scope, $3 lockVersion, $4 status ('COMPLETED' | 'FAILED'),
     * $5 response_code, $6 response_headers (JSON text), $7 response_encoding, $8 response_bytes,
     * $9 response_body (JSON text or NULL), $10 ttlMs. Fenced: only a PROCESSING row still at
     * lockVersion changes. One row `applied` when it did.
     */
    finish: `WITH clock AS MATERIALIZED (SELECT clock_timestamp() AS now)
      UPDATE ${table} AS r SET
        status = $4::text, response_code = $5::int, response_headers = $6::text::jsonb,
        response_encoding = $7::text, response_bytes = $8::bytea, response_body = $9::text::jsonb,
        locked_until = NULL, completed_at = clock.now, expires_at = clock.now + ${ms('$10')}
      FROM clock
      WHERE ${byId('r')} AND r.lock_version = $3::bigint AND r.status = 'PROCESSING'
      RETURNING true AS applied`,

    /** release — $1 key, $2 scope, $3 lockVersion. Fenced delete: the key is claimable at once. */
    release: `DELETE FROM ${table} AS r
      WHERE ${byId('r')} AND r.lock_version = $3::bigint AND r.status = 'PROCESSING'
      RETURNING true AS applied`,

    /** extend — $1 key, $2 scope, $3 lockVersion, $4 leaseMs. Fenced heartbeat from the store clock. */
    extend: `UPDATE ${table} AS r SET locked_until = clock_timestamp() + ${ms('$4')}
      WHERE ${byId('r')} AND r.lock_version = $3::bigint AND r.status = 'PROCESSING'
      RETURNING true AS applied`,

    /** get — $1 key, $2 scope. The record as stored, expired or not. */
    get: `SELECT ${recordSelect('r')} FROM ${table} AS r WHERE ${byId('r')}`,

    /**
     * purgeExpired — $1 batchSize. Deletes up to $1 expired COMPLETED/FAILED rows, oldest expiry
     * first, found along the partial index on expires_at and deleted by their physical address
     * (TID scan): cost grows with the batch, not with the backlog. SKIP LOCKED: a row a claim is
     * replacing right now is left for the next batch instead of making either side wait. The
     * lock taken here re-checked status and expiry on the newest row version, and nobody can
     * change a locked row, so its address is stable until the DELETE. `tableoid` tells apart
     * rows of different partitions that share an address. Answers `purged`.
     */
    purgeExpired: `WITH doomed AS MATERIALIZED (
        SELECT r.tableoid AS rel, r.ctid AS tid FROM ${table} AS r
        WHERE r.status <> 'PROCESSING' AND r.expires_at <= (SELECT clock_timestamp())
        ORDER BY r.expires_at
        LIMIT $1::int
        FOR UPDATE SKIP LOCKED
      ),
      gone AS (
        DELETE FROM ${table} AS r
        WHERE r.ctid = ANY (ARRAY(SELECT d.tid FROM doomed AS d))
          AND (r.tableoid, r.ctid) IN (SELECT d.rel, d.tid FROM doomed AS d)
        RETURNING 1
      )
      SELECT count(*)::int AS purged FROM gone`,

    /**
     * listStuck — $1 olderThanMs, $2 limit. The runbook's identification query: PROCESSING rows
     * whose lease ended at least $1 ms ago, oldest first, along the partial index on locked_until.
     */
    listStuck: `SELECT ${recordSelect('r')} FROM ${table} AS r
      WHERE r.status = 'PROCESSING' AND r.locked_until <= (SELECT clock_timestamp()) - ${ms('$1')}
      ORDER BY r.locked_until
      LIMIT $2::int`,

    /**
     * forceRelease — $1 key, $2 scope. The runbook's manual release: ends the lease now and bumps
     * lock_version, so the old holder's fenced writes are refused and a retry reclaims at once.
     */
    forceRelease: `UPDATE ${table} AS r SET lock_version = r.lock_version + 1, locked_until = clock_timestamp()
      WHERE ${byId('r')} AND r.status = 'PROCESSING'
      RETURNING true AS applied`,

    /** sizeExact — no parameters. Exact row count (a full index scan: use sizeEstimate on big tables). */
    sizeExact: `SELECT count(*)::float8 AS n FROM ${table}`,

    /**
     * sizeEstimate — $1 the qualified table name as text. The planner's row estimate of the
     * table and its partitions (pg_class.reltuples, refreshed by VACUUM/ANALYZE): O(1).
     */
    sizeEstimate: `SELECT COALESCE(sum(GREATEST(c.reltuples, 0)), 0)::float8 AS n FROM pg_class AS c
      WHERE c.oid = $1::text::regclass
         OR c.oid IN (SELECT i.inhrelid FROM pg_inherits AS i WHERE i.inhparent = $1::text::regclass)`,

    /** now — no parameters. The store clock in ms. */
    now: `SELECT ${epochMs('clock_timestamp()')} AS now_ms`,
  };
}

export type PostgresStatements = ReturnType<typeof postgresStatements>;

/**
 * The statements a store over `names` in `layout` runs — the very object createPostgresStore
 * uses, so what the contract subpath and the design document show is what the store executes.
 * @example storeStatements(tableNames('public', 'idempotency_store'), 'plain').claim
 */
export function storeStatements(names: TableNames, layout: PostgresLayout): PostgresStatements {
  return postgresStatements(names.qualified, layout === 'partitioned' ? names.claimFunction : undefined);
}

/**
 * What each statement's `$n` stands for, in order (`$1` = the first name): the bind order for
 * generated stores in other languages. `finish` takes 'COMPLETED' or 'FAILED' as `status`.
 */
export const POSTGRES_STATEMENT_PARAMS: Readonly<Record<keyof PostgresStatements, readonly string[]>> = {
  claim: ['key', 'scope', 'fingerprint', 'owner', 'leaseMs', 'ttlMs', 'replaceExpired'],
  finish: ['key', 'scope', 'lockVersion', 'status', 'responseCode', 'responseHeaders', 'responseEncoding', 'responseBytes', 'responseBody', 'ttlMs'],
  release: ['key', 'scope', 'lockVersion'],
  extend: ['key', 'scope', 'lockVersion', 'leaseMs'],
  get: ['key', 'scope'],
  purgeExpired: ['batchSize'],
  listStuck: ['olderThanMs', 'limit'],
  forceRelease: ['key', 'scope'],
  sizeExact: [],
  sizeEstimate: ['qualifiedTable'],
  now: [],
};

/** Transaction-local custom settings of transactional mode: the run's marker, the caller's lock_timeout. */
const RUN_MARKER = 'idempotency_builder.transaction';
const CALLER_LOCK_TIMEOUT = 'idempotency_builder.caller_lock_timeout';

/**
 * transactionalClaim — $1–$7 as claim, $8 the claim's lock_timeout (e.g. '5000ms'), $9 the run's
 * marker (transactional.ts). The claim, after three transaction-local settings made in the same
 * statement before it can wait on another transaction's lock: the caller's lock_timeout is kept
 * aside, the claim's wait bound replaces it, and the run's marker is set. They vanish when the
 * transaction ends, so `transactionCheck`, the next statement, finds the marker only if the claim
 * ran inside the caller's open transaction. A re-run after the READ COMMITTED gap finds its own
 * marker and keeps what the first attempt kept aside (by then lock_timeout is ours). Each level
 * reads what the level inside it wrote (OFFSET 0 keeps the levels apart), so the three happen in
 * this order whatever the planner does.
 * @example await client.query(transactionalClaim(names, 'plain'), [...claimValues, '5000ms', randomUUID()]);
 */
export function transactionalClaim(names: TableNames, layout: PostgresLayout): string {
  const settings = `SELECT set_config('${RUN_MARKER}', $9::text, true) IS NOT NULL AS done
        FROM (SELECT set_config('lock_timeout', $8::text, true) AS claim_wait
          FROM (SELECT set_config('${CALLER_LOCK_TIMEOUT}', CASE WHEN current_setting('${RUN_MARKER}', true) = $9::text
              THEN current_setting('${CALLER_LOCK_TIMEOUT}') ELSE current_setting('lock_timeout') END, true) AS kept
            OFFSET 0) AS caller
          OFFSET 0) AS wait`;
  return claimStatement(names.qualified, layout === 'partitioned' ? names.claimFunction : undefined, settings);
}

/**
 * transactionCheck — no parameters. Sent right after transactionalClaim on the same queryable:
 * answers the marker (the run's own only inside one open transaction) and gives the caller's
 * lock_timeout back for the rest of the transaction.
 */
export const transactionCheck = `SELECT current_setting('${RUN_MARKER}', true) AS marker,
  set_config('lock_timeout', COALESCE(NULLIF(current_setting('${CALLER_LOCK_TIMEOUT}', true), ''), '0'), true) AS lock_timeout`;
