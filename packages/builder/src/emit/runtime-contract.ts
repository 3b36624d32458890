/**
 * The builder's one reader of the runtime's contract (`@idempotency-builder/runtime/contract`):
 * the schema, the statements and the Lua scripts the runtime's stores execute, for the document
 * and the artifacts. Nothing here restates them; it only names and arranges what the runtime exports.
 */
import {
  CONTRACT_STORES,
  mysqlContract,
  postgresContract,
  REDIS_SCRIPTS,
  sqliteContract,
  type ContractStore,
  type PostgresContract,
  type RedisScriptName,
} from '@idempotency-builder/runtime/contract';
import type { StoreKind } from '../design/plan/stack.js';

/**
 * True when the runtime ships a store for `store`, so the document may say the runtime runs its statements.
 * @example runtimeRunsStore('postgresql') // true; runtimeRunsStore('dynamodb') // false (no SQL contract)
 */
export function runtimeRunsStore(store: StoreKind): store is ContractStore {
  return (CONTRACT_STORES as readonly string[]).includes(store);
}

/** One statement as the runtime runs it: exact text, and what its parameters are. */
export interface RuntimeStatement {
  /** The runtime's operation name (`claim`, `finish`, `claimUpsert`, …). */
  readonly name: string;
  readonly purpose: string;
  /** Exactly the text the store sends. */
  readonly sql: string;
  /** PostgreSQL: the meaning of `$1`, `$2` …; MySQL: of each `?` in order; SQLite binds `@name` and lists nothing here. */
  readonly params: readonly string[];
}

/** What each operation does; the statements themselves come from the runtime. */
const PURPOSE: Readonly<Record<string, string>> = {
  claim: 'One statement, one round trip: insert when absent, take over an orphan (lease over, same fingerprint and owner) or an expired record by compare-and-set, or return the record as it stands — all on clock_timestamp(). No row = a concurrent claim committed after this statement’s snapshot: run it again.',
  claimRead: 'Inside the claim’s IMMEDIATE transaction: the store clock as `now` and the record (NULL columns when absent).',
  claimUpsert: 'The claim’s compare-and-set: insert when absent, take over only an orphan (same fingerprint and owner) or an expired finished record; no row = it changed nothing.',
  finish: 'PROCESSING → COMPLETED or FAILED with the stored response, fenced by lock_version; retention restarts at completion.',
  release: 'Transient failure: delete the claim, fenced by lock_version, so a retry can run at once.',
  extend: 'Heartbeat: push the lease end from the store clock, only while this holder still owns the key.',
  get: 'The record as stored, expired or not.',
  purgeExpired: 'Cleanup batch: delete up to the batch size of expired COMPLETED/FAILED records, never a PROCESSING one.',
  listStuck: 'Runbook: PROCESSING records whose lease ended at least the given time ago, oldest first.',
  forceRelease: 'Runbook manual release: end the lease now and bump lock_version so the old holder is fenced out.',
  sizeExact: 'Exact record count (store_size gauge).',
  sizeEstimate: 'Planner estimate of the record count, O(1).',
  size: 'Record count (store_size gauge).',
  now: 'The store clock in ms.',
};

/** MySQL/MariaDB operations whose name means something else, or nothing, on the other stores. */
const MYSQL_PURPOSE: Readonly<Record<string, string>> = {
  claimUpsert: 'The claim’s one atomic write: INSERT … ON DUPLICATE KEY UPDATE with the takeover conditions inside (orphan: lease over, same fingerprint and owner; or an expired finished record), all on UTC_TIMESTAMP(3). A winning claim stamps its random nonce plus N (new), R (reclaimed) or E (expired replaced) into claim_token.',
  claimRead: 'The claim’s read-back (same call with multiStatement, else the next round trip), a locking read of the newest version: the caller holds the key exactly when claim_token starts with its nonce; otherwise the row is the existing record. No row = a holder released the key in between: claim again.',
  purgeCandidates: 'Cleanup, step 1: up to the batch size of expired COMPLETED/FAILED rows along the purge_at index — a plain read, no locks, so claims never wait.',
  purgeDelete: 'Cleanup, step 2: delete the candidates by primary key, re-checking expiry (a claim may have replaced one); sent after SET TRANSACTION ISOLATION LEVEL READ COMMITTED, so no gap locks.',
};

/** The stores whose statements the builder quotes (Redis has scripts instead). */
export type SqlContractStore = 'postgresql' | 'sqlite' | 'mysql';

/**
 * The runtime's PostgreSQL contract for the plan's table and layout.
 * @example postgresFor({ table: 'idempotency_store', partitioned: false }).statements.claim
 */
export function postgresFor({ table, partitioned }: { table: string; partitioned: boolean }): PostgresContract {
  return postgresContract({ table, layout: partitioned ? 'partitioned' : 'plain' });
}

/**
 * Every statement the runtime's store runs for this database, in operation order.
 * @example runtimeStatements('postgresql', { table: 'idempotency_store', partitioned: false })[0].name // 'claim'
 */
export function runtimeStatements(store: SqlContractStore, { table, partitioned }: { table: string; partitioned: boolean }): RuntimeStatement[] {
  if (store === 'mysql') {
    const my = mysqlContract({ table });
    const statements = Object.entries(my.statements).map(([name, statement]) => ({ name, purpose: MYSQL_PURPOSE[name] ?? PURPOSE[name] ?? '', sql: statement.text, params: statement.params }));
    const purge = my.purgeDelete(1);
    statements.push({ name: 'purgeDelete', purpose: `${MYSQL_PURPOSE.purgeDelete} Shown for one row; the store sends one (key, scope) pair per candidate.`, sql: purge.text, params: purge.params });
    return statements;
  }
  if (store === 'postgresql') {
    const pg = postgresFor({ table, partitioned });
    return Object.entries(pg.statements).map(([name, sql]) => ({ name, purpose: PURPOSE[name] ?? '', sql, params: pg.params[name as keyof typeof pg.params] }));
  }
  return Object.entries(sqliteContract(table).statements).map(([name, sql]) => ({ name, purpose: PURPOSE[name] ?? '', sql, params: [] }));
}

/**
 * One runtime statement by name; throws when the runtime has no such statement (a renamed one must fail loudly).
 * @example runtimeStatement('postgresql', plan, 'claim').sql.includes('clock_timestamp()') // true
 */
export function runtimeStatement(store: SqlContractStore, target: { table: string; partitioned: boolean }, name: string): RuntimeStatement {
  const found = runtimeStatements(store, target).find((s) => s.name === name);
  if (!found) throw new Error(`The runtime's ${store} store has no statement "${name}".`);
  return found;
}

/**
 * The runtime's schema for the database: PostgreSQL's ledgered migration script (`migrate()` runs
 * the same), SQLite's `CREATE … IF NOT EXISTS` script (the store runs it on open), MySQL's
 * migration steps as one idempotent script (`migrate()` applies the same steps under GET_LOCK).
 * @example runtimeSchema('sqlite', { table: 'idempotency_store', partitioned: false }).includes('STRICT') // true
 */
export function runtimeSchema(store: SqlContractStore, { table, partitioned }: { table: string; partitioned: boolean }): string {
  if (store === 'mysql') return mysqlContract({ table }).schemaSql;
  return store === 'postgresql' ? postgresFor({ table, partitioned }).migrationSql : sqliteContract(table).schemaSql;
}

/**
 * The queries file for a runtime store: every statement under `-- name:`, with what its parameters are.
 * @example runtimeQueriesFile('postgresql', { table: 'idempotency_store', partitioned: false }).startsWith('--') // true
 */
export function runtimeQueriesFile(store: SqlContractStore, target: { table: string; partitioned: boolean }): string {
  const blocks = runtimeStatements(store, target).map((s) => {
    const params = s.params.length > 0 ? `-- parameters: ${s.params.map((p, i) => (store === 'mysql' ? `?${i + 1} ${p}` : `$${i + 1} ${p}`)).join(', ')}\n` : '';
    return `-- name: ${s.name}\n-- ${s.purpose}\n${params}${s.sql.trim()};\n`;
  });
  const style = store === 'postgresql' ? 'positional ($1, $2 …)' : store === 'mysql' ? 'positional (? in the order listed; durations in µs: leaseUs, ttlUs, olderUs)' : 'named (@key, @scope …)';
  const name = store === 'postgresql' ? 'PostgreSQL' : store === 'mysql' ? 'MySQL/MariaDB' : 'SQLite';
  return `-- The statements the idempotency-builder runtime's ${name} store executes, exactly as it sends them.\n-- Parameters are ${style}.\n\n${blocks.join('\n')}`;
}

/** The Redis store's Lua scripts, one per operation, exactly as the runtime loads them. */
export interface RuntimeScript {
  readonly operation: RedisScriptName;
  /** File name, e.g. `claim.lua`, `force-release.lua`. */
  readonly file: string;
  readonly sha1: string;
  readonly source: string;
}

/**
 * The runtime's Redis scripts.
 * @example runtimeScripts().find((s) => s.operation === 'claim')?.file // 'claim.lua'
 */
export function runtimeScripts(): RuntimeScript[] {
  return (Object.entries(REDIS_SCRIPTS) as [RedisScriptName, (typeof REDIS_SCRIPTS)[RedisScriptName]][]).map(([operation, script]) => ({
    operation,
    file: `${script.name.replace(/^idempotency-builder:/, '').replace(/@\d+$/, '')}.lua`,
    sha1: script.sha1,
    source: script.source,
  }));
}
