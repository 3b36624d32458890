// Opens the Redis store for the conformance scenarios: IDEMPOTENCY_REDIS_ADDR ("127.0.0.1:6379")
// and IDEMPOTENCY_REDIS_PREFIX, e.g. "idem-test:{n}:" (a fresh prefix is a fresh store).
package idempotency

import (
	"context"
	"testing"

	"github.com/gomodule/redigo/redis"
)

func openConformanceStore(t *testing.T, index int) (Store, func()) {
	pool := &redis.Pool{MaxIdle: 16, Dial: func() (redis.Conn, error) { return redis.Dial("tcp", target(t, "IDEMPOTENCY_REDIS_ADDR", index)) }}
	do := func(ctx context.Context, command string, args ...any) (any, error) {
		conn, err := pool.GetContext(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		return conn.Do(command, args...)
	}
	return &RedisStore{Do: do, Prefix: target(t, "IDEMPOTENCY_REDIS_PREFIX", index)}, func() { _ = pool.Close() }
}
