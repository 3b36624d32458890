/**
 * The store artifacts on real servers. PostgreSQL (fresh schema per test) and SQLite: the DDL and
 * queries file are the runtime's own schema and statements (their behaviour is proven by the
 * runtime's store conformance suite), the runtime's store runs on the table the artifact creates,
 * and the saga and runbook statements run on it. MariaDB (unique table names): the runtime's own
 * DDL and statements too (plus the builder's KEY partitioning and saga table), with the runtime's
 * store on the table the artifact creates — many concurrent claimers of one key get exactly one
 * claim; of many concurrent reclaimers of an orphan exactly one wins; stale holders are fenced out.
 * DynamoDB (dynalite, in process): the layout's table is the one the runtime creates and uses.
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
import { mysqlContract, postgresContract, sqliteContract } from '@idempotency-builder/runtime/contract';
import { createMysqlStore } from '@idempotency-builder/runtime/mysql';
import { createDynamoDbStore, createDynamoDbTable, DYNAMODB_ATTRIBUTES } from '@idempotency-builder/runtime/dynamodb';
import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { dynamoDbLayout } from '../src/emit/ddl/dynamodb.js';
import { startDynalite } from '../../runtime/test/stores/dynamodb-support/dynalite-server.js';
import { createPartitionMaintenance, createPostgresStore } from '@idempotency-builder/runtime/postgres';
import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
import { mysqlDdl } from '../src/emit/ddl/mysql.js';
import { toDollar, type NamedStatement } from '../src/emit/sql/statements.js';
import { runbookSnippets } from '../src/design/sections/runbook-queries.js';
import { probeTcp, serviceAvailable } from '../../runtime/test/support/services.js';
import { FIXTURES, fixture, GENERATED_AT } from './fixtures.js';
import { statementsOf, type Execute } from './support/sql-claim.js';

const FP = 'a'.repeat(64);
const OTHER_FP = 'b'.repeat(64);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const artifact = (model: ReturnType<typeof buildDesign>, path: string) => {
  const found = model.artifacts.find((a) => a.path === path);
  if (!found) throw new Error(`no artifact ${path}`);
  return found.content;
};

/** A fixture whose first action is a three-step saga. */
function withSaga(base: keyof typeof FIXTURES, stack?: Record<string, string>) {
  const answers = FIXTURES[base] as { actions: Record<string, unknown>[] };
  return answersSchema.parse({
    ...answers,
    ...(stack ? { stack } : {}),
    actions: answers.actions.map((a, i) => (i === 0 ? { ...a, steps: ['reserveStock', 'chargeCard', 'confirmOrder'] } : a)),
  });
}

/** A fresh record's fencing token is the database clock in ms: the same machine's clock, give or take. */
const nearNow = (version: number) => Math.abs(version - Date.now()) < 60_000;

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

describe.skipIf(!mariaUp)('MariaDB/MySQL: the runtime’s schema and statements, as the artifacts carry them, on a real server', () => {
  const pool = mysql.createPool({ host: '127.0.0.1', user: 'root', database: 'test', connectionLimit: 12, multipleStatements: true });
  const tables: string[] = [];
  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS ${table}_saga_step, ${table}_migrations, ${table}`);
    await pool.end();
  });
  const input = (key: string, over: Partial<{ leaseMs: number; fingerprint: string; scope: string }> = {}) => ({
    key, scope: over.scope ?? 'usr-1', fingerprint: over.fingerprint ?? FP, owner: null, leaseMs: over.leaseMs ?? 30_000, ttlMs: 60_000, replaceExpired: true,
  });

  it.each([
    ['plain', false],
    ['key-partitioned', true],
  ])('%s: the runtime’s store runs on the table the DDL creates — binary keys, constraints, exact claims, fencing', async (_name, partitioned) => {
    const table = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    tables.push(table);
    const ddl = mysqlDdl({ table, partitioned, saga: !partitioned });
    expect(ddl).toContain(mysqlContract({ table }).schemaSql.trim());
    await pool.query(ddl);
    await expect(
      pool.query(`INSERT INTO ${table} (idempotency_key, user_id, fingerprint, status, lock_version, created_at, expires_at) VALUES ('k', 'u', '${FP}', 'BOGUS', 1, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3))`),
    ).rejects.toThrow(/chk_|CONSTRAINT/);
    const store = createMysqlStore({ db: pool, table });
    // Keys differing only in case are different keys (ascii_bin).
    expect((await store.claim(input('Abc'))).outcome).toBe('claimed');
    expect((await store.claim(input('abc'))).outcome).toBe('claimed');
    // 24 concurrent claimers of one key: exactly one claim.
    const key = `createPayment_${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 24 }, () => store.claim(input(key))));
    expect(answers.filter((a) => a.outcome === 'claimed')).toHaveLength(1);
    expect((await store.claim(input(key, { scope: 'usr-2' }))).outcome).toBe('claimed');
    // A different fingerprint never takes over a live claim.
    expect((await store.claim(input(key, { fingerprint: OTHER_FP }))).outcome).toBe('existing');
    // Orphan: 24 reclaimers race after the lease ran out; exactly one wins with version + 1.
    const orphan = `createPayment_${randomUUID()}`;
    const first = await store.claim(input(orphan, { leaseMs: 1 }));
    const v1 = first.outcome === 'claimed' ? first.lockVersion : NaN;
    expect(nearNow(v1)).toBe(true);
    await sleep(30);
    const reclaims = await Promise.all(Array.from({ length: 24 }, () => store.claim(input(orphan))));
    const won = reclaims.filter((a) => a.outcome === 'claimed');
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ lockVersion: v1 + 1, reclaimed: true });
    const response = { statusCode: 201, headers: null, body: new TextEncoder().encode('{"id":"pay_1"}'), encoding: 'json' };
    // The dead worker (v1) is fenced out; the new holder completes.
    expect(await store.complete({ key: orphan, scope: 'usr-1', lockVersion: v1, response, ttlMs: 1 })).toBe('lost');
    expect(await store.complete({ key: orphan, scope: 'usr-1', lockVersion: v1 + 1, response, ttlMs: 1 })).toBe('applied');
    await sleep(20);
    expect(await store.purgeExpired(100)).toBe(1);
    expect(await store.get({ key: orphan, scope: 'usr-1' })).toBeNull();
    await store.close();
  });

  it('emits the NestJS + MariaDB project’s DDL and the runtime’s statements, and runs its runbook queries', async () => {
    const table = 'idempotency_store';
    const model = buildDesign(fixture('nestjs-mysql-adyen'), { generatedAt: GENERATED_AT });
    const queries = artifact(model, 'db/idempotency_queries.sql');
    for (const statement of Object.values(mysqlContract({ table }).statements)) expect(queries).toContain(`${statement.text.trim()};`);
    const unique = `builder_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    tables.push(unique);
    await pool.query(artifact(model, 'db/idempotency_store.sql').replaceAll(table, unique));
    const store = createMysqlStore({ db: pool, table: unique });
    expect((await store.claim(input('refundPayment_x', { scope: 'acct-1' }))).outcome).toBe('claimed');
    const plan = derivePlan(fixture('nestjs-mysql-adyen'));
    for (const snippet of Object.values(runbookSnippets(plan)).flat().filter((s) => !s.code.includes('<business_table>'))) {
      await pool.query(snippet.code.replaceAll(table, unique));
    }
  });
});

describe('DynamoDB: the layout is the runtime’s table, on dynalite', () => {
  it('createDynamoDbTable makes the table the layout declares, and the runtime’s store runs on a table made from the layout', async () => {
    const layout = JSON.parse(dynamoDbLayout('idempotency_store')) as { createTable: { KeySchema: unknown; AttributeDefinitions: unknown }; timeToLive: { TimeToLiveSpecification: { AttributeName: string } } };
    const dynamo = await startDynalite();
    try {
      await createDynamoDbTable(dynamo.client, { table: 'by_runtime' });
      const described = (await dynamo.client.send(new DescribeTableCommand({ TableName: 'by_runtime' }))).Table;
      expect(described?.KeySchema).toEqual(layout.createTable.KeySchema);
      expect(described?.AttributeDefinitions).toEqual(layout.createTable.AttributeDefinitions);
      expect(layout.timeToLive.TimeToLiveSpecification.AttributeName).toBe(DYNAMODB_ATTRIBUTES.ttl);
      // A table created from the layout alone serves the runtime's store.
      await dynamo.client.send(new CreateTableCommand({ ...(layout.createTable as object), TableName: 'from_layout' } as ConstructorParameters<typeof CreateTableCommand>[0]));
      const store = createDynamoDbStore({ client: dynamo.client, table: 'from_layout' });
      const input = { key: 'k1', scope: 'usr-1', fingerprint: FP, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true };
      expect((await store.claim(input)).outcome).toBe('claimed');
      expect((await store.claim(input)).outcome).toBe('existing');
      await store.close();
    } finally {
      await dynamo.stop();
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
