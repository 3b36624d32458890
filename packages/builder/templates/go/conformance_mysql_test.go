// Opens the MySQL/MariaDB store for the conformance scenarios: IDEMPOTENCY_MYSQL_DSN, e.g.
// "root@tcp(127.0.0.1:3306)/idem_{n}" (database and table prepared).
package idempotency

import (
	"database/sql"
	"testing"

	_ "github.com/go-sql-driver/mysql"
)

func openConformanceStore(t *testing.T, index int) (Store, func()) {
	db, err := sql.Open("mysql", target(t, "IDEMPOTENCY_MYSQL_DSN", index))
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(16)
	return &MySQLStore{DB: db}, func() { _ = db.Close() }
}
