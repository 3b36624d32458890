module example.com/payments-api/idempotency

go 1.19

// The driver the conformance test opens; the package itself needs only the standard library.
require github.com/lib/pq v1.10.9
