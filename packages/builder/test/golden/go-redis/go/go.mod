module example.com/notifier/idempotency

go 1.19

// The driver the conformance test opens; the package itself needs only the standard library.
require github.com/gomodule/redigo v1.9.2
