/**
 * The example's business table: one row per executed payment. SQLite by default, PostgreSQL when
 * DATABASE_URL is set. Deliberately WITHOUT a unique constraint on the idempotency key, so that
 * "exactly one row per key" is the middleware's doing (in your app, add one as a second line).
 */
import Database from 'better-sqlite3';
import pg from 'pg';

export interface NewPayment {
  readonly userId: string;
  readonly amount: number;
  readonly currency: string;
  readonly recipientId: string;
  readonly idempotencyKey: string;
}

export interface Payment extends Omit<NewPayment, 'userId'> {
  readonly id: string;
  readonly createdAt: string;
}

export interface Ledger {
  insert(payment: NewPayment & { id: string }): Promise<Payment>;
  listFor(userId: string): Promise<Payment[]>;
  close(): Promise<void>;
}

interface Row {
  id: string;
  amount: number | string;
  currency: string;
  recipient_id: string;
  idempotency_key: string;
  created_at: string | Date;
}

const toPayment = (row: Row): Payment => ({
  id: row.id,
  amount: Number(row.amount),
  currency: row.currency,
  recipientId: row.recipient_id,
  idempotencyKey: row.idempotency_key,
  createdAt: new Date(row.created_at).toISOString(),
});

const COLUMNS = 'id, amount, currency, recipient_id, idempotency_key, created_at';

/** The payments table in a SQLite file (the idempotency store may share the file). */
export function sqliteLedger(filename: string): Ledger {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.exec(`CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount INTEGER NOT NULL, currency TEXT NOT NULL,
    recipient_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, created_at TEXT NOT NULL)`);
  const insert = db.prepare(
    `INSERT INTO payments (id, user_id, amount, currency, recipient_id, idempotency_key, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
  );
  const list = db.prepare(`SELECT ${COLUMNS} FROM payments WHERE user_id = ? ORDER BY created_at, id`);
  return {
    async insert(p) {
      return toPayment(insert.get(p.id, p.userId, p.amount, p.currency, p.recipientId, p.idempotencyKey, new Date().toISOString()) as Row);
    },
    async listFor(userId) {
      return (list.all(userId) as Row[]).map(toPayment);
    },
    async close() {
      db.close();
    },
  };
}

/** The payments table in PostgreSQL. */
export async function postgresLedger(pool: pg.Pool): Promise<Ledger> {
  await pool.query(`CREATE TABLE IF NOT EXISTS payments (
    id TEXT PRIMARY KEY, user_id TEXT NOT NULL, amount BIGINT NOT NULL, currency TEXT NOT NULL,
    recipient_id TEXT NOT NULL, idempotency_key TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  return {
    async insert(p) {
      const { rows } = await pool.query<Row>(
        `INSERT INTO payments (id, user_id, amount, currency, recipient_id, idempotency_key)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [p.id, p.userId, p.amount, p.currency, p.recipientId, p.idempotencyKey],
      );
      return toPayment(rows[0]!);
    },
    async listFor(userId) {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM payments WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
      return rows.map(toPayment);
    },
    async close() {},
  };
}
