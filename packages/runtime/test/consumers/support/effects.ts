/**
 * Test helper: counts a consumer's side effects in SQLite two ways — a row per distinct message
 * under a unique constraint AND a plain counter — so a duplicate effect shows up as a mismatch.
 */
import Database from 'better-sqlite3';

export interface EffectCounts {
  /** Distinct message ids that had an effect. */
  readonly distinct: number;
  /** Every time the effect ran. */
  readonly runs: number;
  /** Effects that ran again for an id that already had one. */
  readonly duplicates: number;
}

export interface Effects {
  record(id: string): void;
  counts(): EffectCounts;
  close(): void;
}

/** Opens (and creates) the effects file; safe to open from several processes at once. */
export function openEffects(filename: string): Effects {
  const db = new Database(filename, { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS effects (id TEXT PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS counter (one INTEGER PRIMARY KEY CHECK (one = 1), runs INTEGER NOT NULL, duplicates INTEGER NOT NULL);
    INSERT OR IGNORE INTO counter VALUES (1, 0, 0);`);
  const insert = db.prepare('INSERT OR IGNORE INTO effects (id) VALUES (?)');
  const bump = db.prepare('UPDATE counter SET runs = runs + 1, duplicates = duplicates + ? WHERE one = 1');
  const record = db.transaction((id: string) => {
    const fresh = insert.run(id).changes === 1;
    bump.run(fresh ? 0 : 1);
  });
  return {
    record: (id) => record.immediate(id),
    counts() {
      const { runs, duplicates } = db.prepare('SELECT runs, duplicates FROM counter').get() as { runs: number; duplicates: number };
      const distinct = (db.prepare('SELECT count(*) AS n FROM effects').get() as { n: number }).n;
      return { distinct, runs, duplicates };
    },
    close: () => db.close(),
  };
}
