/**
 * The SQLite store: embedded and durable, the default when there is no database server.
 *
 * Several PROCESSES on one host may open the same file: every write takes SQLite's file lock
 * (WAL mode, busy_timeout), and the claim — a read plus one compare-and-set upsert — runs in one
 * `BEGIN IMMEDIATE` transaction, so no other connection can write between the two. Not for
 * network filesystems, whose locking SQLite cannot trust. The clock is SQLite's own
 * (`unixepoch('subsec')`), i.e. this host's clock, shared by every process that opens the file.
 */
import { InvalidOptionsError } from '../../core/errors.js';
import { positiveInteger } from '../../core/options.js';
import type { IdempotencyRecord, RecordStatus, StoredResponse } from '../../core/record.js';
import type { ClaimInput, ClaimResult, FencedResult, FinishInput, IdempotencyStore } from '../../core/store-contract.js';
import { sqliteSchema } from './schema.js';
import { slicedPurge } from './sliced-purge.js';
import { sqliteStatements, type SqliteStatementName } from './sql.js';

/** The part of a better-sqlite3 statement the store uses. */
export interface SqliteStatementLike {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  /** better-sqlite3: BigInt results on or off; the store turns them off (times fit in a double). */
  safeIntegers?(toggle?: boolean): unknown;
}

/** The part of a better-sqlite3 `Database` the store uses (structural: no driver import). */
export interface SqliteDatabaseLike {
  prepare(source: string): SqliteStatementLike;
  exec(source: string): unknown;
  /** better-sqlite3 transactions are synchronous; `.immediate()` runs the body under BEGIN IMMEDIATE. */
  transaction<A, R>(fn: (arg: A) => R): { immediate(arg: A): R };
  close(): unknown;
}

export interface SqliteStoreOptions {
  /** Path of the database file. The store opens it (loading better-sqlite3 on demand) and closes it on close(). */
  readonly filename?: string;
  /** An open better-sqlite3 database, or anything shaped like one. The store uses it and never closes it. */
  readonly database?: SqliteDatabaseLike;
  /** Table name, a plain SQL name. Default `idempotency_store`. */
  readonly table?: string;
  /**
   * How long a write waits for another connection's lock before failing (the engine then answers
   * `store_unavailable`). Default 5000 for a file the store opens; left alone on a given database unless set.
   */
  readonly busyTimeoutMs?: number;
  /** Create the table and its indexes when missing. Default true; turn off when migrations own the DDL (`sqliteSchema()`). */
  readonly createSchema?: boolean;
  /**
   * `PRAGMA synchronous` for a file the store opens. `FULL` (default) survives power loss; `NORMAL`
   * survives a crashed process but may lose the last commits on power loss — a lost COMPLETED
   * record means the action can run again.
   */
  readonly synchronous?: 'FULL' | 'NORMAL';
  /**
   * `purgeExpired(batch)` deletes in slices of about this many ms each (one short write
   * transaction per slice) and gives the event loop a turn between slices: the driver is
   * synchronous, so a long DELETE would stall every request of the process. Default 2.
   */
  readonly purgeSliceMs?: number;
}

export interface SqliteStore extends IdempotencyStore {
  /** Resolves once the file is open and the schema exists; rejects with the reason it is not. */
  readonly ready: Promise<void>;
}

/** A record row as SQLite returns it (times in integer ms, body as a Buffer). */
interface RecordRow {
  idempotency_key: string;
  user_id: string;
  fingerprint: string;
  status: RecordStatus;
  response_code: number | null;
  response_headers: string | null;
  response_body: Uint8Array | null;
  response_encoding: string | null;
  owner_id: string | null;
  lock_version: number;
  locked_until: number | null;
  created_at: number;
  completed_at: number | null;
  expires_at: number;
}

/** Longest run of back-to-back synchronous claims before the event loop gets a turn. */
const CLAIM_SLICE_MS = 5;

/** The claim's first read: the store clock, and the record or (LEFT JOIN) all-NULL columns. */
type ClaimReadRow = { now: number } & (RecordRow | { [K in keyof RecordRow]: null });

type Statements = Record<SqliteStatementName, SqliteStatementLike>;
type PragmaReads = Record<'synchronous' | 'journalMode', SqliteStatementLike>;

const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
const DEFAULT_PURGE_SLICE_MS = 2;

/**
 * Creates the SQLite store over a file (opened by the store) or an open better-sqlite3 database.
 * @example
 * import { createIdempotency } from '@idempotency-builder/runtime';
 * import { createSqliteStore } from '@idempotency-builder/runtime/sqlite';
 * const store = createSqliteStore({ filename: './idempotency.db' });
 * const idempotency = createIdempotency({ store, leaseMs: 10_000 });
 */
export function createSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const { filename, database, table = 'idempotency_store', createSchema = true, synchronous = 'FULL' } = options ?? {};
  if ((filename === undefined) === (database === undefined)) {
    throw new InvalidOptionsError('createSqliteStore() needs exactly one of "filename" or "database".');
  }
  if (filename !== undefined && (typeof filename !== 'string' || filename.length === 0)) {
    throw new InvalidOptionsError('Option "filename" must be a non-empty path.');
  }
  if (database !== undefined && ['prepare', 'exec', 'transaction'].some((m) => typeof (database as unknown as Record<string, unknown>)[m] !== 'function')) {
    throw new InvalidOptionsError('Option "database" must be an open better-sqlite3 Database (prepare, exec, transaction).');
  }
  if (synchronous !== 'FULL' && synchronous !== 'NORMAL') {
    throw new InvalidOptionsError(`Option "synchronous" must be "FULL" or "NORMAL"; got ${String(synchronous)}.`);
  }
  const purgeSliceMs = positiveInteger('purgeSliceMs', options.purgeSliceMs ?? DEFAULT_PURGE_SLICE_MS);
  const busyTimeoutMs =
    options.busyTimeoutMs === undefined ? undefined : positiveInteger('busyTimeoutMs', options.busyTimeoutMs, { min: 0 });
  const sql = sqliteStatements(table); // validates the table name now, not on first use
  const ddl = sqliteSchema(table);

  const setUp = (db: SqliteDatabaseLike) => {
    if (busyTimeoutMs !== undefined) db.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    // IMMEDIATE takes the write lock before reading the schema, so processes creating it at the
    // same moment queue on busy_timeout instead of deadlocking into an instant SQLITE_BUSY.
    if (createSchema) db.transaction((script: string) => db.exec(script)).immediate(ddl);
    const statements = Object.fromEntries(
      Object.entries(sql).map(([name, text]) => {
        const statement = db.prepare(text);
        statement.safeIntegers?.(false); // numbers even on a database opened with defaultSafeIntegers
        return [name, statement];
      }),
    ) as Statements;
    const pragma = { synchronous: db.prepare('PRAGMA synchronous'), journalMode: db.prepare('PRAGMA journal_mode') };
    const purge = slicedPurge((rows) => withoutSync(db, pragma, () => statements.purgeExpired.run({ batchSize: rows }).changes), {
      sliceMs: purgeSliceMs,
      stopped: () => closed,
    });
    return { db, statements, purge, claim: db.transaction((input: ClaimInput) => claimIn(statements, input)) };
  };

  // A given database is set up now (errors surface here); a file is opened in the background,
  // because loading the optional driver is an async import in both ESM and CJS builds.
  const opened =
    database !== undefined
      ? Promise.resolve(setUp(database))
      : openFile(filename!, busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, synchronous, setUp);
  const ready = opened.then(() => undefined);
  // An open failure is reported through `ready` and every call, never as an unhandled rejection.
  opened.catch(() => {});
  ready.catch(() => {});
  let closed = false;

  // Whether the event loop has had a turn since the current run of claims began.
  let loopTurned = true;
  let sliceStart = 0;
  const use = async () => {
    if (closed) throw new Error('The SQLite store is closed.');
    return opened;
  };
  const fenced = async (name: 'finish' | 'release' | 'extend', params: Record<string, unknown>): Promise<FencedResult> =>
    (await use()).statements[name].run(params).changes === 1 ? 'applied' : 'lost';
  const finishAs = (status: 'COMPLETED' | 'FAILED') => (input: FinishInput) =>
    fenced('finish', { ...fencedParams(input), status, ttlMs: input.ttlMs, ...responseParams(input.response) });

  return {
    ready,
    async claim(input) {
      // Claims run synchronously: a burst of them would hold the event loop, and with it the
      // timers of the holders' heartbeats. Give the loop a turn every few milliseconds of claims.
      const now = performance.now();
      if (loopTurned) {
        loopTurned = false;
        sliceStart = now;
        setImmediate(() => (loopTurned = true));
      } else if (now - sliceStart > CLAIM_SLICE_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return (await use()).claim.immediate(input);
    },
    complete: finishAs('COMPLETED'),
    fail: finishAs('FAILED'),
    release: (input) => fenced('release', fencedParams(input)),
    extend: (input) => fenced('extend', { ...fencedParams(input), leaseMs: input.leaseMs }),
    async get({ key, scope }) {
      const row = (await use()).statements.get.get({ key, scope }) as RecordRow | undefined;
      return row ? toRecord(row) : null;
    },
    async purgeExpired(batchSize) {
      positiveInteger('batchSize', batchSize);
      return (await use()).purge(batchSize);
    },
    async listStuck({ olderThanMs, limit }) {
      const rows = (await use()).statements.listStuck.all({ olderThanMs, limit }) as RecordRow[];
      return rows.map(toRecord);
    },
    async forceRelease({ key, scope }) {
      return (await use()).statements.forceRelease.run({ key, scope }).changes === 1;
    },
    async size() {
      return ((await use()).statements.size.get() as { n: number }).n;
    },
    async now() {
      return ((await use()).statements.now.get() as { now: number }).now;
    },
    async close() {
      if (closed) return;
      closed = true;
      const handle = await opened.catch(() => null);
      if (handle && database === undefined) handle.db.close();
    },
  };
}

/**
 * The claim, run inside BEGIN IMMEDIATE: no other connection in any process can write between
 * the read and the upsert. The upsert's WHERE is still the whole compare-and-set on its own;
 * the read only supplies the store clock, the answer for `existing`, and the label
 * (fresh / reclaimed / replaced) that the upsert's RETURNING cannot tell apart.
 */
function claimIn(statements: Statements, input: ClaimInput): ClaimResult {
  const { key, scope } = input;
  const read = statements.claimRead.get({ key, scope }) as ClaimReadRow;
  const won = statements.claimUpsert.get({
    key,
    scope,
    fingerprint: input.fingerprint,
    owner: input.owner,
    now: read.now,
    leaseMs: input.leaseMs,
    ttlMs: input.ttlMs,
    replaceExpired: input.replaceExpired ? 1 : 0,
  }) as { lock_version: number; locked_until: number } | undefined;
  if (won) {
    return {
      outcome: 'claimed',
      lockVersion: won.lock_version,
      reclaimed: read.status === 'PROCESSING',
      replacedExpired: read.status === 'COMPLETED' || read.status === 'FAILED',
      lockedUntil: won.locked_until,
    };
  }
  if (read.status === null) {
    // An absent key is always inserted; reaching here means the table is not what we expect.
    throw new Error('SQLite claim neither inserted nor found the record.');
  }
  return { outcome: 'existing', record: toRecord(read), now: read.now };
}

/** Opens the file with better-sqlite3 (loaded on demand), in WAL mode, then runs `setUp` on it. */
async function openFile<T>(
  filename: string,
  busyTimeoutMs: number,
  synchronous: 'FULL' | 'NORMAL',
  setUp: (db: SqliteDatabaseLike) => T,
): Promise<T> {
  type Driver = new (filename: string, options: { timeout: number }) => SqliteDatabaseLike;
  let Database: Driver;
  try {
    const loaded = (await import('better-sqlite3')) as unknown as { default?: Driver };
    Database = loaded.default ?? (loaded as unknown as Driver);
  } catch (error) {
    throw new Error('createSqliteStore({ filename }) needs the optional peer dependency better-sqlite3 (install better-sqlite3@12).', {
      cause: error,
    });
  }
  const db = new Database(filename, { timeout: busyTimeoutMs }); // `timeout` is better-sqlite3's busy_timeout
  try {
    return await retryWhileBusy(busyTimeoutMs, () => {
      // WAL: readers never block the writer; the mode is stored in the file, so the first opener sets it for all.
      db.exec('PRAGMA journal_mode = WAL');
      // Explicit: better-sqlite3 is built with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (NORMAL).
      db.exec(`PRAGMA synchronous = ${synchronous}`);
      return setUp(db);
    });
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Switching a fresh file to WAL while other processes open it can fail with SQLITE_BUSY at once,
 * without waiting on busy_timeout (SQLite refuses to wait where waiting could deadlock). Every
 * step here is idempotent, so it is retried with backoff for up to `budgetMs`.
 */
async function retryWhileBusy<T>(budgetMs: number, step: () => T): Promise<T> {
  const deadline = Date.now() + budgetMs;
  for (let pauseMs = 5; ; pauseMs = Math.min(pauseMs * 2, 100)) {
    try {
      return step();
    } catch (error) {
      const code = String((error as { code?: unknown } | null)?.code ?? '');
      if (!code.startsWith('SQLITE_BUSY') || Date.now() + pauseMs > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * Runs one purge slice with `synchronous = NORMAL` in WAL mode, then restores the connection's
 * setting. Under FULL every commit waits for an fsync, and the synchronous driver makes the
 * event loop wait with it: slices sized in milliseconds would shrink to a few rows per fsync.
 * A purge commit lost on power loss only brings back rows that are still expired, purged again
 * next run; the next FULL commit (any claim or completion) syncs the WAL, purge frames included;
 * WAL with NORMAL never corrupts the file (rollback-journal modes could, so they keep FULL).
 * Nothing of this process runs between the statements (the driver is synchronous).
 */
function withoutSync<T>(db: SqliteDatabaseLike, pragma: PragmaReads, run: () => T): T {
  const level = Number((pragma.synchronous.get() as { synchronous: number }).synchronous);
  const wal = String((pragma.journalMode.get() as { journal_mode: string }).journal_mode).toLowerCase() === 'wal';
  if (level < 2 || !wal) return run(); // already NORMAL or OFF, or not WAL
  try {
    db.exec('PRAGMA synchronous = NORMAL');
  } catch {
    return run(); // inside a transaction of the caller's on a given database: the level cannot change there
  }
  try {
    return run();
  } finally {
    db.exec(`PRAGMA synchronous = ${level}`);
  }
}

const fencedParams = ({ key, scope, lockVersion }: { key: string; scope: string; lockVersion: number }) => ({ key, scope, lockVersion });

function responseParams(response: StoredResponse) {
  return {
    responseCode: response.statusCode,
    responseHeaders: response.headers === null ? null : JSON.stringify(response.headers),
    responseBody: response.body,
    responseEncoding: response.encoding,
  };
}

function toRecord(row: RecordRow): IdempotencyRecord {
  const body = row.response_body;
  return {
    key: row.idempotency_key,
    scope: row.user_id,
    owner: row.owner_id,
    fingerprint: row.fingerprint,
    status: row.status,
    lockVersion: row.lock_version,
    lockedUntil: row.locked_until,
    response:
      row.response_encoding === null || body === null
        ? null
        : {
            statusCode: row.response_code,
            headers: row.response_headers === null ? null : (JSON.parse(row.response_headers) as Record<string, string>),
            // A plain Uint8Array view over the driver's Buffer: no copy, same type as every other store.
            body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
            encoding: row.response_encoding,
          },
    createdAt: row.created_at,
    completedAt: row.completed_at,
    expiresAt: row.expires_at,
  };
}
