/**
 * Transactional mode vs the two-commit path on PostgreSQL, in one run: the same protected action
 * (one business INSERT) run by
 *  - the engine's `run()` over the store (claim commits, the INSERT commits, complete commits), and
 *  - `createTransactionalIdempotency().run()` inside one BEGIN … COMMIT (claim, INSERT and
 *    complete commit together),
 * at 1, 8 and 32 clients. Each commit waits for the WAL flush (synchronous_commit as the server
 * has it), which is what transactional mode saves twice per call — at the price of more round
 * trips (BEGIN and COMMIT, and one statement of its own after the claim that proves the claim ran
 * inside the caller's transaction and gives the caller's lock_timeout back; the claim sets both
 * itself, sql.ts transactionalClaim).
 *
 * The ceiling: the raw `pg` driver on the same pool running the bare statement shapes — three
 * autocommitted writes vs BEGIN + three writes + COMMIT (the fewest any transactional design can
 * send), and the same with the one extra statement. Their ratio is what the trade of round trips
 * for commits can give on this machine, whatever the library does.
 * Seconds per case = IDEMPOTENCY_BENCH_PG_SECONDS (default 1).
 */
import pg from 'pg';
import { createIdempotency, fingerprintFields } from '@idempotency-builder/runtime';
import { createPostgresStore, createTransactionalIdempotency } from '@idempotency-builder/runtime/postgres';
import { probeTcp } from '../test/support/services.js';
import { throughput, type BenchSuite, type Row } from './harness.js';

const CONNECTION = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const SECONDS = Math.max(1, Number(process.env.IDEMPOTENCY_BENCH_PG_SECONDS ?? 1));
const schema = `bench_transactional_${process.pid}`;
const fingerprint = fingerprintFields([4999, 'EUR']);

const suite: BenchSuite = {
  name: 'transactional mode vs two commits (postgres)',
  async available() {
    try {
      await probeTcp(CONNECTION.port);
      return null;
    } catch (error) {
      return `PostgreSQL not reachable (${(error as Error).message})`;
    }
  },
  async run(report) {
    const pool = new pg.Pool({ ...CONNECTION, max: 34 });
    const store = createPostgresStore({ db: pool, schema, table: 'idempotency_store', preparedStatements: true });
    const engine = createIdempotency({ store, leaseMs: 30_000, ttlMs: 3_600_000 });
    const transactional = createTransactionalIdempotency({ store, leaseMs: 30_000, ttlMs: 3_600_000, preparedStatements: true });
    const payments = `"${schema}".payments`;
    const insert = { name: 'bench-payment-insert', text: `INSERT INTO ${payments} (id, amount) VALUES ($1, $2)` };
    try {
      await store.migrate();
      await pool.query(`CREATE TABLE ${payments} (id text PRIMARY KEY, amount integer NOT NULL)`);
      const commit = (await pool.query('SHOW synchronous_commit')).rows[0]!.synchronous_commit as string;
      report.line(`${SECONDS} s per case; synchronous_commit = ${commit}`);
      const rows: Row[] = [];
      let round = 0;
      for (const clients of [1, 8, 32]) {
        round++;
        const twoCommit = await warmThenMeasure(clients, (phase, n) => {
          const key = `two-${round}-${phase}-${n}`;
          return engine.run({ key, scope: 'bench', fingerprint }, async () => {
            await pool.query({ ...insert, values: [key, 4999] });
            return { id: key };
          });
        });
        const oneCommit = await warmThenMeasure(clients, async (phase, n) => {
          const key = `one-${round}-${phase}-${n}`;
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            await transactional.run(client, { key, scope: 'bench', fingerprint }, async ({ db }) => {
              await db.query(insert.text, [key, 4999]);
              return { id: key };
            });
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          } finally {
            client.release();
          }
        });
        const raw = await rawShapes(pool, `"${schema}".raw_shapes`, clients, round);
        rows.push({ label: `run(): claim, INSERT, complete — three commits, ${clients} client(s) (baseline)`, opsPerSec: twoCommit, ratio: 1 });
        rows.push({ label: `transactional run(): BEGIN, claim, INSERT, complete, COMMIT, ${clients} client(s)`, opsPerSec: oneCommit, ratio: oneCommit / twoCommit });
        rows.push({ label: `  raw pg, 3 autocommitted writes, ${clients} client(s) (ceiling baseline)`, opsPerSec: raw.threeCommits, ratio: 1 });
        rows.push({ label: `  raw pg, BEGIN + 3 writes + COMMIT (5 round trips), ${clients} client(s)`, opsPerSec: raw.fiveTrips, ratio: raw.fiveTrips / raw.threeCommits });
        rows.push({ label: `  raw pg, the same + 1 SELECT (6 round trips, as transactional run()), ${clients} client(s)`, opsPerSec: raw.sixTrips, ratio: raw.sixTrips / raw.threeCommits });
      }
      report.table('protected payment INSERTs per second (ratio = transactional / separate commits)', rows);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
      await pool.end();
    }
  },
};

/**
 * Runs `op` untimed for 300 ms, then measures it: the first case at a new client count would
 * otherwise open the pool's new connections and prepare its statements inside its measured time.
 * `phase` keeps the warm-up's keys apart from the measured ones.
 */
async function warmThenMeasure(clients: number, op: (phase: 'warm' | 'run', n: number) => Promise<unknown>): Promise<number> {
  await throughput(clients, 300, (n) => op('warm', n));
  return throughput(clients, SECONDS * 1000, (n) => op('run', n));
}

/**
 * The bare statement shapes on the raw driver: a keyed INSERT (the claim), a second INSERT (the
 * business write) and a keyed UPDATE (the completion), autocommitted or in one transaction.
 */
async function rawShapes(pool: pg.Pool, table: string, clients: number, round: number) {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, status text NOT NULL, body text)`);
  const claim = { name: 'raw-claim', text: `INSERT INTO ${table} (id, status) VALUES ($1, 'PROCESSING')` };
  const business = { name: 'raw-business', text: `INSERT INTO ${table} (id, status) VALUES ($1 || ':payment', 'DONE')` };
  const complete = { name: 'raw-complete', text: `UPDATE ${table} SET status = 'COMPLETED', body = $2 WHERE id = $1` };
  const select = { name: 'raw-select', text: `SELECT set_config('lock_timeout', $1, true)` };
  const writes = async (client: pg.Pool | pg.PoolClient, key: string) => {
    await client.query({ ...claim, values: [key] });
    await client.query({ ...business, values: [key] });
    await client.query({ ...complete, values: [key, '{"id":1}'] });
  };
  const inTransaction = (extra: boolean) => async (n: number, prefix: string) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await writes(client, `${prefix}-${round}-${n}`);
      if (extra) await client.query({ ...select, values: ['0'] });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
  };
  const threeCommits = await warmThenMeasure(clients, (phase, n) => writes(pool, `three-${round}-${phase}-${n}`));
  const five = inTransaction(false);
  const six = inTransaction(true);
  const fiveTrips = await warmThenMeasure(clients, (phase, n) => five(n, `five-${phase}`));
  const sixTrips = await warmThenMeasure(clients, (phase, n) => six(n, `six-${phase}`));
  return { threeCommits, fiveTrips, sixTrips };
}

export default suite;
