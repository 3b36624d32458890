/**
 * PostgreSQL store: the spec's schema, migrations (append-only, locked, idempotent, concurrent),
 * checked identifiers, the response columns, and errors surfacing as store_unavailable.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError, StoreUnavailableError } from '../../src/index.js';
import {
  createPostgresStore,
  migrate,
  migrationSql,
  MIGRATIONS,
  qualify,
  quoteIdent,
  schemaSql,
  type PostgresLayout,
} from '../../src/stores/postgres/index.js';
import { newPool, PG_CONFIG, postgresAvailable, schemaFor } from './workers/postgres-support.js';

const available = await postgresAvailable();
const schema = schemaFor(import.meta.url);
const pool = newPool(8);
let tables = 0;
const nextTable = () => `s_${++tables}`;

afterAll(async () => {
  if (available) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

const fp = 'f'.repeat(64);
const claimInput = (key: string) => ({ key, scope: 'u1', fingerprint: fp, owner: null, leaseMs: 30_000, ttlMs: 60_000, replaceExpired: true });

describe('postgres identifiers and options (no server needed)', () => {
  it('quotes plain names and refuses everything else instead of escaping it', () => {
    expect(quoteIdent('idempotency_store')).toBe('"idempotency_store"');
    expect(qualify('billing', 'idempotency_store')).toBe('"billing"."idempotency_store"');
    expect(() => qualify('billing', 'a;b')).toThrow(InvalidOptionsError);
    for (const bad of ['Bad', 'a.b', 'x"; DROP TABLE y; --', '1abc', '', 'a'.repeat(64), 'ünicode']) {
      expect(() => quoteIdent(bad), bad).toThrow(InvalidOptionsError);
    }
  });

  it('checks options once, at creation', () => {
    const db = { query: async () => ({ rows: [] }) };
    expect(() => createPostgresStore({ db, schema: 'Billing' })).toThrow(/schema/);
    expect(() => createPostgresStore({ db, table: 'x;drop' })).toThrow(/table/);
    expect(() => createPostgresStore({ db, table: 'a'.repeat(60) })).toThrow(/derived name/);
    expect(() => createPostgresStore({ db, table: 'a'.repeat(47) })).toThrow(/derived name/); // its partitions would not fit
    expect(() => createPostgresStore({ db, table: 'a'.repeat(46) })).not.toThrow();
    expect(() => createPostgresStore({ db: {} as never })).toThrow(/query/);
    expect(() => createPostgresStore({ db, layout: 'sharded' as never })).toThrow(/layout/);
    expect(() => createPostgresStore({ db, claimAttempts: 0 })).toThrow(/claimAttempts/);
  });

  it('keeps the migration lists append-only in shape: versions 1..n in order', () => {
    for (const steps of Object.values(MIGRATIONS)) expect(steps.map((s) => s.version)).toEqual(steps.map((_, i) => i + 1));
  });
});

describe.skipIf(!available)('postgres schema and migrations', () => {
  it("creates the spec's table: its columns and types, primary key, CHECK and both partial indexes", async () => {
    const table = nextTable();
    await migrate(pool, { schema, table });
    const columns = await pool.query(
      `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null
       FROM pg_attribute a WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [`"${schema}"."${table}"`],
    );
    expect(columns.rows).toEqual([
      { name: 'idempotency_key', type: 'character varying(255)', not_null: true },
      { name: 'user_id', type: 'character varying(128)', not_null: true },
      { name: 'fingerprint', type: 'character(64)', not_null: true },
      { name: 'status', type: 'character varying(20)', not_null: true },
      { name: 'response_code', type: 'integer', not_null: false },
      { name: 'response_body', type: 'jsonb', not_null: false },
      // BIGINT, not the spec's INT: a fresh record's fencing token is the store clock in ms.
      { name: 'lock_version', type: 'bigint', not_null: true },
      { name: 'locked_until', type: 'timestamp with time zone', not_null: false },
      { name: 'created_at', type: 'timestamp with time zone', not_null: true },
      { name: 'completed_at', type: 'timestamp with time zone', not_null: false },
      { name: 'expires_at', type: 'timestamp with time zone', not_null: true },
      // added by this store (docs/stores/postgres.md says why)
      { name: 'owner_id', type: 'character varying(128)', not_null: false },
      { name: 'response_headers', type: 'jsonb', not_null: false },
      { name: 'response_encoding', type: 'character varying(64)', not_null: false },
      { name: 'response_bytes', type: 'bytea', not_null: false },
    ]);
    const constraints = await pool.query(`SELECT contype, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass ORDER BY contype`, [
      `"${schema}"."${table}"`,
    ]);
    expect(constraints.rows).toEqual([
      { contype: 'c', def: expect.stringMatching(/status.*PROCESSING.*COMPLETED.*FAILED/) },
      { contype: 'p', def: 'PRIMARY KEY (idempotency_key, user_id)' },
    ]);
    const indexes = await pool.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY indexname`, [schema, table]);
    const defs = indexes.rows.map((r) => String(r.indexdef));
    expect(defs.some((d) => /\(expires_at\) WHERE \(\(status\)::text <> 'PROCESSING'/.test(d))).toBe(true);
    expect(defs.some((d) => /\(locked_until\) WHERE \(\(status\)::text = 'PROCESSING'/.test(d))).toBe(true);
    await expect(pool.query(`INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, status, expires_at) VALUES ('k', 'u', $1, 'DONE', now())`, [fp])).rejects.toThrow(
      /check constraint/,
    );
  });

  for (const layout of ['plain', 'partitioned'] as PostgresLayout[]) {
    it(`${layout}: migrate() from 6 connections at once applies each step once`, async () => {
      const table = nextTable();
      const clients = await Promise.all(Array.from({ length: 6 }, async () => {
        const client = new pg.Client(PG_CONFIG);
        await client.connect();
        return client;
      }));
      try {
        await Promise.all(clients.map((client) => migrate(client, { schema, table, layout })));
        await migrate(pool, { schema, table, layout }); // and again, later: nothing to do
      } finally {
        await Promise.all(clients.map((client) => client.end()));
      }
      const ledger = await pool.query(`SELECT version, name FROM "${schema}"."${table}_migrations" ORDER BY version`);
      expect(ledger.rows).toEqual(MIGRATIONS[layout].map(({ version, name }) => ({ version, name })));
    });
  }

  it('migrationSql() is the same script for your own tooling: BEGIN … COMMIT, safe to run twice', async () => {
    const table = nextTable();
    const script = migrationSql({ schema, table });
    expect(script.startsWith('BEGIN;')).toBe(true);
    expect(script.trimEnd().endsWith('COMMIT;')).toBe(true);
    await pool.query(script);
    await pool.query(script);
    const store = createPostgresStore({ db: pool, schema, table });
    expect((await store.claim(claimInput('k'))).outcome).toBe('claimed');
    expect(schemaSql({ schema, table })).toContain(`PRIMARY KEY (idempotency_key, user_id)`);
    expect(schemaSql({ schema, table, layout: 'partitioned' })).toContain('PARTITION BY RANGE (created_at)');
  });

  it('a failed migration rolls back entirely and leaves the pooled connection usable', async () => {
    const table = nextTable();
    const single = newPool(1);
    try {
      // A table of that name already exists (someone else's): step 1 fails.
      await single.query(`CREATE TABLE "${schema}"."${table}" (id int)`).catch(async () => {
        await single.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
        await single.query(`CREATE TABLE "${schema}"."${table}" (id int)`);
      });
      const store = createPostgresStore({ db: single, schema, table });
      await expect(store.migrate()).rejects.toBeInstanceOf(StoreUnavailableError);
      // Same (only) connection: not stuck in an aborted transaction, and no ledger was left behind.
      const ledger = await single.query(`SELECT to_regclass($1) AS ledger`, [`"${schema}"."${table}_migrations"`]);
      expect(ledger.rows[0]?.ledger).toBeNull();
    } finally {
      await single.end();
    }
  });

  it('keeps exact bytes in response_bytes and a readable copy of plain JSON in response_body', async () => {
    const table = nextTable();
    await migrate(pool, { schema, table });
    const cases = [
      { key: 'json', body: '{"b":1,  "a":[1,2]}', encoding: 'json', jsonBody: true, column: { a: [1, 2], b: 1 } },
      { key: 'error', body: '{"message":"card declined"}', encoding: 'error+json', jsonBody: true, column: { message: 'card declined' } },
      { key: 'bytes', body: 'not json', encoding: 'bytes', jsonBody: true, column: null },
      { key: 'cipher', body: '{"x":1}', encoding: 'aes-256-gcm:json', jsonBody: true, column: null },
      { key: 'nul', body: '{"s":"a\\u0000b"}', encoding: 'json', jsonBody: true, column: null },
      { key: 'off', body: '{"x":1}', encoding: 'json', jsonBody: false, column: null },
    ];
    for (const c of cases) {
      const store = createPostgresStore({ db: pool, schema, table, jsonBody: c.jsonBody });
      const claim = await store.claim(claimInput(c.key));
      if (claim.outcome !== 'claimed') throw new Error(`setup: the claim of ${c.key} must win`);
      const body = new TextEncoder().encode(c.body);
      expect(await store.complete({ key: c.key, scope: 'u1', lockVersion: claim.lockVersion, ttlMs: 60_000, response: { statusCode: 200, headers: { etag: 'x' }, body, encoding: c.encoding } })).toBe('applied');
      const record = await store.get({ key: c.key, scope: 'u1' });
      expect(new TextDecoder().decode(record!.response!.body), c.key).toBe(c.body);
      const row = await pool.query(`SELECT response_body FROM "${schema}"."${table}" WHERE idempotency_key = $1`, [c.key]);
      expect(row.rows[0]?.response_body, c.key).toEqual(c.column);
    }
  });

  it('answers store_unavailable with the driver error as cause: missing table, closed store', async () => {
    const store = createPostgresStore({ db: pool, schema, table: 'never_migrated' });
    const error = await store.claim(claimInput('k')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as StoreUnavailableError).code).toBe('store_unavailable');
    expect(((error as Error).cause as { code?: string }).code).toBe('42P01');
    const table = nextTable();
    const open = createPostgresStore({ db: pool, schema, table });
    await open.migrate();
    await open.close();
    await expect(open.get({ key: 'k', scope: 'u1' })).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('sizes exactly, or by planner estimate in O(1) for big tables', async () => {
    const table = nextTable();
    const exact = createPostgresStore({ db: pool, schema, table });
    await exact.migrate();
    await pool.query(
      `INSERT INTO "${schema}"."${table}" (idempotency_key, user_id, fingerprint, expires_at)
       SELECT 'k' || g, 'u', $1, now() + interval '1 h' FROM generate_series(1, 500) g`,
      [fp],
    );
    await pool.query(`ANALYZE "${schema}"."${table}"`);
    expect(await exact.size()).toBe(500);
    const estimate = await createPostgresStore({ db: pool, schema, table, sizeMode: 'estimate' }).size();
    expect(estimate).toBeGreaterThan(400);
    expect(estimate).toBeLessThan(600);
  });
});
