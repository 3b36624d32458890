/**
 * Faults on the real server: the store's backend terminated mid-statement (pg_terminate_backend)
 * gives store_unavailable and no half-written record; a worker SIGKILLed mid-action is reclaimed
 * after its lease; a stalled (SIGSTOPped) worker is fenced out when it wakes.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotency, InProgressError, StoreUnavailableError, type RunResult } from '../../src/index.js';
import { createPostgresStore, isConnectionError, type PostgresStore } from '../../src/stores/postgres/index.js';
import { eventually, forkWorker, newPool, PG_CONFIG, postgresAvailable, schemaFor, sleep } from './workers/postgres-support.js';
import pgDriver from 'pg';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
const APP = `idem-faults-${process.pid}`;
// The store's own pool is tagged, so the test can find (and terminate) exactly its backends.
const storePool = new pgDriver.Pool({ ...PG_CONFIG, max: 4, application_name: APP });
storePool.on('error', () => {}); // idle clients killed by the tests report here; expected
const admin = newPool(4);
const fp = 'e'.repeat(64);
let tables = 0;

beforeAll(async () => {
  if (!available) return;
  await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await admin.query(`CREATE TABLE IF NOT EXISTS "${schema}".side_effects (key text, who text, at timestamptz DEFAULT clock_timestamp())`);
});

afterAll(async () => {
  if (available) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all([storePool.end(), admin.end()]);
});

async function freshStore(): Promise<{ store: PostgresStore; table: string }> {
  const table = `f_${++tables}`;
  const store = createPostgresStore({ db: storePool, schema, table });
  await store.migrate();
  return { store, table };
}

/** Waits until one of the store's statements is blocked on a lock, and terminates its backend. */
async function terminateBlockedStatement(fragment: string): Promise<void> {
  let pid: number | undefined;
  await eventually(async () => {
    const { rows } = await admin.query(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock' AND query LIKE $2`,
      [APP, `%${fragment}%`],
    );
    pid = rows[0]?.pid;
    return pid !== undefined;
  }, 5_000, 'a blocked store statement');
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
}

/** Another session holding a lock the store will need, until `end()`. */
async function blocker(sql: string, values: unknown[]): Promise<{ end(commit: boolean): Promise<void> }> {
  const client: pg.PoolClient = await admin.connect();
  await client.query('BEGIN');
  await client.query(sql, values);
  return {
    async end(commit) {
      await client.query(commit ? 'COMMIT' : 'ROLLBACK');
      client.release();
    },
  };
}

const input = (key: string, leaseMs = 30_000) => ({ key, scope: 'user-1', fingerprint: fp, owner: null, leaseMs, ttlMs: 60_000, replaceExpired: true });
const sideEffects = async (key: string) => (await admin.query(`SELECT who FROM "${schema}".side_effects WHERE key = $1 ORDER BY at`, [key])).rows.map((r) => r.who);

describe.skipIf(!available)('postgres faults', () => {
  it('claim terminated mid-statement: store_unavailable, no record written, the pool recovers', async () => {
    const { store, table } = await freshStore();
    // An uncommitted insert of the same key makes the claim's INSERT wait, in flight on the server.
    const hold = await blocker(`INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, expires_at) VALUES ('t1', 'user-1', $1, now() + interval '1 h')`, [fp]);
    const claim = store.claim(input('t1')).catch((e: unknown) => e);
    await terminateBlockedStatement('WITH clock AS MATERIALIZED');
    const error = await claim;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).cause).toMatchObject({ code: '57P01' }); // admin_shutdown: terminated by administrator
    expect(isConnectionError((error as Error).cause)).toBe(true);
    expect(isConnectionError({ code: '23505' })).toBe(false); // a unique violation is the statement's, not the connection's
    await hold.end(false);
    expect(await store.get({ key: 't1', scope: 'user-1' })).toBeNull();
    expect((await store.claim(input('t1'))).outcome).toBe('claimed');
  });

  it('completion terminated mid-statement: store_unavailable, the record keeps no partial response', async () => {
    const { store, table } = await freshStore();
    const claim = await store.claim(input('t2'));
    if (claim.outcome !== 'claimed') throw new Error('setup: the claim of a fresh key must win');
    const { lockVersion } = claim;
    const hold = await blocker(`SELECT 1 FROM "${schema}"."${table}" WHERE idempotency_key = 't2' FOR UPDATE`, []);
    const body = new Uint8Array(4 * 1024 * 1024).fill(7);
    const response = { statusCode: 201, headers: { 'content-type': 'application/octet-stream' }, body, encoding: 'bytes' };
    const complete = store.complete({ key: 't2', scope: 'user-1', lockVersion, ttlMs: 60_000, response }).catch((e: unknown) => e);
    await terminateBlockedStatement('UPDATE');
    expect(await complete).toBeInstanceOf(StoreUnavailableError);
    await hold.end(true);
    expect(await store.get({ key: 't2', scope: 'user-1' })).toMatchObject({ status: 'PROCESSING', lockVersion, response: null, completedAt: null });
    expect(await store.complete({ key: 't2', scope: 'user-1', lockVersion, ttlMs: 60_000, response })).toBe('applied');
    expect((await store.get({ key: 't2', scope: 'user-1' }))!.response!.body.byteLength).toBe(body.byteLength);
  });

  it('through the engine: a claim cut off by the server fails closed — store_unavailable, the action never ran', async () => {
    const { store, table } = await freshStore();
    const idempotency = createIdempotency({ store });
    const hold = await blocker(`INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, expires_at) VALUES ('t3', 'user-1', $1, now() + interval '1 h')`, [fp]);
    let ran = false;
    const run = idempotency.run({ key: 't3', scope: 'user-1', fingerprint: fp }, async () => (ran = true)).catch((e: unknown) => e);
    await terminateBlockedStatement('WITH clock AS MATERIALIZED');
    expect(await run).toMatchObject({ code: 'store_unavailable' });
    expect(ran).toBe(false);
    await hold.end(false);
  });

  it('a worker SIGKILLed mid-action is reclaimed after its lease, by exactly one of 16 retries', async () => {
    const { store, table } = await freshStore();
    const leaseMs = 600;
    const clockBefore = Math.floor(await store.now());
    const worker = forkWorker('postgres-engine-worker.ts', { schema, table, key: 'killed', leaseMs });
    const childVersion = (await worker.next('started')).lockVersion as number;
    // A fresh record's token is the store clock in ms at its claim (contract.ts, "Fencing tokens").
    expect(childVersion).toBeGreaterThanOrEqual(clockBefore);
    expect(childVersion).toBeLessThanOrEqual(await store.now());
    worker.child.kill('SIGKILL');
    await worker.exited;
    const idempotency = createIdempotency({ store, leaseMs });
    let parentRuns = 0;
    const action = async () => {
      parentRuns++;
      await admin.query(`INSERT INTO "${schema}".side_effects (key, who) VALUES ('killed', 'parent')`);
      return 'parent';
    };
    // While the dead worker's lease lasts, retries are told to wait: nobody can tell dead from slow yet.
    const early = await idempotency.run({ key: 'killed', scope: 'user-1', fingerprint: fp }, action).catch((e: unknown) => e);
    expect(early).toBeInstanceOf(InProgressError);
    await eventually(async () => (await store.listStuck({ olderThanMs: 0, limit: 10 })).some((r) => r.key === 'killed'), 5_000, 'the lease to lapse');
    const settled = await Promise.allSettled(Array.from({ length: 16 }, () => idempotency.run({ key: 'killed', scope: 'user-1', fingerprint: fp }, action)));
    expect(parentRuns).toBe(1);
    const ran = settled.flatMap((s) => (s.status === 'fulfilled' && !s.value.replayed ? [s.value] : []));
    expect(ran).toHaveLength(1);
    expect(await store.get({ key: 'killed', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED', lockVersion: childVersion + 1 });
    // At-least-once for effects outside the database: the killed attempt's effect happened too.
    expect(await sideEffects('killed')).toEqual(['child', 'parent']);
  });

  it('a stalled (SIGSTOPped) worker is taken over after its lease and fenced out when it resumes', async () => {
    const { store, table } = await freshStore();
    const leaseMs = 500;
    const worker = forkWorker('postgres-engine-worker.ts', { schema, table, key: 'stalled', leaseMs });
    const childVersion = (await worker.next('started')).lockVersion as number;
    worker.child.kill('SIGSTOP');
    try {
      await sleep(leaseMs + 150);
      const idempotency = createIdempotency({ store, leaseMs });
      const taken: RunResult<string> = await idempotency.run({ key: 'stalled', scope: 'user-1', fingerprint: fp }, async ({ reclaimed, lockVersion }) => {
        expect({ reclaimed, lockVersion }).toEqual({ reclaimed: true, lockVersion: childVersion + 1 });
        return 'parent';
      });
      expect(taken).toEqual({ value: 'parent', replayed: false });
    } finally {
      worker.child.kill('SIGCONT');
    }
    worker.child.send({ type: 'finish' });
    expect(await worker.next('result')).toMatchObject({ error: 'lease_lost' });
    await worker.exited;
    const record = await store.get({ key: 'stalled', scope: 'user-1' });
    expect(record).toMatchObject({ status: 'COMPLETED', lockVersion: childVersion + 1 });
    expect(new TextDecoder().decode(record!.response!.body)).toBe('"parent"');
  });
});
