// Opens the SQLite store for the conformance scenarios: IDEMPOTENCY_SQLITE_DSN, e.g.
// "file:/tmp/idem_{n}.db?_busy_timeout=10000&_journal_mode=WAL" (file and table prepared).
package idempotency

import (
	"database/sql"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

func openConformanceStore(t *testing.T, index int) (Store, func()) {
	db, err := sql.Open("sqlite3", target(t, "IDEMPOTENCY_SQLITE_DSN", index))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(8)
	return &SQLiteStore{DB: db}, func() { _ = db.Close() }
}
