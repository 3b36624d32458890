/**
 * The store artifacts on real servers. PostgreSQL (fresh schema per test) and SQLite: the DDL and
 * queries file are the runtime's own schema and statements (their behaviour is proven by the
 * runtime's store conformance suite), the runtime's store runs on the table the artifact creates,
 * and the saga and runbook statements run on it. MariaDB (unique table names): the builder's own
 * DDL and statements — many concurrent claimers of one key get exactly one claim; of many
 * concurrent reclaimers of an orphan exactly one wins; stale holders are fenced out.
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
import { postgresContract, sqliteContract } from '@idempotency-builder/runtime/contract';
import { createPartitionMaintenance, createPostgresStore } from '@idempotency-builder/runtime/postgres';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { mysqlDdl, mysqlStatements } from '../src/emit/ddl/mysql.js';
import { toDollar, toQuestion, type NamedStatement } from '../src/emit/sql/statements.js';
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
/** A fixture whose first action is a three-step saga. */
function withSaga(base: keyof typeof FIXTURES, stack?: Record<string, string>) {
  const answers = FIXTURES[base] as { actions: Record<string, unknown>[] };
  return answersSchema.parse({
    ...answers,
    ...(stack ? { stack } : {}),
    actions: answers.actions.map((a, i) => (i === 0 ? { ...a, steps: ['reserveStock', 'chargeCard', 'confirmOrder'] } : a)),
  });
}

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

describe.skipIf(!pgUp)('PostgreSQL: the runtime’s schema and statements, as the artifacts carry them, on a real server', () => {
  const pools: pg.Pool[] = [];
  const schemas: string[] = [];

  async function freshSchema(): Promise<{ pool: pg.Pool; schema: string }> {
    const schema = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'test' });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    schemas.push(schema);
    const pool = new pg.Pool({ host: '127.0.0.1', user: 'postgres', database: 'test', max: 8, options: `-c search_path=${schema}` });
    pools.push(pool);
    return { pool, schema };
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
    ['plain', 5_000],
    ['partitioned', 500_000],
  ] as const)('%s: the DDL is the runtime’s migration, the queries file its statements, and the runtime’s store runs on it', async (layout, keysPerDay) => {
    const { pool, schema } = await freshSchema();
    const model = buildDesign(answersSchema.parse({ ...FIXTURES['fastapi-postgres-paypal'], keysPerDay }), { generatedAt: GENERATED_AT });
    const contract = postgresContract({ layout });
    const ddl = artifact(model, 'db/idempotency_store.sql');
    expect(ddl).toContain(contract.migrationSql);
    const queries = artifact(model, 'db/idempotency_queries.sql');
    for (const text of Object.values(contract.statements)) expect(queries).toContain(`${text.trim()};`);
    const local = ddl.replaceAll('"public"', `"${schema}"`);
    await pool.query(local);
    await pool.query(local); // ledgered: a second run is a no-op
    if (layout === 'partitioned') await createPartitionMaintenance({ db: pool, schema, retentionMs: 86_400_000 }).run();
    // The table the user creates from the artifact is the one the runtime's store expects.
    const store = createPostgresStore({ db: pool, schema, layout });
    const key = `createPayment_${randomUUID()}`;
    const results = await Promise.all(Array.from({ length: 16 }, () => store.claim({ key, scope: 'usr-1', fingerprint: FP, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true })));
    expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    await store.close();
  });

  it('saga steps are recorded only by the current holder of the outer key', async () => {
    const { pool, schema } = await freshSchema();
    const model = buildDesign(withSaga('spring-postgres'), { generatedAt: GENERATED_AT });
    await pool.query(artifact(model, 'db/idempotency_store.sql').replaceAll('"public"', `"${schema}"`));
    await pool.query(artifact(model, 'db/idempotency_store_saga_step.sql'));
    const statements = statementsOf(artifact(model, 'db/saga_queries.sql'));
    const store = createPostgresStore({ db: pool, schema });
    const input = { key: 'placeOrder_x', scope: 'usr-1', fingerprint: FP, owner: null, leaseMs: 1, ttlMs: 60_000, replaceExpired: true };
    const first = await store.claim(input);
    const v1 = first.outcome === 'claimed' ? first.lockVersion : NaN;
    await sleep(20);
    expect(await store.claim({ ...input, leaseMs: 30_000 })).toMatchObject({ outcome: 'claimed', lockVersion: v1 + 1, reclaimed: true });
    const exec = executor(pool);
    const mark = (lockVersion: number, step: number) =>
      exec(statements.saga_step_mark as NamedStatement, { key: input.key, scope: input.scope, lock_version: lockVersion, step_index: step, step_name: `s${step}`, step_status: 'DONE', provider_ref: null });
    expect((await mark(v1, 1)).affected).toBe(0); // the fenced-out worker records nothing
    expect((await mark(v1 + 1, 1)).affected).toBe(1);
    expect((await exec(statements.saga_steps as NamedStatement, { key: input.key, scope: input.scope })).rows).toMatchObject([{ step_index: 1, status: 'DONE' }]);
    await store.close();
  });

  it('runs every runbook query of the document as written, on the runtime’s table', async () => {
    const { pool, schema } = await freshSchema();
    const model = buildDesign(fixture('fastapi-postgres-paypal'), { generatedAt: GENERATED_AT });
    const plan = derivePlan(fixture('fastapi-postgres-paypal'));
    await pool.query(artifact(model, 'db/idempotency_store.sql').replaceAll('"public"', `"${schema}"`));
    if (plan.partitioned) await createPartitionMaintenance({ db: pool, schema, retentionMs: 86_400_000 }).run();
    const store = createPostgresStore({ db: pool, schema, layout: plan.partitioned ? 'partitioned' : 'plain' });
    const stuck = await store.claim({ key: 'k', scope: 'u', fingerprint: FP, owner: null, leaseMs: 1, ttlMs: 60_000, replaceExpired: true });
    await sleep(20);
    const snippets = Object.values(runbookSnippets(plan)).flat().filter((s) => !s.code.includes('<business_table>'));
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    for (const snippet of snippets) await pool.query(snippet.code.replaceAll('"public"', `"${schema}"`));
    // The runbook's manual release is the runtime's forceRelease: it ran on no record ('<key>'),
    // and listStuck is the store's own statement.
    expect((await store.listStuck({ olderThanMs: 0, limit: 10 })).map((r) => r.key)).toEqual(['k']);
    expect(stuck.outcome).toBe('claimed');
    await store.close();
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
    await pool.query(mysqlDdl({ table, partitioned, saga: !partitioned }));
    await expect(pool.query(`INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, created_at, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`)).rejects.toThrow(/chk_/);
    const statements = Object.fromEntries(mysqlStatements(table, !partitioned).map((s) => [s.name, s]));
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

describe('SQLite: the runtime’s schema, as the artifacts carry it, on a real database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'builder-sqlite-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the schema file creates the table the runtime’s store uses; saga and runbook statements run on it', async () => {
    const file = join(dir, 'idem.db');
    const answers = withSaga('spring-postgres', { language: 'java', framework: 'spring', database: 'sqlite' });
    const model = buildDesign(answers, { generatedAt: GENERATED_AT });
    const contract = sqliteContract('idempotency_store');
    const ddl = artifact(model, 'db/idempotency_store.sql');
    expect(ddl).toContain(contract.schemaSql);
    const queries = artifact(model, 'db/idempotency_queries.sql');
    for (const text of Object.values(contract.statements)) expect(queries).toContain(`${text.trim()};`);
    const db = new Database(file);
    db.exec(ddl);
    expect(() => db.prepare(`INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, lock_version, created_at, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', 1, 0, 0)`).run()).toThrow(/CHECK constraint/);
    db.exec(artifact(model, 'db/idempotency_store_saga_step.sql'));
    // The runtime's store over the file the artifact created (its own schema step is a no-op).
    const store = createSqliteStore({ filename: file });
    const input = { key: 'placeOrder_x', scope: 'usr-1', fingerprint: FP, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
    const held = await store.claim(input);
    expect((await store.claim(input)).outcome).toBe('existing');
    const version = held.outcome === 'claimed' ? held.lockVersion : NaN;
    const mark = db.prepare(statementsOf(artifact(model, 'db/saga_queries.sql')).saga_step_mark!.sql);
    const params = { key: input.key, scope: input.scope, step_index: 1, step_name: 's1', step_status: 'DONE', provider_ref: null };
    expect(mark.all({ ...params, lock_version: version - 1 })).toHaveLength(0);
    expect(mark.all({ ...params, lock_version: version })).toHaveLength(1);
    for (const snippet of Object.values(runbookSnippets(derivePlan(answers))).flat()) {
      if (!snippet.code.includes('<business_table>')) db.exec(snippet.code);
    }
    await store.close();
    db.close();
  });
});
