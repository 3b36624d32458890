/**
 * Partition maintenance for the partitioned layout: create partitions ahead of the clock, drop
 * whole partitions behind the retention window — instead of deleting expired rows one by one.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { positiveInteger } from '../../core/options.js';
import { isPlainName, literal, quoteIdent } from './identifiers.js';
import type { PgQueryable } from './queryable.js';
import { toNumber } from './row-mapping.js';
import { tableNames, type TableNames } from './schema.js';
import { epochMs } from './sql.js';

export interface PartitionMaintenanceOptions {
  readonly db: PgQueryable;
  readonly schema?: string;
  readonly table?: string;
  /** Width of one partition, aligned to the epoch (UTC). Default one day. */
  readonly partitionMs?: number;
  /** How many partitions to keep ready after the current one. Default 3. */
  readonly premake?: number;
  /**
   * A partition is dropped once its whole range ended at least this long ago AND it holds no
   * live record (PROCESSING, or not yet expired). Set it above the longest ttlMs plus the longest
   * action: a partition that still holds a live record is kept and reported, never dropped.
   */
  readonly retentionMs: number;
  /** Bound on waiting for the parent's lock while attaching a partition. Default 2000. */
  readonly lockTimeoutMs?: number;
}

export interface PartitionMaintenanceResult {
  readonly created: string[];
  readonly dropped: string[];
  readonly kept: { readonly partition: string; readonly reason: string }[];
}

export interface PartitionMaintenance {
  /** One pass: create ahead, then drop behind. */
  run(): Promise<PartitionMaintenanceResult>;
}

interface PartitionRow {
  readonly name: string;
  readonly fromMs: number | null;
  readonly toMs: number | null;
  readonly detachPending: boolean;
}

const DAY_MS = 86_400_000;

/**
 * `_p20250101t000000`: a partition's name after its table's, from its first instant (UTC).
 * @example partitionSuffix(Date.UTC(2025, 0, 1)) // '_p20250101t000000'
 */
export const partitionSuffix = (fromMs: number) =>
  `_p${new Date(fromMs).toISOString().replace(/[-:]/g, '').slice(0, 15).toLowerCase()}`;

/**
 * Validates the plan once and returns a runner. Run it from a scheduler (see `startPostgresCleanup`)
 * well before the last premade partition starts: a claim with no partition for its created_at fails.
 * @example
 * const partitions = createPartitionMaintenance({ db: pool, retentionMs: 3 * 86_400_000 });
 * const { created, dropped, kept } = await partitions.run();
 */
export function createPartitionMaintenance(options: PartitionMaintenanceOptions): PartitionMaintenance {
  const { db, schema = 'public', table = 'idempotency_store' } = options;
  const partitionMs = positiveInteger('partitionMs', options.partitionMs ?? DAY_MS, { min: 1000 });
  const premake = positiveInteger('premake', options.premake ?? 3);
  const retentionMs = positiveInteger('retentionMs', options.retentionMs);
  const lockTimeoutMs = positiveInteger('lockTimeoutMs', options.lockTimeoutMs ?? 2000);
  if (typeof db?.query !== 'function') throw new InvalidOptionsError('Option "db" must have a query(text, values) method.');
  const names = tableNames(schema, table);

  async function createAhead(nowMs: number, existing: readonly PartitionRow[], created: string[]) {
    const current = Math.floor(nowMs / partitionMs) * partitionMs;
    for (let i = 0; i <= premake; i++) {
      const from = current + i * partitionMs;
      const to = from + partitionMs;
      const overlaps = existing.some((p) => p.fromMs !== null && p.toMs !== null && p.fromMs < to && from < p.toMs);
      if (overlaps) continue;
      const partition = names.derived(partitionSuffix(from));
      // LIKE + ATTACH takes only SHARE UPDATE EXCLUSIVE on the parent, so claims keep running;
      // CREATE TABLE ... PARTITION OF would take ACCESS EXCLUSIVE and queue them behind it.
      // One multi-statement query = one implicit transaction (see migrations.ts).
      await db.query(`SET LOCAL lock_timeout = '${lockTimeoutMs}ms';
CREATE TABLE IF NOT EXISTS ${partition} (LIKE ${names.qualified} INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
ALTER TABLE ${names.qualified} ATTACH PARTITION ${partition}
  FOR VALUES FROM (${literal(new Date(from).toISOString())}) TO (${literal(new Date(to).toISOString())});`);
      created.push(partition);
    }
  }

  // Along the two partial indexes, a few index pages whatever the partition holds: a PROCESSING
  // row at all, or a finished one whose latest expiry is still ahead (max() reads the expires
  // index backwards). One OR over the rows instead matches neither index and scans the whole
  // partition — 20 ms per 10^5 rows, twice per drop, beside live claims.
  const holdsLive = async (partition: string) =>
    (await db.query(`SELECT EXISTS (SELECT 1 FROM ${partition} AS r WHERE r.status = 'PROCESSING')
       OR COALESCE((SELECT max(r.expires_at) FROM ${partition} AS r WHERE r.status <> 'PROCESSING') > clock_timestamp(), false) AS live`))
      .rows[0]?.live === true;

  async function dropBehind(nowMs: number, existing: readonly PartitionRow[], result: PartitionMaintenanceResult) {
    for (const row of existing) {
      if (row.toMs === null || row.fromMs === null || row.toMs > nowMs - retentionMs) continue;
      if (!isPlainName(row.name)) {
        result.kept.push({ partition: row.name, reason: 'not a plain SQL name; drop it by hand' });
        continue;
      }
      const partition = `${names.quotedSchema}.${quoteIdent(row.name)}`;
      if (!row.detachPending) {
        if (await holdsLive(partition)) {
          result.kept.push({ partition, reason: 'holds live records (PROCESSING or not yet expired)' });
          continue;
        }
        // CONCURRENTLY: SHARE UPDATE EXCLUSIVE on the parent, claims never wait on it.
        await db.query(`ALTER TABLE ${names.qualified} DETACH PARTITION ${partition} CONCURRENTLY`);
      } else {
        await db.query(`ALTER TABLE ${names.qualified} DETACH PARTITION ${partition} FINALIZE`);
      }
      // A record may have been reclaimed or completed between the check and the detach.
      if (await holdsLive(partition)) {
        await db.query(`ALTER TABLE ${names.qualified} ATTACH PARTITION ${partition}
          FOR VALUES FROM (${literal(new Date(row.fromMs).toISOString())}) TO (${literal(new Date(row.toMs).toISOString())})`);
        result.kept.push({ partition, reason: 'a record became live while detaching; re-attached' });
        continue;
      }
      await db.query(`DROP TABLE ${partition}`);
      result.dropped.push(partition);
    }
  }

  return {
    async run() {
      const nowMs = toNumber((await db.query(`SELECT ${epochMs('clock_timestamp()')} AS now_ms`)).rows[0]?.now_ms);
      const existing = await listPartitions(db, names);
      const result: PartitionMaintenanceResult = { created: [], dropped: [], kept: [] };
      await createAhead(nowMs, existing, result.created);
      await dropBehind(nowMs, existing, result);
      return result;
    },
  };
}

/** The partitions attached (or being detached) now, with their bounds in ms (null: MINVALUE/MAXVALUE/DEFAULT). */
async function listPartitions(db: PgQueryable, names: TableNames): Promise<PartitionRow[]> {
  const bound = (n: 1 | 2) =>
    epochMs(`(regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \\(''([^'']*)''\\) TO \\(''([^'']*)''\\)'))[${n}]::timestamptz`);
  const { rows } = await db.query(
    `SELECT c.relname AS name, i.inhdetachpending AS detach_pending, ${bound(1)} AS from_ms, ${bound(2)} AS to_ms
     FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
     WHERE i.inhparent = $1::text::regclass
     ORDER BY from_ms NULLS LAST`,
    [names.qualified],
  );
  return rows.map((row) => ({
    name: String(row.name),
    fromMs: row.from_ms === null ? null : toNumber(row.from_ms),
    toMs: row.to_ms === null ? null : toNumber(row.to_ms),
    detachPending: row.detach_pending === true,
  }));
}
