/** Claim latency while the partitioned layout's maintenance drops old partitions holding N expired rows (issue #17's purge goal). */
import type pg from 'pg';
import { percentile, type Reporter } from './harness.js';
import { purgeLatency, type ClaimingStore } from './purge-latency.js';
import { importRuntime } from './runtime-import.js';
import { partitionSuffix } from '../src/stores/postgres/partitions.js';

const { createPostgresStore, createPartitionMaintenance } = await importRuntime<typeof import('@idempotency-builder/runtime/postgres')>('postgres');
type PgQueryable = import('@idempotency-builder/runtime/postgres').PgQueryable;

const HOUR_MS = 3_600_000;
/** Old partitions the fill spreads its rows over; each maintenance pass drops one of them. */
const PARTITIONS = Number(process.env.IDEMPOTENCY_BENCH_PG_PARTITIONS ?? 10);
/** The newest old partition ends this many hours before the current hour: far past the claims' ttl. */
const HOURS_BEFORE_NOW = 24;
const TABLE = 'idempotency_store';
/**
 * On/off windows of the sampler. Shorter than the other cleanup cases' 2 s: the whole drop of
 * 10^6 rows in 10 partitions takes 1.3–2.1 s of passes (125–340 ms each here), so with 2 s
 * windows it ended inside the first one and there was no paused window to compare with.
 */
const WINDOW_MS = 500;

/** Maintenance's statements (partitions.ts), by what they do. */
const STATEMENT_KINDS: readonly [string, RegExp][] = [
  ['DETACH CONCURRENTLY', /DETACH PARTITION [^;]* CONCURRENTLY/],
  ['DETACH FINALIZE', /DETACH PARTITION [^;]* FINALIZE/],
  ['live check', /SELECT EXISTS/],
  ['DROP TABLE', /^\s*DROP TABLE/],
  ['ATTACH', /ATTACH PARTITION/],
];

/** The partition's name as maintenance derives it: `<table>_p20250101t000000`. */
const partitionName = (fromMs: number) => `${TABLE}${partitionSuffix(fromMs)}`;

/**
 * @example await partitionDropCase(report, pool, { rows: 1_000_000, fingerprint });
 */
export async function partitionDropCase(report: Reporter, pool: pg.Pool, { rows, fingerprint }: { rows: number; fingerprint: string }): Promise<void> {
  const schema = `bench_pg_partdrop_${process.pid}`;
  const qualified = `"${schema}"."${TABLE}"`;
  // Prepared, like the plain-layout cleanup cases' store, so the two tables compare like with like.
  const store = createPostgresStore({ db: pool, schema, table: TABLE, layout: 'partitioned', preparedStatements: true });
  // Maintenance's own statements, timed by kind: how long the DETACH ... CONCURRENTLY waited, what
  // the live checks and the DROP cost. Nothing here touches the claims' connections.
  const statementMs = new Map<string, number[]>();
  const timed: PgQueryable = {
    async query(text, values) {
      const started = performance.now();
      try {
        return await pool.query(text, values);
      } finally {
        const kind = STATEMENT_KINDS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'clock + listing';
        const times = statementMs.get(kind) ?? [];
        times.push(performance.now() - started);
        statementMs.set(kind, times);
      }
    },
  };
  const maintenance = (retentionMs: number) =>
    createPartitionMaintenance({ db: timed, schema, table: TABLE, partitionMs: HOUR_MS, premake: 3, retentionMs });
  try {
    await store.migrate();
    // The current hour and 3 ahead, by the real create-ahead; a retention of a year drops nothing.
    await maintenance(365 * 24 * HOUR_MS).run();
    const firstMs = Math.floor(Date.now() / HOUR_MS) * HOUR_MS - (PARTITIONS + HOURS_BEFORE_NOW) * HOUR_MS;
    const old = Array.from({ length: PARTITIONS }, (_, i) => ({ fromMs: firstMs + i * HOUR_MS, toMs: firstMs + (i + 1) * HOUR_MS }));
    await fillOld(pool, qualified, schema, old, rows, fingerprint);

    // Every claim that took a key, so the check afterwards can find each of them still stored.
    const claimed = new Set<string>();
    const recording: ClaimingStore = {
      async claim(input) {
        const result = await store.claim(input);
        if (result.outcome === 'claimed') claimed.add(input.key);
        return result;
      },
    };
    // Warm-up, unmeasured: each pooled connection prepares the claim and plans the function's
    // statements (the fresh-key insert and the expired-key replacement) before anything is timed.
    let warm = 0;
    await Promise.all(Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 50; i++) {
        await recording.claim({ key: `warm-${warm++}`, scope: 'bench', fingerprint, owner: null, leaseMs: 30_000, ttlMs: 3_600_000, replaceExpired: true });
        await recording.claim({ key: `fill-${1 + Math.floor(Math.random() * rows)}`, scope: 'bench', fingerprint, owner: null, leaseMs: 30_000, ttlMs: 3_600_000, replaceExpired: true });
      }
    }));
    // The fill's dirty pages are written out before the baseline, as pgbench does before a run:
    // otherwise the checkpoint they trigger lands on the baseline's claims or on the drop's.
    await pool.query('CHECKPOINT');
    const latency = purgeLatency(recording, { fingerprint, expiredKey: () => `fill-${1 + Math.floor(Math.random() * rows)}`, windowMs: WINDOW_MS, baselineFirst: true });
    const passMs: number[] = [];
    statementMs.clear(); // only the passes under the sampler, not the create-ahead above
    const perPartition = Math.ceil(rows / PARTITIONS).toLocaleString('en-US');
    await latency.during(
      `partitioned layout: maintenance drops ${PARTITIONS} partitions of ${perPartition} expired rows (${rows.toLocaleString('en-US')} in all), one per pass`,
      async (gate) => {
        for (const partition of old) {
          await gate();
          // One real maintenance pass per partition, as an hourly schedule would run them: the
          // retention puts this partition's end half an hour past the cutoff and the next one's
          // half an hour short of it, so the pass drops exactly this one.
          const started = performance.now();
          const result = await maintenance(Math.floor(Date.now() - partition.toMs - HOUR_MS / 2)).run();
          passMs.push(performance.now() - started);
          const expected = `"${schema}"."${partitionName(partition.fromMs)}"`;
          if (result.dropped.length !== 1 || result.dropped[0] !== expected || result.kept.length > 0) {
            throw new Error(`maintenance pass dropped ${JSON.stringify(result.dropped)}, kept ${JSON.stringify(result.kept)}; expected to drop ${expected}`);
          }
        }
      },
    );
    const passStatements = [...statementMs].map(([kind, ms]) => `${kind} ×${ms.length} p50 ${percentile(ms, 50).toFixed(0)} / max ${Math.max(...ms).toFixed(0)} ms`);
    const check = await verify(pool, qualified, schema, old, [...claimed]);
    report.table(
      `claim latency while partitions are dropped (partitioned layout, ${PARTITIONS} hourly partitions of expired rows; 4 clients: 3 new keys, 1 expired keys; drop gated on/off in alternating ${WINDOW_MS} ms windows, between passes; ratio = p99 running / p99 paused)`,
      latency.rows(),
    );
    report.line(
      `${passMs.length} maintenance passes: p50 ${percentile(passMs, 50).toFixed(0)} ms, max ${Math.max(...passMs).toFixed(0)} ms (${passStatements.join('; ')}); ${check}`,
    );
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  }
}

/**
 * The old partitions, created and attached as create-ahead does (LIKE + ATTACH), then filled with
 * `rows` COMPLETED records, created inside each partition's hour and expired an hour later.
 */
async function fillOld(pool: pg.Pool, qualified: string, schema: string, old: readonly { fromMs: number; toMs: number }[], rows: number, fingerprint: string) {
  for (const { fromMs, toMs } of old) {
    const partition = `"${schema}"."${partitionName(fromMs)}"`;
    await pool.query(`CREATE TABLE ${partition} (LIKE ${qualified} INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
      ALTER TABLE ${qualified} ATTACH PARTITION ${partition} FOR VALUES FROM ('${new Date(fromMs).toISOString()}') TO ('${new Date(toMs).toISOString()}')`);
  }
  const per = Math.ceil(rows / old.length);
  for (const [i, { fromMs }] of old.entries()) {
    const from = 1 + i * per;
    const to = Math.min(rows, from + per - 1);
    if (from > to) break;
    // In slices of at most 200 000 rows, like the plain layout's fill.
    for (let lo = from; lo <= to; lo += 200_000) {
      const hi = Math.min(to, lo + 199_999);
      await pool.query(
        `INSERT INTO ${qualified} (idempotency_key, user_id, fingerprint, status, lock_version, created_at, completed_at, expires_at,
           response_code, response_headers, response_encoding, response_bytes, response_body)
         SELECT 'fill-' || g, 'bench', $1, 'COMPLETED', 1, c.at, c.at, c.at + interval '1 hour',
           201, '{"content-type":"application/json"}', 'json', convert_to('{"id":"' || g || '","amount":4999}', 'UTF8'),
           ('{"id":"' || g || '","amount":4999}')::jsonb
         FROM generate_series($2::int, $3::int) g,
           LATERAL (SELECT $4::timestamptz + interval '1 hour' * (g - $5::int) / $6::int AS at) c`,
        [fingerprint, lo, hi, new Date(fromMs).toISOString(), from, per],
      );
    }
  }
  // As the plain fill: hint bits and statistics settled before anything is timed; and the fill's
  // dirty pages written now, not by a checkpoint in the middle of the sampler's windows.
  await pool.query(`VACUUM ANALYZE ${qualified}`);
  await pool.query('CHECKPOINT');
}

/**
 * After the drop: every key a claim took during it is still stored, once; no fill row is left
 * but those claims moved out of the old partitions; the old partitions are gone. Answers a summary.
 */
async function verify(pool: pg.Pool, qualified: string, schema: string, old: readonly { fromMs: number }[], claimed: readonly string[]): Promise<string> {
  const { rows: [stored] } = await pool.query(
    `SELECT count(*)::int AS n, count(DISTINCT idempotency_key)::int AS keys FROM ${qualified} WHERE user_id = 'bench' AND idempotency_key = ANY($1::text[])`,
    [claimed],
  );
  const { rows: [fills] } = await pool.query(`SELECT count(*)::int AS n FROM ${qualified} WHERE idempotency_key LIKE 'fill-%'`);
  const claimedFills = claimed.filter((key) => key.startsWith('fill-')).length;
  const left = (await Promise.all(old.map(async ({ fromMs }) => (await pool.query('SELECT to_regclass($1) AS t', [`"${schema}"."${partitionName(fromMs)}"`])).rows[0]?.t)))
    .filter((t) => t !== null).length;
  if (stored.n !== claimed.length || stored.keys !== claimed.length || fills.n !== claimedFills || left !== 0) {
    throw new Error(
      `after the drop: ${stored.n} rows (${stored.keys} keys) for ${claimed.length} claimed keys; ${fills.n} fill rows for ${claimedFills} claimed fill keys; ${left} old partitions left`,
    );
  }
  return `after the drop all ${claimed.length.toLocaleString('en-US')} keys claimed during the case are stored once each (${claimedFills} of them expired fill keys, now in the current partition), no other fill row is left, no old partition remains`;
}
