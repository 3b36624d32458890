/**
 * Runbook queries for the user's store: real, runnable text (psql / mysql / sqlite3 / redis-cli /
 * aws / mongosh) for each situation of section 13.
 */
import { REDIS_DEFAULT_PREFIX, REDIS_RECORD_FIELDS } from '@idempotency-builder/runtime/contract';
import type { SqlStore } from '../../emit/ddl/index.js';
import { mysqlStatements } from '../../emit/ddl/mysql.js';
import { runtimeStatement } from '../../emit/runtime-contract.js';
import type { Plan } from '../plan/plan.js';

export interface Snippet {
  readonly language: 'sql' | 'bash' | 'javascript';
  readonly title: string;
  readonly code: string;
}

export type Situation = 'stuck' | 'release' | 'splitBrain' | 'maintenance' | 'divergence' | 'flooding';

/** Named statements made runnable by hand: parameters become literals or `<placeholders>`. */
function literal(sql: string, values: Record<string, string | number>): string {
  return sql.replace(/(?<![:\w]):([a-z][a-z0-9_]*)/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) return `'<${name}>'`;
    return typeof value === 'number' ? String(value) : `'${value}'`;
  });
}

/** A runtime statement made runnable by hand: `$n` (PostgreSQL) or `@name` (SQLite) become literals or `<placeholders>`. */
function runtimeLiteral(store: 'postgresql' | 'sqlite', plan: Plan, name: string, values: Record<string, string | number>): string {
  const statement = runtimeStatement(store, { table: plan.table, partitioned: plan.partitioned && store === 'postgresql' }, name);
  const value = (param: string) => {
    const v = values[param];
    if (v === undefined) return `'<${param}>'`;
    return typeof v === 'number' ? String(v) : `'${v}'`;
  };
  return store === 'postgresql'
    ? statement.sql.replace(/\$(\d+)/g, (_m, n: string) => value(statement.params[Number(n) - 1] ?? `$${n}`))
    : statement.sql.replace(/@([A-Za-z]+)/g, (_m, param: string) => value(param));
}

const NOW: Record<SqlStore, string> = { postgresql: 'now()', mysql: 'UTC_TIMESTAMP(3)', sqlite: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)" };

/** created_at in ms since the epoch: a fresh claim's lock_version equals it (same statement clock). */
const CREATED_MS: Record<SqlStore, string> = {
  postgresql: 'floor(extract(epoch FROM created_at) * 1000)::bigint',
  mysql: "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', created_at) DIV 1000)",
  sqlite: 'created_at',
};

function ago(store: SqlStore, ms: number): string {
  if (store === 'postgresql') return `now() - interval '${Math.round(ms / 1000)} seconds'`;
  if (store === 'mysql') return `UTC_TIMESTAMP(3) - INTERVAL ${Math.round(ms / 1000)} SECOND`;
  return `${NOW.sqlite} - ${ms}`;
}

function sqlSnippets(plan: Plan, store: SqlStore): Record<Situation, Snippet[]> {
  const t = plan.table;
  // Every store's statements are the runtime's own (MySQL through its contract, named parameters).
  const statements = store === 'mysql' ? mysqlStatements(t, false) : [];
  const mysqlSql = (name: string) => statements.find((s) => s.name === name)?.sql ?? '';
  const stuckQuery = (olderThanMs: number) =>
    store === 'mysql' ? literal(mysqlSql('listStuck'), { older_us: olderThanMs * 1000, limit: 100 }) : runtimeLiteral(store, plan, 'listStuck', { olderThanMs, limit: 100 });
  const byKey = (runtimeName: 'get' | 'forceRelease') =>
    store === 'mysql' ? literal(mysqlSql(runtimeName), {}) : runtimeLiteral(store, plan, runtimeName, {});
  const minLease = Math.min(...plan.actions.map((a) => a.lease.leaseMs));
  const payment = plan.actions.find((a) => a.action.provider) ?? plan.actions[0];
  const prefix = `${payment?.action.name ?? 'action'}_%`;
  const hour = ago(store, 3_600_000);
  const tenMinutes = ago(store, 600_000);
  const partitions =
    store === 'postgresql'
      ? `-- Size, dead tuples and vacuum recency per partition (or of the single table).
SELECT relname, n_live_tup, n_dead_tup, last_autovacuum, last_autoanalyze
  FROM pg_stat_user_tables
 WHERE relname LIKE '${t}%'
 ORDER BY n_dead_tup DESC;`
      : store === 'mysql'
        ? `-- Rows per partition (estimates) and the table's data/index size.
SELECT PARTITION_NAME, TABLE_ROWS, DATA_LENGTH, INDEX_LENGTH
  FROM information_schema.PARTITIONS
 WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '${t}';`
        : `-- Pages in use vs free; checkpoint the WAL, then VACUUM in a quiet hour if free pages dominate.
PRAGMA page_count;
PRAGMA freelist_count;
PRAGMA wal_checkpoint(TRUNCATE);`;
  return {
    stuck: [{ language: 'sql', title: 'Stuck PROCESSING records (lease over for more than 2× the shortest lease)', code: `${stuckQuery(2 * minLease)};` }],
    release: [
      { language: 'sql', title: 'Inspect one record first', code: `${byKey('get')};` },
      { language: 'sql', title: 'Manual release: end the lease and bump lock_version (fences out the old holder)', code: `${byKey('forceRelease')};` },
    ],
    splitBrain: [
      {
        language: 'sql',
        title: 'Keys taken over in the last hour (a fresh claim’s lock_version is its creation time in ms; each reclaim or manual release adds 1)',
        code: `SELECT idempotency_key, user_id, lock_version - ${CREATED_MS[store]} AS takeovers, status, created_at, completed_at
  FROM ${t}
 WHERE lock_version > ${CREATED_MS[store]} AND created_at > ${hour}
 ORDER BY takeovers DESC
 LIMIT 50;`,
      },
      {
        language: 'sql',
        title: 'Duplicates that reached the business table (it stores the idempotency key under a unique constraint; this must return nothing)',
        code: `SELECT user_id, idempotency_key, count(*) AS copies
  FROM <business_table>
 GROUP BY user_id, idempotency_key
HAVING count(*) > 1;`,
      },
    ],
    maintenance: [
      { language: 'sql', title: 'Partition / table health', code: partitions },
      {
        language: 'sql',
        title: 'Cleanup lag: expired records still present an hour after expiry (should be near 0)',
        code: `SELECT count(*) AS overdue
  FROM ${t}
 WHERE status <> 'PROCESSING' AND expires_at < ${hour};`,
      },
    ],
    divergence: [
      {
        language: 'sql',
        title: `Payment records the provider must settle: PROCESSING past 2× the lease`,
        code: `SELECT idempotency_key, user_id, lock_version, locked_until, created_at
  FROM ${t}
 WHERE status = 'PROCESSING' AND locked_until < ${ago(store, 2 * (payment?.lease.leaseMs ?? minLease))}
   AND idempotency_key LIKE '${prefix}'
 ORDER BY created_at;`,
      },
      {
        language: 'sql',
        title: 'Completed payments of one day, to diff against the provider’s settlement report (by provider key)',
        code: `SELECT idempotency_key, user_id, response_code, completed_at
  FROM ${t}
 WHERE status = 'COMPLETED' AND idempotency_key LIKE '${prefix}'
   AND completed_at >= ${ago(store, 2 * 86_400_000)} AND completed_at < ${ago(store, 86_400_000)};`,
      },
    ],
    flooding: [
      {
        language: 'sql',
        title: 'Principals creating the most keys in the last 10 minutes',
        code: `SELECT user_id, count(*) AS new_keys,
       sum(CASE WHEN status = 'PROCESSING' THEN 1 ELSE 0 END) AS in_flight
  FROM ${t}
 WHERE created_at > ${tenMinutes}
 GROUP BY user_id
HAVING count(*) > 1000
 ORDER BY new_keys DESC
 LIMIT 20;`,
      },
    ],
  };
}

function redisSnippets(plan: Plan): Record<Situation, Snippet[]> {
  const f = REDIS_RECORD_FIELDS;
  const records = `${REDIS_DEFAULT_PREFIX}r:{*`;
  const one = `'${REDIS_DEFAULT_PREFIX}r:{<scope>|<key>}'`;
  const scan = (filter: string) => `now=$(redis-cli TIME | head -1)000
redis-cli --scan --pattern '${records}' --count 1000 | while read -r key; do
  set -- $(redis-cli HMGET "$key" ${f.status} ${f.lockedUntil} ${f.lockVersion} ${f.createdAt})
  ${filter}
done`;
  const minLease = Math.min(...plan.actions.map((a) => a.lease.leaseMs));
  return {
    stuck: [{ language: 'bash', title: `Stuck PROCESSING records (lease over for more than ${Math.round((2 * minLease) / 1000)} s); run against a replica`, code: scan(`[ "$1" = PROCESSING ] && [ "$2" -lt $((now - ${2 * minLease})) ] && echo "$key lock_version=$3 lease_ended=$2"`) }],
    release: [
      { language: 'bash', title: 'Inspect one record', code: `redis-cli HGETALL ${one}` },
      { language: 'bash', title: 'Manual release: end the lease and bump lock_version (fences out the old holder) — the runtime’s own script', code: `redis-cli --eval db/redis/force-release.lua ${one}` },
    ],
    splitBrain: [
      { language: 'bash', title: 'Records taken over at least once (lock_version above its creation time in ms)', code: scan('[ "${3:-0}" -gt "${4:-0}" ] && echo "$key status=$1 takeovers=$(( $3 - $4 ))"') },
      { language: 'bash', title: 'Replication health: a failover can lose acknowledged claims', code: 'redis-cli INFO replication | grep -E "role|connected_slaves|master_repl_offset|slave[0-9]"' },
    ],
    maintenance: [{ language: 'bash', title: 'Memory and key count (finished records expire by PEXPIREAT; no partitions to rotate)', code: "redis-cli INFO memory | grep -E 'used_memory_human|maxmemory_policy'\nredis-cli INFO keyspace\n# maxmemory-policy must be noeviction: an evicted record is a forgotten claim." }],
    divergence: [{ language: 'bash', title: 'Payment records still PROCESSING past 2× the lease, to look up at the provider', code: scan(`[ "$1" = PROCESSING ] && [ "$2" -lt $((now - ${2 * minLease})) ] && echo "$key"`) }],
    flooding: [{ language: 'bash', title: 'Keys per scope (run against a replica)', code: `redis-cli --scan --pattern '${records}' --count 1000 | sed -e 's/^.*{//' -e 's/|.*$//' | sort | uniq -c | sort -rn | head -20` }],
  };
}

function dynamoSnippets(plan: Plan): Record<Situation, Snippet[]> {
  const t = plan.table;
  const stuck = `aws dynamodb scan --table-name ${t} --consistent-read \\
  --filter-expression '#s = :p AND locked_until < :cutoff' \\
  --expression-attribute-names '{"#s":"status"}' \\
  --expression-attribute-values "{\\":p\\":{\\"S\\":\\"PROCESSING\\"},\\":cutoff\\":{\\"N\\":\\"$(( $(date +%s%3N) - ${2 * Math.min(...plan.actions.map((a) => a.lease.leaseMs))} ))\\"}}"`;
  return {
    stuck: [{ language: 'bash', title: 'Stuck PROCESSING items (a Scan: run it rarely, or export to S3 for large tables)', code: stuck }],
    release: [{ language: 'bash', title: 'Manual release: end the lease and bump lock_version', code: `aws dynamodb update-item --table-name ${t} \\
  --key '{"user_id":{"S":"<scope>"},"idempotency_key":{"S":"<key>"}}' \\
  --update-expression 'SET locked_until = :now ADD lock_version :one' \\
  --condition-expression '#s = :p' \\
  --expression-attribute-names '{"#s":"status"}' \\
  --expression-attribute-values "{\\":p\\":{\\"S\\":\\"PROCESSING\\"},\\":one\\":{\\"N\\":\\"1\\"},\\":now\\":{\\"N\\":\\"$(date +%s%3N)\\"}}"` }],
    splitBrain: [{ language: 'bash', title: 'Items taken over at least once (a fresh claim’s lock_version is its created_at in ms)', code: `aws dynamodb scan --table-name ${t} --filter-expression 'lock_version > created_at'` }],
    maintenance: [{ language: 'bash', title: 'TTL status and table size (TTL deletes within about 48 h)', code: `aws dynamodb describe-time-to-live --table-name ${t}\naws dynamodb describe-table --table-name ${t} --query 'Table.[ItemCount,TableSizeBytes]'` }],
    divergence: [{ language: 'bash', title: 'Payment items still PROCESSING past 2× the lease', code: stuck }],
    flooding: [{ language: 'bash', title: 'Items of one suspected scope', code: `aws dynamodb query --table-name ${t} --key-condition-expression 'user_id = :u' --expression-attribute-values '{":u":{"S":"<scope>"}}' --select COUNT` }],
  };
}

function mongoSnippets(plan: Plan): Record<Situation, Snippet[]> {
  const c = `db.getCollection('${plan.table}')`;
  const cutoff = 2 * Math.min(...plan.actions.map((a) => a.lease.leaseMs));
  const stuck = `${c}.find({ status: 'PROCESSING', $expr: { $lt: ['$locked_until', { $subtract: ['$$NOW', ${cutoff}] }] } })
  .sort({ locked_until: 1 }).limit(100)`;
  return {
    stuck: [{ language: 'javascript', title: 'Stuck PROCESSING records (server clock)', code: stuck }],
    release: [{ language: 'javascript', title: 'Manual release: end the lease and bump lock_version', code: `${c}.updateOne(\n  { user_id: '<scope>', idempotency_key: '<key>', status: 'PROCESSING' },\n  [{ $set: { locked_until: '$$NOW', lock_version: { $add: ['$lock_version', 1] } } }],\n)` }],
    splitBrain: [{ language: 'javascript', title: 'Records taken over at least once in the last hour', code: `${c}.find({ $expr: { $and: [\n  { $gt: ['$lock_version', { $toLong: '$created_at' }] },\n  { $gt: ['$created_at', { $subtract: ['$$NOW', 3600000] }] },\n] } })` }],
    maintenance: [{ language: 'javascript', title: 'Collection size and TTL index', code: `${c}.stats({ scale: 1048576 })\n${c}.getIndexes()` }],
    divergence: [{ language: 'javascript', title: 'Payment records still PROCESSING past 2× the lease', code: stuck }],
    flooding: [{ language: 'javascript', title: 'Scopes creating the most keys in the last 10 minutes', code: `${c}.aggregate([\n  { $match: { $expr: { $gt: ['$created_at', { $subtract: ['$$NOW', 600000] }] } } },\n  { $group: { _id: '$user_id', keys: { $sum: 1 } } },\n  { $match: { keys: { $gt: 1000 } } },\n  { $sort: { keys: -1 } }, { $limit: 20 },\n])` }],
  };
}

/**
 * Runnable snippets for each runbook situation, for the plan's store.
 * @example runbookSnippets(plan).stuck[0].code
 */
export function runbookSnippets(plan: Plan): Record<Situation, Snippet[]> {
  const store = plan.stack.store;
  if (store === 'redis') return redisSnippets(plan);
  if (store === 'dynamodb') return dynamoSnippets(plan);
  if (store === 'mongodb') return mongoSnippets(plan);
  return sqlSnippets(plan, store);
}
