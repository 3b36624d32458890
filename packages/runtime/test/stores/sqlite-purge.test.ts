// The SQLite purge in slices: exact counts, only expired finished rows, the event loop gets turns
// during a long purge, and the connection's synchronous level is what it was before.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../../src/core/errors.js';
import { createSqliteStore, sqliteSchema } from '../../src/stores/sqlite/index.js';

const dir = mkdtempSync(join(tmpdir(), 'idem-sqlite-purge-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A WAL database holding `expired` expired COMPLETED rows, 5 unexpired ones and 5 PROCESSING ones whose lease is over. */
function databaseWith(expired: number): Database.Database {
  const db = new Database(join(dir, `purge-${++files}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(sqliteSchema());
  const now = Date.now();
  const insert = (key: string, status: string, expiresAt: number) =>
    db
      .prepare(
        `INSERT INTO idempotency_store (idempotency_key, user_id, fingerprint, status, response_body, response_encoding,
           lock_version, locked_until, created_at, completed_at, expires_at)
         VALUES (?, 'u', 'f', ?, ?, ?, 1, ?, ?, ?, ?)`,
      )
      .run(key, status, status === 'PROCESSING' ? null : Buffer.from('{}'), status === 'PROCESSING' ? null : 'json',
        status === 'PROCESSING' ? now - 60_000 : null, now - 120_000, status === 'PROCESSING' ? null : now - 120_000, expiresAt);
  db.transaction(() => {
    for (let i = 0; i < expired; i++) insert(`old-${i}`, i % 2 ? 'COMPLETED' : 'FAILED', now - 60_000);
    for (let i = 0; i < 5; i++) insert(`live-${i}`, 'COMPLETED', now + 3_600_000);
    for (let i = 0; i < 5; i++) insert(`held-${i}`, 'PROCESSING', now - 60_000);
  })();
  return db;
}

describe('sqlite purge in slices', () => {
  it('deletes exactly the batch asked for, then the rest, never a live or PROCESSING row', async () => {
    const db = databaseWith(3_000);
    const store = createSqliteStore({ database: db });
    expect(await store.purgeExpired(1_000)).toBe(1_000);
    expect(await store.purgeExpired(10_000)).toBe(2_000);
    expect(await store.purgeExpired(10_000)).toBe(0);
    const left = db.prepare(`SELECT status, count(*) AS n FROM idempotency_store GROUP BY status ORDER BY status`).all();
    expect(left).toEqual([{ status: 'COMPLETED', n: 5 }, { status: 'PROCESSING', n: 5 }]);
    db.close();
  });

  it('gives the event loop turns during a long purge instead of holding it for the whole batch', async () => {
    const db = databaseWith(30_000);
    const store = createSqliteStore({ database: db, purgeSliceMs: 1 });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const purging = store.purgeExpired(30_000);
    const removed = await purging;
    clearInterval(ticker);
    expect(removed).toBe(30_000);
    // One DELETE of 30 000 rows would have let no timer run until it returned.
    expect(ticks).toBeGreaterThan(3);
    db.close();
  });

  it('leaves the connection at the synchronous level it had (slices commit with NORMAL in WAL)', async () => {
    const db = databaseWith(500);
    const store = createSqliteStore({ database: db });
    expect(await store.purgeExpired(500)).toBe(500);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL, as set
    db.close();
  });

  it('still purges on a given database inside an open transaction, where the level cannot change', async () => {
    const db = databaseWith(100);
    const store = createSqliteStore({ database: db });
    db.exec('BEGIN');
    expect(await store.purgeExpired(1_000)).toBe(100);
    db.exec('ROLLBACK'); // the caller's transaction owned the deletes
    expect(await store.size()).toBe(110);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    db.close();
  });

  it('validates purgeSliceMs at creation', () => {
    expect(() => createSqliteStore({ filename: join(dir, 'x.db'), purgeSliceMs: 0 })).toThrow(InvalidOptionsError);
    expect(() => createSqliteStore({ filename: join(dir, 'x.db'), purgeSliceMs: 1.5 })).toThrow(/purgeSliceMs/);
  });
});
