// The SQLite store against the shared conformance suite, each test on a fresh file in os.tmpdir(),
// plus what is specific to SQLite: a given database, the schema's guards, the store clock, options.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { fingerprintFields } from '../../src/core/fingerprint.js';
import { createSqliteStore, sqliteSchema, type SqliteDatabaseLike } from '../../src/stores/sqlite/index.js';
import { binaryResponse, runStoreConformance } from '../../src/testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `store-${++files}.db`);

runStoreConformance({ name: 'sqlite (file)', createStore: () => createSqliteStore({ filename: freshFile() }) });

runStoreConformance({
  name: 'sqlite (given database, own table)',
  createStore: () => createSqliteStore({ database: new Database(freshFile()), table: 'idem_records' }),
});

describe('sqlite store specifics', () => {
  const fp = fingerprintFields(['sqlite', 1]);
  const claimInput = (key: string) => ({ key, scope: 'u', fingerprint: fp, owner: null, leaseMs: 1_000, ttlMs: 60_000, replaceExpired: true });

  it('runs in WAL mode with the busy timeout and synchronous level asked for', async () => {
    const filename = freshFile();
    const store = createSqliteStore({ filename, busyTimeoutMs: 1234, synchronous: 'NORMAL' });
    await store.ready;
    await store.claim(claimInput('k1'));
    const db = new Database(filename);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    await store.close();
  });

  it('leaves a given database open on close and keeps data for the next store on the same file', async () => {
    const filename = freshFile();
    const db = new Database(filename);
    const store = createSqliteStore({ database: db });
    const kept = await store.claim(claimInput('keep'));
    expect(kept.outcome).toBe('claimed');
    await store.close();
    expect(db.open).toBe(true);
    await expect(store.get({ key: 'keep', scope: 'u' })).rejects.toThrow(/closed/);
    db.close();
    const reopened = createSqliteStore({ filename });
    expect(await reopened.get({ key: 'keep', scope: 'u' })).toMatchObject({ status: 'PROCESSING', lockVersion: (kept as { lockVersion: number }).lockVersion });
    await reopened.close();
  });

  it('answers in plain numbers even on a database opened with BigInt results', async () => {
    const db = new Database(freshFile());
    db.defaultSafeIntegers(true);
    const store = createSqliteStore({ database: db });
    const claim = await store.claim(claimInput('big'));
    expect(claim).toMatchObject({ outcome: 'claimed' });
    expect(typeof (claim as { lockVersion: unknown }).lockVersion).toBe('number');
    expect(typeof (await store.get({ key: 'big', scope: 'u' }))!.expiresAt).toBe('number');
    await store.close();
    db.close();
  });

  it('opens a fresh file while another connection holds its write lock (WAL switch retried, not failed)', async () => {
    const filename = freshFile();
    const other = new Database(filename); // rollback-journal mode until someone switches it
    other.exec('CREATE TABLE app_data (x) ; BEGIN IMMEDIATE');
    // SQLite answers the WAL switch with SQLITE_BUSY at once here, without waiting on busy_timeout.
    setTimeout(() => other.exec('COMMIT'), 200);
    const store = createSqliteStore({ filename, busyTimeoutMs: 3_000 });
    await store.ready;
    const fresh = new Database(filename);
    expect(fresh.pragma('journal_mode', { simple: true })).toBe('wal');
    fresh.close();
    expect((await store.claim(claimInput('after-lock'))).outcome).toBe('claimed');
    await store.close();
    other.close();
  });

  it('reads its clock from SQLite in integer ms', async () => {
    const store = createSqliteStore({ filename: freshFile() });
    const now = await store.now();
    expect(Number.isInteger(now)).toBe(true);
    expect(Math.abs(now - Date.now())).toBeLessThan(2_000);
    await store.close();
  });

  it('round-trips an empty body and null headers/status', async () => {
    const store = createSqliteStore({ filename: freshFile() });
    const claim = await store.claim(claimInput('empty'));
    if (claim.outcome !== 'claimed') throw new Error('expected a claim');
    const response = { statusCode: null, headers: null, body: new Uint8Array(0), encoding: 'json' };
    expect(await store.complete({ key: 'empty', scope: 'u', lockVersion: claim.lockVersion, response, ttlMs: 60_000 })).toBe('applied');
    const record = await store.get({ key: 'empty', scope: 'u' });
    expect(record!.response).toEqual({ statusCode: null, headers: null, body: new Uint8Array(0), encoding: 'json' });
    await store.close();
  });

  it('refuses rows that break the state machine (schema CHECKs)', () => {
    const db = new Database(':memory:');
    db.exec(sqliteSchema());
    const insert = db.prepare(
      `INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, lock_version, locked_until, created_at, expires_at)
       VALUES (?, 'u', ?, ?, 1, ?, 0, 1)`,
    );
    expect(() => insert.run('a', fp, 'DONE', null)).toThrow(/CHECK/);
    expect(() => insert.run('b', fp, 'PROCESSING', null)).toThrow(/CHECK/); // PROCESSING without a lease
    expect(() => insert.run('c', fp, 'COMPLETED', null)).toThrow(/CHECK/); // finished without a response
    expect(() => insert.run('d', fp, 'PROCESSING', 1.5)).toThrow(); // STRICT: a float time is an error
    insert.run('e', fp, 'PROCESSING', 10);
    db.close();
  });

  it('uses the partial indexes for cleanup and the stuck list', () => {
    const db = new Database(':memory:');
    db.exec(sqliteSchema());
    const plan = (sql: string) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join(' / ');
    expect(plan(`SELECT rowid FROM idempotency_store WHERE status <> 'PROCESSING' AND expires_at <= 5 LIMIT 10`)).toMatch(/idempotency_store_expires_idx/);
    expect(plan(`SELECT * FROM idempotency_store WHERE status = 'PROCESSING' AND locked_until <= 5 ORDER BY locked_until`)).toMatch(/idempotency_store_stuck_idx/);
    db.close();
  });

  it('validates options at creation, naming the field', () => {
    expect(() => createSqliteStore({} as never)).toThrow(InvalidOptionsError);
    expect(() => createSqliteStore({ filename: 'a.db', database: new Database(':memory:') })).toThrow(/exactly one/);
    expect(() => createSqliteStore({ filename: freshFile(), table: 'x; DROP TABLE y' })).toThrow(/"table"/);
    expect(() => createSqliteStore({ filename: freshFile(), table: 'a'.repeat(49) })).toThrow(/"table"/);
    expect(() => createSqliteStore({ filename: freshFile(), busyTimeoutMs: -1 })).toThrow(/"busyTimeoutMs"/);
    expect(() => createSqliteStore({ database: {} as SqliteDatabaseLike })).toThrow(/"database"/);
  });

  it('reports an unopenable file through ready and every call', async () => {
    const store = createSqliteStore({ filename: join(dir, 'missing-dir', 'x.db') });
    await expect(store.ready).rejects.toThrow();
    await expect(store.claim(claimInput('k'))).rejects.toThrow();
    await store.close();
  });

  it('stores a 1 MiB body as one BLOB, not as text', async () => {
    const filename = freshFile();
    const store = createSqliteStore({ filename });
    const claim = await store.claim(claimInput('blob'));
    if (claim.outcome !== 'claimed') throw new Error('expected a claim');
    await store.complete({ key: 'blob', scope: 'u', lockVersion: claim.lockVersion, response: binaryResponse(1 << 20), ttlMs: 60_000 });
    const db = new Database(filename, { readonly: true });
    expect(db.prepare('SELECT typeof(response_body) t, length(response_body) n FROM idempotency_store').get()).toEqual({ t: 'blob', n: 1 << 20 });
    db.close();
    await store.close();
  });
});
