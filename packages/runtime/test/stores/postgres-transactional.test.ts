/**
 * Transactional mode on the real server: claim, business write and completion commit together
 * (node-postgres and knex through the same port); duplicates wait for the first transaction or
 * answer in_progress at once; a crash or a killed connection leaves nothing behind.
 */
import knexFactory from 'knex';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FingerprintMismatchError, fingerprintFields, InProgressError } from '../../src/index.js';
import {
  createPostgresStore,
  createTransactionalIdempotency,
  knexQueryable,
  type PostgresLayout,
  type TransactionalContext,
  type TransactionalOptions,
} from '../../src/stores/postgres/index.js';
import { claimInput } from '../support/claims.js';
import { forkWorker, newPool, PG_CONFIG, postgresAvailable, schemaFor, sleep } from './workers/postgres-support.js';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
const pool = newPool(20, 10_000);
const knex = knexFactory({ client: 'pg', connection: PG_CONFIG, pool: { min: 0, max: 10 } });
const fp = fingerprintFields(['tx', 4999]);
let tables = 0;

beforeAll(async () => {
  if (!available) return;
  await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await pool.query(`CREATE TABLE IF NOT EXISTS "${schema}".payments (id text PRIMARY KEY, amount int NOT NULL)`);
});

afterAll(async () => {
  if (available) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await Promise.all([pool.end(), knex.destroy()]);
});

async function setup(options: Omit<TransactionalOptions, 'store'> = {}, layout: PostgresLayout = 'plain') {
  const table = `tx_${++tables}`;
  const store = createPostgresStore({ db: pool, schema, table, layout });
  await store.migrate();
  if (layout === 'partitioned') {
    const { createPartitionMaintenance } = await import('../../src/stores/postgres/index.js');
    await createPartitionMaintenance({ db: pool, schema, table, retentionMs: 86_400_000 }).run();
  }
  return { store, table, payments: createTransactionalIdempotency({ store, ...options }) };
}

/** BEGIN … fn … COMMIT on one pooled client; ROLLBACK when fn throws. */
async function inTransaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const value = await fn(client);
    await client.query('COMMIT');
    return value;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const paymentsCount = async (id: string) => Number((await pool.query(`SELECT count(*) AS n FROM "${schema}".payments WHERE id = $1`, [id])).rows[0]!.n);
const request = (key: string) => ({ key, scope: 'user-1', fingerprint: fp });

describe.skipIf(!available)('postgres transactional mode', () => {
  it('node-postgres: claim, the business write and completion commit as one; a retry replays', async () => {
    const { store, payments } = await setup();
    let ranWith = 0;
    const charge = (key: string) => async ({ db, lockVersion }: TransactionalContext) => {
      ranWith = lockVersion;
      await db.query(`INSERT INTO "${schema}".payments (id, amount) VALUES ($1, 4999)`, [key]);
      return { paymentId: key };
    };
    const clockBefore = Math.floor(await store.now());
    const first = await inTransaction((client) => payments.run(client, request('pay-1'), charge('pay-1')));
    expect(first).toEqual({ value: { paymentId: 'pay-1' }, replayed: false });
    const again = await inTransaction((client) => payments.run(client, request('pay-1'), charge('pay-1')));
    expect(again).toEqual({ value: { paymentId: 'pay-1' }, replayed: true });
    const otherIntent = { ...request('pay-1'), fingerprint: fingerprintFields(['tx', 1]) };
    await expect(inTransaction((client) => payments.run(client, otherIntent, charge('pay-1')))).rejects.toBeInstanceOf(FingerprintMismatchError);
    expect(await paymentsCount('pay-1')).toBe(1);
    // A fresh claim: its token is the store clock in ms at the claim (contract.ts, "Fencing tokens").
    expect(ranWith).toBeGreaterThanOrEqual(clockBefore);
    expect(ranWith).toBeLessThanOrEqual(await store.now());
    expect(await store.get({ key: 'pay-1', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED', lockVersion: ranWith });
  });

  it('an action that throws rolls everything back: no record, no payment, the key runs again', async () => {
    const { store, payments } = await setup();
    await expect(
      inTransaction((client) =>
        payments.run(client, request('pay-2'), async ({ db }) => {
          await db.query(`INSERT INTO "${schema}".payments (id, amount) VALUES ('pay-2', 1)`);
          throw new Error('card network down');
        }),
      ),
    ).rejects.toThrow('card network down');
    expect(await store.get({ key: 'pay-2', scope: 'user-1' })).toBeNull();
    expect(await paymentsCount('pay-2')).toBe(0);
    const retry = await inTransaction((client) => payments.run(client, request('pay-2'), async () => 'ok'));
    expect(retry.replayed).toBe(false);
  });

  for (const layout of ['plain', 'partitioned'] as PostgresLayout[]) {
    it(`${layout}: 16 concurrent duplicates wait for the first transaction, then replay its result`, async () => {
      const { payments } = await setup({ duplicateWaitMs: 5_000 }, layout);
      let executions = 0;
      const run = () =>
        inTransaction((client) =>
          payments.run(client, request('pay-3'), async ({ db }) => {
            executions++;
            await db.query(`INSERT INTO "${schema}".payments (id, amount) VALUES ('pay-3-${layout}', 4999)`);
            await sleep(300); // the transaction stays open: duplicates block on the uncommitted claim
            return { paymentId: `pay-3-${layout}` };
          }),
        );
      const started = Date.now();
      const results = await Promise.all(Array.from({ length: 16 }, run));
      expect(executions).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(results.every((r) => r.value.paymentId === `pay-3-${layout}`)).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(await paymentsCount(`pay-3-${layout}`)).toBe(1);
    });
  }

  it.each(['plain', 'partitioned'] as PostgresLayout[])('%s: with duplicateWaitMs 0 a duplicate answers in_progress at once; a bounded wait gives up after it', async (layout) => {
    for (const [waitMs, maxMs] of [
      [0, 250],
      [300, 900],
    ] as const) {
      const { payments } = await setup({ duplicateWaitMs: waitMs }, layout);
      let release!: () => void;
      const holding = new Promise<void>((resolve) => (release = resolve));
      let claimed!: () => void;
      const firstClaimed = new Promise<void>((resolve) => (claimed = resolve));
      const first = inTransaction((client) => payments.run(client, request('busy'), async () => (claimed(), await holding, 'first')));
      await firstClaimed;
      const started = Date.now();
      const duplicate = await inTransaction((client) => payments.run(client, request('busy'), async () => 'second')).catch((e: unknown) => e);
      const waited = Date.now() - started;
      expect(duplicate).toBeInstanceOf(InProgressError);
      expect(waited).toBeGreaterThanOrEqual(waitMs * 0.9);
      expect(waited).toBeLessThan(maxMs);
      release();
      expect((await first).value).toBe('first');
    }
  });

  it('a duplicate waiting on a transaction that rolls back claims the key and runs', async () => {
    const { payments } = await setup();
    let claimed!: () => void;
    const firstClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const first = inTransaction((client) =>
      payments.run(client, request('rollback'), async () => {
        claimed();
        await sleep(200);
        throw new Error('declined');
      }),
    ).catch((e: unknown) => e);
    await firstClaimed;
    const second = await inTransaction((client) => payments.run(client, request('rollback'), async () => 'second ran'));
    expect(await first).toBeInstanceOf(Error);
    expect(second).toEqual({ value: 'second ran', replayed: false });
  });

  it('knex: 16 concurrent knex transactions through knexQueryable run the insert once', async () => {
    const { payments } = await setup({ duplicateWaitMs: 5_000 });
    let executions = 0;
    const results = await Promise.all(
      Array.from({ length: 16 }, () =>
        knex.transaction((trx) =>
          payments.run(knexQueryable(trx), request('knex-1'), async () => {
            executions++;
            await trx.withSchema(schema).table('payments').insert({ id: 'knex-1', amount: 4999 });
            await sleep(150);
            return { paymentId: 'knex-1' };
          }),
        ),
      ),
    );
    expect(executions).toBe(1);
    expect(results.filter((r) => r.replayed)).toHaveLength(15);
    expect(await paymentsCount('knex-1')).toBe(1);
  });

  it('a worker SIGKILLed inside its transaction leaves nothing: no orphan, no payment, the key is free at once', async () => {
    const { store, table, payments } = await setup();
    const worker = forkWorker('postgres-tx-worker.ts', { schema, table, key: 'killed' });
    await worker.next('ready');
    worker.child.kill('SIGKILL');
    await worker.exited;
    // No lease to wait out: the server rolls the dead session back as soon as it notices.
    const clockBefore = Math.floor(await store.now());
    let ranWith = 0;
    const result = await inTransaction((client) => payments.run(client, request('killed'), async ({ lockVersion }) => ((ranWith = lockVersion), 'after crash')));
    expect(result).toEqual({ value: 'after crash', replayed: false });
    expect(await paymentsCount('killed')).toBe(0);
    // A fresh claim (clock-based token), not a reclaim of the dead worker's record: it never existed.
    expect(ranWith).toBeGreaterThanOrEqual(clockBefore);
    expect(ranWith).toBeLessThanOrEqual(await store.now());
    expect(await store.get({ key: 'killed', scope: 'user-1' })).toMatchObject({ status: 'COMPLETED', lockVersion: ranWith });
  });

  it('a connection terminated mid-transaction (pg_terminate_backend) commits nothing', async () => {
    const { store, payments } = await setup();
    const client = await pool.connect();
    client.on('error', () => {}); // the terminated connection reports once more; expected here
    await client.query('BEGIN');
    const pid = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const run = payments.run(client, request('terminated'), async ({ db }) => {
      await db.query(`INSERT INTO "${schema}".payments (id, amount) VALUES ('terminated', 1)`);
      await pool.query('SELECT pg_terminate_backend($1)', [pid]);
      return 'never committed';
    });
    await expect(run).rejects.toMatchObject({ code: 'store_unavailable' }); // the completion write hits a dead connection
    client.release(true);
    expect(await store.get({ key: 'terminated', scope: 'user-1' })).toBeNull();
    expect(await paymentsCount('terminated')).toBe(0);
  });

  it.each(['plain', 'partitioned'] as PostgresLayout[])('%s: refuses to run outside a transaction, and leaves no claim behind', async (layout) => {
    const { store, payments } = await setup({}, layout);
    let ran = false;
    await expect(payments.run(pool, request('autocommit'), async () => (ran = true))).rejects.toThrow(/open transaction/);
    const client = await pool.connect();
    try {
      await expect(payments.run(client, request('autocommit'), async () => (ran = true))).rejects.toThrow(/open transaction/);
    } finally {
      client.release();
    }
    expect(ran).toBe(false);
    expect(await store.get({ key: 'autocommit', scope: 'user-1' })).toBeNull();
  });

  it.each(['plain', 'partitioned'] as PostgresLayout[])(
    "%s: the claim waits under duplicateWaitMs; the action, a replay and the rest of the transaction keep the caller's lock_timeout",
    async (layout) => {
      const { payments } = await setup({ duplicateWaitMs: 700 }, layout);
      const lockTimeout = async (db: { query: pg.PoolClient['query'] }) => (await db.query(`SELECT current_setting('lock_timeout') AS t`)).rows[0]!.t as string;
      const seen = await inTransaction(async (client) => {
        await client.query(`SET LOCAL lock_timeout = '1234ms'`);
        let inAction = '';
        await payments.run(client, request(`lt-${layout}`), async ({ db }) => (inAction = await lockTimeout(db as pg.PoolClient)));
        const replayed = await payments.run(client, request(`lt-${layout}`), async () => 'not run');
        return { inAction, replayed: replayed.replayed, after: await lockTimeout(client) };
      });
      expect(seen).toEqual({ inAction: '1234ms', replayed: true, after: '1234ms' });
      // A caller that set nothing gets the server's default back, not the claim's 700 ms.
      const plain = await inTransaction(async (client) => {
        await payments.run(client, request(`lt2-${layout}`), async () => 'ok');
        return lockTimeout(client);
      });
      expect(plain).toBe('0');
    },
  );

  it("a claim re-sent in one run (the READ COMMITTED gap's retry) still gives back the caller's lock_timeout, not its own", async () => {
    const { store } = await setup();
    const { transactionCheck } = await import('../../src/stores/postgres/sql.js');
    const back = await inTransaction(async (client) => {
      await client.query(`SET LOCAL lock_timeout = '4321ms'`);
      const view = store.withDb(client, { transactionRun: { lockTimeout: '50ms', marker: 'run-1' } });
      const input = claimInput('resent', { fingerprint: fp });
      expect((await view.claim(input)).outcome).toBe('claimed');
      expect((await client.query(`SELECT current_setting('lock_timeout') AS t`)).rows[0]!.t).toBe('50ms');
      expect((await view.claim(input)).outcome).toBe('existing');
      return (await client.query(transactionCheck)).rows[0] as { marker: string; lock_timeout: string };
    });
    expect(back).toEqual({ marker: 'run-1', lock_timeout: '4321ms' });
  });

  it('preparedStatements: the claim and the check run as named statements, again and again on one connection', async () => {
    const { payments: plainPayments } = await setup({ preparedStatements: true });
    const { payments: partitionedPayments } = await setup({ preparedStatements: true }, 'partitioned');
    const client = await pool.connect();
    try {
      for (const [name, payments] of [['plain', plainPayments], ['partitioned', partitionedPayments]] as const) {
        for (let i = 0; i < 3; i++) {
          await client.query('BEGIN');
          const first = await payments.run(client, request(`prep-${name}-${i}`), async () => i);
          const again = await payments.run(client, request(`prep-${name}-${i}`), async () => -1);
          await client.query('COMMIT');
          expect([first, again]).toEqual([{ value: i, replayed: false }, { value: i, replayed: true }]);
        }
      }
      const named = (await client.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'idem_%'`)).rows[0]!.n as number;
      expect(named).toBeGreaterThanOrEqual(3); // the two claims (one per layout) and the check at least
    } finally {
      client.release();
    }
  });

  it("takes lease times from the clock at the claim, not from the transaction's start (now() is frozen)", async () => {
    const { store, payments } = await setup({ leaseMs: 1_000 });
    await inTransaction(async (client) => {
      const began = Number((await client.query(`SELECT (extract(epoch FROM now()) * 1000)::float8 AS ms`)).rows[0]!.ms);
      await sleep(1_200);
      await payments.run(client, request('late-claim'), async ({ db }) => {
        const record = await store.withDb(db).get({ key: 'late-claim', scope: 'user-1' });
        // With now() the lease would already have ended when the claim was made.
        expect(record!.createdAt - began).toBeGreaterThanOrEqual(1_150);
        expect(record!.lockedUntil! - record!.createdAt).toBeCloseTo(1_000, 3);
        return 'ok';
      });
    });
  });
});
