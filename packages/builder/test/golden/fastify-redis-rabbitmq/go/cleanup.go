// Cleanup job: deletes expired COMPLETED/FAILED records in bounded batches; PROCESSING records are
// never touched. Safe to run on every instance at once. (On Redis, records expire by themselves.)
package idempotency

import (
	"context"
	"log"
	"time"
)

// RunCleanup purges every interval until ctx ends: go idempotency.RunCleanup(ctx, store, time.Minute, 1000).
func RunCleanup(ctx context.Context, store Store, every time.Duration, batchSize int) {
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			for batch := 0; batch < 500; batch++ {
				deleted, err := store.PurgeExpired(ctx, batchSize)
				if err != nil {
					log.Printf("idempotency cleanup failed: %v", err)
					break
				}
				if deleted < int64(batchSize) {
					break
				}
			}
		}
	}
}
