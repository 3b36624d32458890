/**
 * The partitioned layout on the real server: the naive range-partitioned table admits a
 * duplicate (key, user_id); ours refuses it, concurrently and across partitions. Partition
 * maintenance creates ahead and drops behind, never dropping a partition that holds live records.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/index.js';
import { createPartitionMaintenance, createPostgresStore, type PostgresStore } from '../../src/stores/postgres/index.js';
import { claimInput, RACE_FINGERPRINT } from '../support/claims.js';
import { clockTokenOf, newPool, postgresAvailable, schemaFor, warmPool } from './workers/postgres-support.js';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
const pool = newPool(16, 10_000);
if (available) await warmPool(pool, 16);
const DAY = 86_400_000;
const fp = RACE_FINGERPRINT;
let tables = 0;

afterAll(async () => {
  if (available) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});


const iso = (ms: number) => new Date(ms).toISOString();
const dayStart = (ms: number) => Math.floor(ms / DAY) * DAY;

/** A partition for [fromMs, fromMs + DAY), named like maintenance names its own. */
async function addPartition(table: string, fromMs: number): Promise<string> {
  const name = `${table}_p${iso(fromMs).replace(/[-:]/g, '').slice(0, 15).toLowerCase()}`;
  await pool.query(`CREATE TABLE "${schema}"."${name}" PARTITION OF "${schema}"."${table}" FOR VALUES FROM ('${iso(fromMs)}') TO ('${iso(fromMs + DAY)}')`);
  return name;
}

const rowsOf = async (table: string, key: string) =>
  Number((await pool.query(`SELECT count(*) AS n FROM "${schema}"."${table}" WHERE idempotency_key = $1 AND user_id = 'user-1'`, [key])).rows[0]!.n);

async function ourStore(): Promise<{ store: PostgresStore; table: string }> {
  const table = `ours_${++tables}`;
  const store = createPostgresStore({ db: pool, schema, table, layout: 'partitioned' });
  await store.migrate();
  await createPartitionMaintenance({ db: pool, schema, table, retentionMs: 3 * DAY }).run();
  await addPartition(table, dayStart(Date.now()) - DAY); // yesterday, for the cross-partition cases
  return { store, table };
}

describe.skipIf(!available)('postgres partitioned layout: (key, user_id) stays unique across partitions', () => {
  it('the naive layout (created_at in the primary key) admits duplicates; ours refuses them', async () => {
    // Naive: what range partitioning forces on the spec's table, with the spec's claim.
    const naive = `naive_${++tables}`;
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await pool.query(`CREATE TABLE "${schema}"."${naive}" (
        idempotency_key varchar(255) NOT NULL, user_id varchar(128) NOT NULL, fingerprint char(64) NOT NULL,
        status varchar(20) NOT NULL DEFAULT 'PROCESSING', created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (idempotency_key, user_id, created_at)) PARTITION BY RANGE (created_at)`);
    await addPartition(naive, dayStart(Date.now()) - DAY);
    await addPartition(naive, dayStart(Date.now()));
    await addPartition(naive, dayStart(Date.now()) + DAY);
    const naiveClaim = (key: string) =>
      pool.query(`INSERT INTO "${schema}"."${naive}" (idempotency_key, user_id, fingerprint) VALUES ($1, 'user-1', $2) ON CONFLICT DO NOTHING RETURNING 1`, [key, fp]);
    const { store, table } = await ourStore();

    // 1. Two claims one after the other.
    expect((await naiveClaim('seq')).rows).toHaveLength(1);
    expect((await naiveClaim('seq')).rows).toHaveLength(1); // "claimed" again: a duplicate
    expect(await rowsOf(naive, 'seq')).toBe(2);
    expect((await store.claim(claimInput('seq'))).outcome).toBe('claimed');
    expect((await store.claim(claimInput('seq'))).outcome).toBe('existing');
    expect(await rowsOf(table, 'seq')).toBe(1);

    // 2. Sixteen at once.
    const naiveWins = (await Promise.all(Array.from({ length: 16 }, () => naiveClaim('burst')))).filter((r) => r.rows.length === 1);
    expect(naiveWins.length).toBeGreaterThan(1);
    const ours = await Promise.all(Array.from({ length: 16 }, () => store.claim(claimInput('burst'))));
    expect(ours.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    expect(await rowsOf(table, 'burst')).toBe(1);

    // 3. A live record created yesterday (another partition) and a claim today.
    const yesterday = `clock_timestamp() - interval '1 day'`;
    await pool.query(`INSERT INTO "${schema}"."${naive}" (idempotency_key, user_id, fingerprint, created_at) VALUES ('cross', 'user-1', $1, ${yesterday})`, [fp]);
    expect((await naiveClaim('cross')).rows).toHaveLength(1);
    expect(await rowsOf(naive, 'cross')).toBe(2);
    await pool.query(
      `INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
       VALUES ('cross', 'user-1', $1, 'PROCESSING', 1, clock_timestamp() + interval '1 h', ${yesterday}, clock_timestamp() + interval '1 day')`,
      [fp],
    );
    const result = await store.claim(claimInput('cross'));
    expect(result.outcome).toBe('existing');
    expect(await rowsOf(table, 'cross')).toBe(1);
  });

  it('replaces an expired record from an older partition by moving it: still one row, version grows', async () => {
    const { store, table } = await ourStore();
    await pool.query(
      `INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, status, lock_version, created_at, completed_at, expires_at, response_encoding, response_bytes)
       VALUES ('old', 'user-1', $1, 'COMPLETED', 3, clock_timestamp() - interval '1 day', clock_timestamp() - interval '1 day', clock_timestamp() - interval '1 hour', 'bytes', '\\x01')`,
      [fp],
    );
    const results = await Promise.all(Array.from({ length: 16 }, () => store.claim(claimInput('old'))));
    const winners = results.flatMap((r) => (r.outcome === 'claimed' ? [r] : []));
    expect(winners).toHaveLength(1);
    // GREATEST(3 + 1, the replacing claim's clock in ms): the clock (contract.ts, "Fencing tokens").
    expect(winners[0]).toMatchObject({ replacedExpired: true, lockVersion: Math.max(4, clockTokenOf(winners[0]!.lockedUntil, 30_000)) });
    expect(winners[0]!.lockVersion).toBeGreaterThan(4);
    expect(await rowsOf(table, 'old')).toBe(1);
    const record = await store.get({ key: 'old', scope: 'user-1' });
    expect(record!.createdAt).toBeGreaterThan(Date.now() - 60_000); // now lives in today's partition
  });

  it('fails closed when no partition covers now, and refuses REPEATABLE READ', async () => {
    const table = `bare_${++tables}`;
    const store = createPostgresStore({ db: pool, schema, table, layout: 'partitioned' });
    await store.migrate();
    await addPartition(table, dayStart(Date.now()) - 5 * DAY);
    const noPartition = await store.claim(claimInput('k')).catch((e: unknown) => e);
    expect(noPartition).toBeInstanceOf(StoreUnavailableError);
    expect((noPartition as Error).cause).toMatchObject({ code: '23514' });

    const { store: ours } = await ourStore();
    const client = await pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      const refused = await ours.withDb(client).claim(claimInput('rr')).catch((e: unknown) => e);
      expect((refused as Error).cause).toMatchObject({ code: '25001' });
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});

describe.skipIf(!available)('postgres partition maintenance', () => {
  it('creates ahead once, and drops behind only partitions that hold nothing live', async () => {
    const { table } = await ourStore();
    const maintenance = createPartitionMaintenance({ db: pool, schema, table, retentionMs: 3 * DAY, premake: 3 });
    expect((await maintenance.run()).created).toEqual([]); // ourStore() already ran it: nothing to add
    const today = dayStart(Date.now());
    const expiredOnly = await addPartition(table, today - 10 * DAY);
    const withLive = await addPartition(table, today - 9 * DAY);
    const withUnexpired = await addPartition(table, today - 8 * DAY);
    const recent = await addPartition(table, today - 2 * DAY);
    const insertAt = (key: string, daysAgo: number, status: string, expiresIn: string) =>
      pool.query(
        `INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
         VALUES ($1, 'user-1', $2, $3::text, 1, CASE WHEN $3::text = 'PROCESSING' THEN clock_timestamp() - interval '1 day' END,
                 clock_timestamp() - interval '1 day' * $4::int, clock_timestamp() + $5::interval)`,
        [key, fp, status, daysAgo, expiresIn],
      );
    await insertAt('gone-1', 10, 'COMPLETED', '-8 days');
    await insertAt('gone-2', 10, 'FAILED', '-8 days');
    await insertAt('stuck', 9, 'PROCESSING', '-7 days'); // an orphan nobody reclaimed: still live for the runbook
    await insertAt('young', 2, 'COMPLETED', '1 day');
    // A finished record whose ttl outlives the retention: still replayed, so its partition stays.
    await insertAt('long-ttl-done', 8, 'COMPLETED', '-1 day');
    await insertAt('long-ttl', 8, 'COMPLETED', '1 day');

    const result = await maintenance.run();
    expect(result.dropped).toEqual([`"${schema}"."${expiredOnly}"`]);
    expect(result.kept).toEqual([
      { partition: `"${schema}"."${withLive}"`, reason: expect.stringContaining('live') },
      { partition: `"${schema}"."${withUnexpired}"`, reason: expect.stringContaining('live') },
    ]);
    const left = await pool.query(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, [`"${schema}"."${table}"`]);
    const names = left.rows.map((r) => r.relname);
    expect(names).not.toContain(expiredOnly);
    expect(names).toEqual(expect.arrayContaining([withLive, withUnexpired, recent]));
    expect(await rowsOf(table, 'gone-1')).toBe(0);
    expect(await rowsOf(table, 'stuck')).toBe(1);
    // Created ahead: today and the next 3 days exist.
    for (let i = 0; i <= 3; i++) expect(names.some((n) => n.endsWith(iso(today + i * DAY).replace(/[-:]/g, '').slice(0, 15).toLowerCase()))).toBe(true);
  });

  it('finishes a DETACH … CONCURRENTLY that was cut off half-way, then drops the partition', async () => {
    const { table } = await ourStore();
    const old = await addPartition(table, dayStart(Date.now()) - 10 * DAY);
    const reader = await pool.connect();
    const detacher = await pool.connect();
    detacher.on('error', () => {}); // terminated below, on purpose
    try {
      // An open snapshot on the table makes the detach's second phase wait; we cut it off there.
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query(`SELECT count(*) FROM "${schema}"."${table}"`);
      const pid = (await detacher.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const detach = detacher.query(`ALTER TABLE "${schema}"."${table}" DETACH PARTITION "${schema}"."${old}" CONCURRENTLY`).catch((e: unknown) => e);
      const pending = async () =>
        (await pool.query(`SELECT inhdetachpending AS p FROM pg_inherits WHERE inhrelid = $1::regclass`, [`"${schema}"."${old}"`])).rows[0]?.p === true;
      for (let i = 0; i < 100 && !(await pending()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await pending()).toBe(true);
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      expect(await detach).toMatchObject({ code: '57P01' });
      await reader.query('COMMIT');
    } finally {
      reader.release();
      detacher.release(true);
    }
    const result = await createPartitionMaintenance({ db: pool, schema, table, retentionMs: 3 * DAY }).run();
    expect(result.dropped).toContain(`"${schema}"."${old}"`);
    expect((await pool.query(`SELECT to_regclass($1) AS t`, [`"${schema}"."${old}"`])).rows[0]?.t).toBeNull();
  });

  it('maintenance never stops claims: 8 claim loops run through create-ahead and drop-behind', async () => {
    const { store, table } = await ourStore();
    const today = dayStart(Date.now());
    for (let d = 10; d >= 5; d--) await addPartition(table, today - d * DAY);
    const maintenance = createPartitionMaintenance({ db: pool, schema, table, retentionMs: 3 * DAY, premake: 6 });
    let stop = false;
    let claims = 0;
    const loops = Array.from({ length: 8 }, async (_, loop) => {
      for (let i = 0; !stop; i++) {
        expect((await store.claim(claimInput(`during-${loop}-${i}`))).outcome).toBe('claimed');
        claims++;
      }
    });
    const result = await maintenance.run();
    stop = true;
    await Promise.all(loops);
    expect(result.dropped).toHaveLength(6);
    expect(result.created).toHaveLength(3);
    expect(claims).toBeGreaterThan(8);
  });
});
