/** The shop's own tables (inventory, reservations, orders) in one SQLite file, next to the idempotency table. */
import Database from 'better-sqlite3';

export interface Shop {
  reserve(orderId: string, sku: string, quantity: number): { reservationId: string };
  release(reservationId: string): void;
  confirm(orderId: string, paymentId: string): { orderId: string; status: 'CONFIRMED' };
  stock(sku: string): number;
  close(): void;
}

/** Opens the shop's tables in `filename`, with 10 units of `sku-42` in stock. */
export function openShop(filename: string): Shop {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS inventory (sku TEXT PRIMARY KEY, stock INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS reservations (id TEXT PRIMARY KEY, sku TEXT, quantity INTEGER, released INTEGER DEFAULT 0);
    CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, payment_id TEXT, status TEXT);
    INSERT OR IGNORE INTO inventory VALUES ('sku-42', 10);
  `);
  return {
    reserve: db.transaction((orderId: string, sku: string, quantity: number) => {
      const id = `res-${orderId}`;
      db.prepare('UPDATE inventory SET stock = stock - ? WHERE sku = ? AND stock >= ?').run(quantity, sku, quantity);
      db.prepare('INSERT INTO reservations (id, sku, quantity) VALUES (?, ?, ?)').run(id, sku, quantity);
      return { reservationId: id };
    }),
    release: db.transaction((reservationId: string) => {
      const row = db.prepare('SELECT sku, quantity FROM reservations WHERE id = ? AND released = 0').get(reservationId) as { sku: string; quantity: number } | undefined;
      if (!row) return;
      db.prepare('UPDATE inventory SET stock = stock + ? WHERE sku = ?').run(row.quantity, row.sku);
      db.prepare('UPDATE reservations SET released = 1 WHERE id = ?').run(reservationId);
    }),
    confirm(orderId, paymentId) {
      db.prepare('INSERT INTO orders (id, payment_id, status) VALUES (?, ?, ?)').run(orderId, paymentId, 'CONFIRMED');
      return { orderId, status: 'CONFIRMED' };
    },
    stock: (sku) => (db.prepare('SELECT stock FROM inventory WHERE sku = ?').get(sku) as { stock: number }).stock,
    close: () => void db.close(),
  };
}
