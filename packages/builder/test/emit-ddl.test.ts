/**
 * The generated DDL and named statements, applied to real servers: PostgreSQL (fresh schema per
 * test), MariaDB (unique table names) and SQLite. Many concurrent claimers of one key get exactly
 * one claim; of many concurrent reclaimers of an orphan exactly one wins; stale holders are fenced
 * out; the runbook queries run as written.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { answersSchema } from '../src/answers.js';
import { buildDesign } from '../src/design/build-design.js';
import { derivePlan } from '../src/design/plan/plan.js';
import { sqlDdlFor, sqlStatementsFor } from '../src/emit/ddl/index.js';
import { queriesFile, toDollar, toQuestion, type NamedStatement } from '../src/emit/sql/statements.js';
import { runbookSnippets } from '../src/design/sections/runbook-queries.js';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { FIXTURES, fixture, GENERATED_AT } from './fixtures.js';
import { statementsOf, type Execute, type ClaimAnswer, type ClaimInput } from './support/sql-claim.js';

const FP = 'a'.repeat(64);
const OTHER_FP = 'b'.repeat(64);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const artifact = (model: ReturnType<typeof buildDesign>, path: string) => {
  const found = model.artifacts.find((a) => a.path === path);
  if (!found) throw new Error(`no artifact ${path}`);
  return found.content;
};

/**
 * The three-statement claim as the generated stores run it (insert-if-absent, fetch, fenced
 * reclaim), reading the new lock_version from the applied write: RETURNING on PostgreSQL and
 * SQLite, the statement's last-insert-id on MySQL/MariaDB (see the MariaDB executor).
 */
async function claim(exec: Execute, statements: Record<string, NamedStatement>, input: ClaimInput, returning: boolean): Promise<ClaimAnswer & { reclaimed?: boolean }> {
  const applied = (outcome: { rows: unknown[]; affected: number }) => (returning ? outcome.rows.length > 0 : outcome.affected === 1);
  const truthy = (value: unknown) => value === true || value === 1 || value === '1';
  for (let attempt = 0; attempt < 8; attempt++) {
    const inserted = await exec(statements.claim_insert as NamedStatement, { ...input });
    if (applied(inserted)) return { outcome: 'claimed', lockVersion: Number(inserted.rows[0]?.lock_version) };
    const [record] = (await exec(statements.fetch as NamedStatement, { key: input.key, scope: input.scope })).rows;
    if (!record) continue;
    if (truthy(record.expired) || (truthy(record.lease_over) && record.fingerprint === input.fingerprint)) {
      const taken = await exec(statements.reclaim as NamedStatement, { ...input, lock_version: Number(record.lock_version) });
      if (applied(taken)) return { outcome: 'claimed', lockVersion: Number(taken.rows[0]?.lock_version), reclaimed: truthy(record.lease_over) };
      continue;
    }
    return { outcome: 'existing', record };
  }
  throw new Error('claim did not settle');
}

/** A fresh record's fencing token is the database clock in ms: the same machine's clock, give or take. */
const nearNow = (version: number) => Math.abs(version - Date.now()) < 60_000;

/** The shared scenario, for any dialect: concurrency, fencing, purge, runbook operations. */
async function provesClaims(exec: Execute, statements: Record<string, NamedStatement>, returning: boolean, parallel: boolean): Promise<void> {
  const key = `createPayment_${randomUUID()}`;
  const input = { key, scope: 'usr-1', fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 };
  const contenders = parallel ? 24 : 6;
  const answers = await Promise.all(Array.from({ length: contenders }, () => claim(exec, statements, input, returning)));
  expect(answers.filter((a) => a.outcome === 'claimed')).toHaveLength(1);
  expect(answers.filter((a) => a.outcome === 'existing')).toHaveLength(contenders - 1);
  // The same key in another scope is another record.
  expect((await claim(exec, statements, { ...input, scope: 'usr-2' }, returning)).outcome).toBe('claimed');
  // A different fingerprint never takes over a live or an orphaned claim.
  expect((await claim(exec, statements, { ...input, fingerprint: OTHER_FP }, returning)).outcome).toBe('existing');

  // Orphan: a claim whose lease ran out; many reclaimers race, exactly one wins with version + 1.
  const orphan = { ...input, key: `createPayment_${randomUUID()}`, lease_ms: 1 };
  const first = await claim(exec, statements, orphan, returning);
  expect(first.outcome).toBe('claimed');
  const v1 = first.outcome === 'claimed' ? first.lockVersion : NaN;
  expect(nearNow(v1)).toBe(true); // the database clock in ms, not 1
  await sleep(30);
  const reclaims = await Promise.all(
    Array.from({ length: contenders }, () => exec(statements.reclaim as NamedStatement, { ...orphan, lease_ms: 30_000, lock_version: v1 })),
  );
  const won = reclaims.filter((r) => (returning ? r.rows.length > 0 : r.affected === 1));
  expect(won).toHaveLength(1);
  expect(Number(won[0]?.rows[0]?.lock_version)).toBe(v1 + 1);
  const fenced = { key: orphan.key, scope: orphan.scope, response_code: 201, response_body: '{"id":"pay_1"}', ttl_ms: 1 };
  // The dead worker (v1) is fenced out; the new holder (v1 + 1) completes.
  expect((await exec(statements.complete as NamedStatement, { ...fenced, lock_version: v1 })).affected).toBe(0);
  expect((await exec(statements.extend as NamedStatement, { key: orphan.key, scope: orphan.scope, lock_version: v1, lease_ms: 1000 })).affected).toBe(0);
  expect((await exec(statements.complete as NamedStatement, { ...fenced, lock_version: v1 + 1 })).affected).toBe(1);
  const [done] = (await exec(statements.fetch as NamedStatement, { key: orphan.key, scope: orphan.scope })).rows;
  expect(done).toMatchObject({ status: 'COMPLETED', response_code: 201 });
  expect(Number(done?.lock_version)).toBe(v1 + 1);

  // Release is fenced too, and a released key is claimable at once, never with a smaller token.
  const released = { ...input, key: `createPayment_${randomUUID()}` };
  const held = await claim(exec, statements, released, returning);
  const rv = held.outcome === 'claimed' ? held.lockVersion : NaN;
  expect((await exec(statements.release as NamedStatement, { key: released.key, scope: released.scope, lock_version: rv - 1 })).affected).toBe(0);
  expect((await exec(statements.release as NamedStatement, { key: released.key, scope: released.scope, lock_version: rv })).affected).toBe(1);
  const again = await claim(exec, statements, released, returning);
  expect(again.outcome === 'claimed' && again.lockVersion >= rv).toBe(true);

  // Purge removes the expired COMPLETED record, never a PROCESSING one.
  await sleep(20);
  const purged = await exec(statements.purge_expired as NamedStatement, { batch_size: 100 });
  expect(purged.affected).toBe(1);
  expect((await exec(statements.fetch as NamedStatement, { key: orphan.key, scope: orphan.scope })).rows).toHaveLength(0);
  expect((await exec(statements.fetch as NamedStatement, { key, scope: 'usr-1' })).rows).toHaveLength(1);

  // Runbook: a stuck record is listed, and the manual release bumps lock_version.
  const stuck = { ...input, key: `createPayment_${randomUUID()}`, lease_ms: 1 };
  const stuckClaim = await claim(exec, statements, stuck, returning);
  await sleep(20);
  const listed = (await exec(statements.list_stuck as NamedStatement, { older_than_ms: 0, limit: 100 })).rows;
  expect(listed.map((row) => row.idempotency_key)).toContain(stuck.key);
  expect((await exec(statements.force_release as NamedStatement, { key: stuck.key, scope: stuck.scope })).affected).toBe(1);
  const [after] = (await exec(statements.fetch as NamedStatement, { key: stuck.key, scope: stuck.scope })).rows;
  expect(Number(after?.lock_version)).toBe(stuckClaim.outcome === 'claimed' ? stuckClaim.lockVersion + 1 : NaN);
}

const pgUp = await serviceAvailable('PostgreSQL', () => probeTcp(5432));
const mariaUp = await serviceAvailable('MariaDB', () => probeTcp(3306));

describe.skipIf(!pgUp)('PostgreSQL: the generated DDL and statements on a real server', () => {
  const pools: pg.Pool[] = [];
  const schemas: string[] = [];

  async function freshSchema(): Promise<pg.Pool> {
    const schema = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'test' });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    schemas.push(schema);
    const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 8, options: `-c search_path=${schema}` });
    pools.push(pool);
    return pool;
  }

  const executor = (pool: pg.Pool): Execute => async (statement, params) => {
    const rendered = toDollar(statement.sql);
    const result = await pool.query(rendered.text, rendered.params.map((name) => params[name]));
    return { rows: result.rows, affected: result.rowCount ?? 0 };
  };

  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'test' });
    await admin.connect();
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it.each([
    ['plain', false],
    ['hash-partitioned', true],
  ])('%s reference schema: constraints hold and the claim statements are exact under concurrency', async (_name, partitioned) => {
    const pool = await freshSchema();
    const answers = answersSchema.parse({ ...FIXTURES['fastapi-postgres-paypal'], keysPerDay: partitioned ? 500_000 : 5_000 });
    const model = buildDesign(answers, { generatedAt: GENERATED_AT });
    const ddl = artifact(model, 'db/idempotency_store.sql');
    expect(ddl.includes('PARTITION BY HASH')).toBe(partitioned);
    await pool.query(ddl);
    await expect(pool.query(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', now())`)).rejects.toThrow(/chk_status/);
    await pool.query(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, expires_at) VALUES ('k', 'u', '${FP}', now())`);
    await expect(pool.query(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, expires_at) VALUES ('k', 'u', '${FP}', now())`)).rejects.toThrow(/duplicate key/);
    await pool.query(`DELETE FROM idempotency_store`);
    await provesClaims(executor(pool), statementsOf(artifact(model, 'db/idempotency_queries.sql')), true, true);
  });

  it('one-statement claim: 32 concurrent claimers, re-run on the READ COMMITTED gap, one winner', async () => {
    const pool = await freshSchema();
    await pool.query(sqlDdlFor('postgresql', { table: 'idempotency_store', partitioned: false, saga: false }));
    const statement = sqlStatementsFor('postgresql', 'idempotency_store', false).find((s) => s.name === 'claim') as NamedStatement;
    const exec = executor(pool);
    for (let round = 0; round < 10; round++) {
      const key = `createPayment_${randomUUID()}`;
      const outcomes = await Promise.all(
        Array.from({ length: 32 }, async () => {
          for (let attempt = 0; attempt < 8; attempt++) {
            const { rows } = await exec(statement, { key, scope: 'usr-1', fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 });
            if (rows[0]) return rows[0].outcome;
          }
          return 'unsettled';
        }),
      );
      expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'existing')).toHaveLength(31);
    }
  });

  it('saga steps are recorded only by the current holder of the outer key', async () => {
    const pool = await freshSchema();
    const model = buildDesign(fixture('spring-postgres'), { generatedAt: GENERATED_AT });
    await pool.query(sqlDdlFor('postgresql', { table: 'idempotency_store', partitioned: false, saga: true }));
    const statements = Object.fromEntries(sqlStatementsFor('postgresql', 'idempotency_store', true).map((s) => [s.name, s]));
    const exec = executor(pool);
    const input = { key: 'placeOrder_x', scope: 'usr-1', fingerprint: FP, lease_ms: 1, ttl_ms: 60_000 };
    const first = await claim(exec, statements, input, true);
    const v1 = first.outcome === 'claimed' ? first.lockVersion : NaN;
    await sleep(20);
    expect(await claim(exec, statements, { ...input, lease_ms: 30_000 }, true)).toEqual({ outcome: 'claimed', lockVersion: v1 + 1, reclaimed: true });
    const mark = (lockVersion: number, step: number) =>
      exec(statements.saga_step_mark as NamedStatement, { key: input.key, scope: input.scope, lock_version: lockVersion, step_index: step, step_name: `s${step}`, step_status: 'DONE', provider_ref: null });
    expect((await mark(v1, 1)).affected).toBe(0); // the fenced-out worker records nothing
    expect((await mark(v1 + 1, 1)).affected).toBe(1);
    expect((await exec(statements.saga_steps as NamedStatement, { key: input.key, scope: input.scope })).rows).toMatchObject([{ step_index: 1, status: 'DONE' }]);
    expect(model.artifacts.length).toBeGreaterThan(0);
  });

  it('a stalled holder never matches a released key’s next incarnation (fresh tokens start at the clock)', async () => {
    const pool = await freshSchema();
    await pool.query(sqlDdlFor('postgresql', { table: 'idempotency_store', partitioned: false, saga: false }));
    const statements = Object.fromEntries(sqlStatementsFor('postgresql', 'idempotency_store', false).map((s) => [s.name, s]));
    const exec = executor(pool);
    const id = { key: `createPayment_${randomUUID()}`, scope: 'usr-1' };
    const version = (answer: Awaited<ReturnType<typeof claim>>) => (answer.outcome === 'claimed' ? answer.lockVersion : NaN);
    // A claims and stalls past its lease; B (same intent) reclaims, then releases on a transient error.
    const a = version(await claim(exec, statements, { ...id, fingerprint: FP, lease_ms: 1, ttl_ms: 60_000 }, true));
    await sleep(30);
    const b = await claim(exec, statements, { ...id, fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 }, true);
    expect(b).toEqual({ outcome: 'claimed', lockVersion: a + 1, reclaimed: true });
    expect((await exec(statements.release as NamedStatement, { ...id, lock_version: a + 1 })).affected).toBe(1);
    // C, another request under the same key, claims the now absent key: its token is above A's and B's.
    const c = version(await claim(exec, statements, { ...id, fingerprint: OTHER_FP, lease_ms: 30_000, ttl_ms: 60_000 }, true));
    expect(c).toBeGreaterThan(a + 1);
    // A's (and B's) late writes affect zero rows; C's record is untouched and C completes it.
    const finish = { ...id, response_code: 201, response_body: '{"id":"stale"}', ttl_ms: 60_000 };
    expect((await exec(statements.complete as NamedStatement, { ...finish, lock_version: a })).affected).toBe(0);
    expect((await exec(statements.fail as NamedStatement, { ...finish, lock_version: a + 1 })).affected).toBe(0);
    expect((await exec(statements.extend as NamedStatement, { ...id, lock_version: a, lease_ms: 30_000 })).affected).toBe(0);
    expect((await exec(statements.release as NamedStatement, { ...id, lock_version: a })).affected).toBe(0);
    const [record] = (await exec(statements.fetch as NamedStatement, id)).rows;
    expect(record).toMatchObject({ status: 'PROCESSING', fingerprint: OTHER_FP, response_code: null });
    expect(Number(record?.lock_version)).toBe(c);
    expect((await exec(statements.complete as NamedStatement, { ...finish, response_body: '{"id":"pay_c"}', lock_version: c })).affected).toBe(1);

    // Replacing an expired record takes GREATEST(lock_version + 1, clock ms), in both claim forms:
    // a token pushed ahead of the clock (manual releases) still grows by one.
    for (const form of ['three-statement', 'one-statement'] as const) {
      for (const pushedAhead of [false, true]) {
        const key = { key: `createPayment_${randomUUID()}`, scope: 'usr-1' };
        const held = version(await claim(exec, statements, { ...key, fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 }, true));
        expect(nearNow(held)).toBe(true);
        const last = pushedAhead ? Date.now() + 86_400_000 : held;
        await pool.query(`UPDATE idempotency_store SET lock_version = $1 WHERE idempotency_key = $2`, [last, key.key]);
        expect((await exec(statements.complete as NamedStatement, { ...key, response_code: 201, response_body: '{}', ttl_ms: 1, lock_version: last })).affected).toBe(1);
        await sleep(20);
        const input = { ...key, fingerprint: OTHER_FP, lease_ms: 30_000, ttl_ms: 60_000 };
        const replaced = form === 'one-statement' ? (await exec(statements.claim as NamedStatement, input)).rows[0] : undefined;
        if (form === 'one-statement') expect(replaced).toMatchObject({ outcome: 'claimed' });
        const next = form === 'one-statement' ? Number(replaced?.lock_version) : version(await claim(exec, statements, input, true));
        // Ahead of the clock: + 1. Otherwise the clock, which the 20 ms wait put above held + 1.
        if (pushedAhead) expect(next).toBe(last + 1);
        else expect(next > held + 1 && nearNow(next)).toBe(true);
      }
    }
  });

  it('the TypeScript project’s DDL is the runtime’s migration, and the runbook statements run on it', async () => {
    const pool = await freshSchema();
    const schema = schemas[schemas.length - 1] as string;
    const plain = buildDesign(answersSchema.parse({ ...FIXTURES['express-postgres-stripe'], keysPerDay: 20_000 }), { generatedAt: GENERATED_AT });
    const partitioned = buildDesign(fixture('express-postgres-stripe'), { generatedAt: GENERATED_AT });
    const partitionedDdl = artifact(partitioned, 'db/idempotency_store.sql');
    expect(partitionedDdl).toMatch(/PARTITION BY RANGE \(created_at\)/);
    const ddl = artifact(plain, 'db/idempotency_store.sql').replaceAll('"public"', `"${schema}"`);
    await pool.query(ddl);
    await pool.query(ddl); // ledgered: a second run is a no-op
    await pool.query(partitionedDdl.replaceAll('"public"', `"${schema}_p"`).replaceAll('idempotency_store', 'idempotency_p'));
    schemas.push(`${schema}_p`);
    const model = plain;
    const statements = statementsOf(artifact(model, 'db/idempotency_queries.sql'));
    expect(Object.keys(statements).sort()).toEqual(['fetch', 'force_release', 'list_stuck']);
    const exec = executor(pool);
    await pool.query(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, lock_version, locked_until, expires_at) VALUES ('k', 'u', '${FP}', 1, now() - interval '1 hour', now() + interval '1 day')`);
    expect((await exec(statements.list_stuck as NamedStatement, { older_than_ms: 60_000, limit: 10 })).rows).toHaveLength(1);
    expect(Number((await exec(statements.force_release as NamedStatement, { key: 'k', scope: 'u' })).rows[0]?.lock_version)).toBe(2);
  });

  it('runs every runbook query of the document as written', async () => {
    const pool = await freshSchema();
    const plan = derivePlan(fixture('fastapi-postgres-paypal'));
    await pool.query(sqlDdlFor('postgresql', { table: 'idempotency_store', partitioned: false, saga: false }));
    const snippets = Object.values(runbookSnippets(plan)).flat().filter((s) => !s.code.includes('<business_table>'));
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    for (const snippet of snippets) await pool.query(snippet.code);
  });
});

describe.skipIf(!mariaUp)('MariaDB/MySQL: the generated DDL and statements on a real server', () => {
  const pool = mysql.createPool({ host: '127.0.0.1', user: 'root', database: 'test', connectionLimit: 8, multipleStatements: true });
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${table}_saga_step, ${table}`);
    await pool.end();
  });

  const executor = (): Execute => async (statement, params) => {
    const rendered = toQuestion(statement.sql);
    const [result] = await pool.query(rendered.text, rendered.params.map((name) => params[name]));
    if (Array.isArray(result)) return { rows: result as Record<string, unknown>[], affected: result.length };
    // No RETURNING: an applied claim statement hands its new lock_version back as the statement's
    // last-insert-id (LAST_INSERT_ID(expr)), exactly what the generated stores read.
    const { affectedRows, insertId } = result as { affectedRows: number; insertId: number };
    const carriesVersion = affectedRows === 1 && statement.sql.includes('LAST_INSERT_ID(');
    return { rows: carriesVersion ? [{ lock_version: insertId }] : [], affected: affectedRows };
  };

  it.each([
    ['plain', false],
    ['key-partitioned', true],
  ])('%s schema: binary keys, constraints, and exact claims under concurrency', async (_name, partitioned) => {
    const table = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    tables.push(table);
    await pool.query(sqlDdlFor('mysql', { table, partitioned, saga: !partitioned }));
    await expect(pool.query(`INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, created_at, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`)).rejects.toThrow(/chk_/);
    const statements = Object.fromEntries(sqlStatementsFor('mysql', table, !partitioned).map((s) => [s.name, s]));
    const exec = executor();
    // Keys differing only in case are different keys (ascii_bin).
    expect((await claim(exec, statements, { key: 'Abc', scope: 'u', fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 }, false)).outcome).toBe('claimed');
    expect((await claim(exec, statements, { key: 'abc', scope: 'u', fingerprint: FP, lease_ms: 30_000, ttl_ms: 60_000 }, false)).outcome).toBe('claimed');
    await provesClaims(exec, statements, false, true);
  });

  it('emits the NestJS + MariaDB project’s DDL and queries file, and runs its runbook queries', async () => {
    const table = 'idempotency_store';
    const model = buildDesign(fixture('nestjs-mysql-adyen'), { generatedAt: GENERATED_AT });
    const unique = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    tables.push(unique);
    await pool.query(artifact(model, 'db/idempotency_store.sql').replaceAll(table, unique));
    const statements = statementsOf(artifact(model, 'db/idempotency_queries.sql').replaceAll(table, unique));
    expect((await claim(executor(), statements, { key: 'refundPayment_x', scope: 'acct-1', fingerprint: FP, lease_ms: 1000, ttl_ms: 60_000 }, false)).outcome).toBe('claimed');
    const plan = derivePlan(fixture('nestjs-mysql-adyen'));
    for (const snippet of Object.values(runbookSnippets(plan)).flat().filter((s) => !s.code.includes('<business_table>'))) {
      await pool.query(snippet.code.replaceAll(table, unique));
    }
  });
});

describe('SQLite: the generated DDL and statements on a real database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'builder-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('claims exactly once across connections sharing the file, with fenced reclaims', async () => {
    const file = join(dir, 'idem.db');
    const ddl = sqlDdlFor('sqlite', { table: 'idempotency_store', partitioned: false, saga: true });
    const first = new Database(file);
    first.exec(ddl);
    const connections = [first, ...Array.from({ length: 3 }, () => new Database(file))];
    for (const db of connections) db.pragma('busy_timeout = 2000');
    let turn = 0;
    const exec: Execute = async (statement, params) => {
      const db = connections[turn++ % connections.length] as Database.Database;
      const prepared = db.prepare(statement.sql);
      const named = Object.fromEntries(Object.entries(params).filter(([name]) => statement.sql.includes(`:${name}`)));
      if (prepared.reader) {
        const rows = prepared.all(named) as Record<string, unknown>[];
        return { rows, affected: rows.length };
      }
      return { rows: [], affected: prepared.run(named).changes };
    };
    expect(() => first.prepare(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, created_at, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', 0, 0)`).run()).toThrow(/CHECK constraint/);
    const statements = statementsOf(queriesFile('sqlite', sqlStatementsFor('sqlite', 'idempotency_store', true)));
    await provesClaims(exec, statements, true, false);
    for (const snippet of Object.values(runbookSnippets(derivePlan(answersSchema.parse({ ...FIXTURES['spring-postgres'], stack: { language: 'java', framework: 'spring', database: 'sqlite' } })))).flat()) {
      if (!snippet.code.includes('<business_table>')) first.exec(snippet.code);
    }
    for (const db of connections) db.close();
  });
});
