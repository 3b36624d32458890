module example.com/refunds/idempotency

go 1.19

// The driver the conformance test opens; the package itself needs only the standard library.
require github.com/go-sql-driver/mysql v1.8.1
