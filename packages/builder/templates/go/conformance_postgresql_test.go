// Opens the PostgreSQL store for the conformance scenarios: IDEMPOTENCY_PG_DSN, e.g.
// "host=127.0.0.1 user=postgres dbname=test sslmode=disable search_path=idem_{n}" (schema prepared).
package idempotency

import (
	"database/sql"
	"testing"

	_ "github.com/lib/pq"
)

func openConformanceStore(t *testing.T, index int) (Store, func()) {
	db, err := sql.Open("postgres", target(t, "IDEMPOTENCY_PG_DSN", index))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(16)
	return &PostgresStore{DB: db}, func() { _ = db.Close() }
}
