/** The SQLite store's DDL: the spec's idempotency_store layout, adapted to SQLite. */
import { quoteIdentifier, quoteTable } from './sql.js';

/**
 * The table and its two partial indexes, idempotent (`IF NOT EXISTS`), as one script.
 *
 * Adaptations to SQLite: times are INTEGER ms on the store clock (not TIMESTAMPTZ); headers are
 * JSON text; the table is STRICT so a float time or a text body is an error, not a silent
 * coercion. It keeps its rowid (no WITHOUT ROWID): SQLite advises WITHOUT ROWID only for small
 * rows, and a stored response body can be megabytes.
 *
 * @example db.exec(sqliteSchema('idempotency_store'));
 */
export function sqliteSchema(table = 'idempotency_store'): string {
  const t = quoteTable(table);
  const expiresIndex = quoteIdentifier(`${table}_expires_idx`);
  const stuckIndex = quoteIdentifier(`${table}_stuck_idx`);
  return `
CREATE TABLE IF NOT EXISTS ${t} (
  idempotency_key   TEXT    NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  user_id           TEXT    NOT NULL,
  fingerprint       TEXT    NOT NULL,
  status            TEXT    NOT NULL CHECK (status IN ('PROCESSING', 'COMPLETED', 'FAILED')),
  response_code     INTEGER,
  response_headers  TEXT,
  response_body     BLOB,
  response_encoding TEXT,
  owner_id          TEXT,
  lock_version      INTEGER NOT NULL CHECK (lock_version >= 1),
  locked_until      INTEGER,
  created_at        INTEGER NOT NULL,
  completed_at      INTEGER,
  expires_at        INTEGER NOT NULL,
  PRIMARY KEY (idempotency_key, user_id),
  -- a lease exists exactly while PROCESSING; a finished record always carries its response
  CHECK ((status = 'PROCESSING') = (locked_until IS NOT NULL)),
  CHECK (status = 'PROCESSING' OR (response_body IS NOT NULL AND response_encoding IS NOT NULL AND completed_at IS NOT NULL))
) STRICT;
-- cleanup: purgeExpired scans only finished records, oldest expiry first
CREATE INDEX IF NOT EXISTS ${expiresIndex} ON ${t} (expires_at) WHERE status <> 'PROCESSING';
-- runbook: listStuck scans only held records, oldest lease first
CREATE INDEX IF NOT EXISTS ${stuckIndex} ON ${t} (locked_until) WHERE status = 'PROCESSING';
`;
}
