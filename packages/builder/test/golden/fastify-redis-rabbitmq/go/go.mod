module example.com/booking-service/idempotency

go 1.19

// The driver the conformance test opens; the package itself needs only the standard library.
require github.com/mattn/go-sqlite3 v1.14.22
