package com.example.idempotency;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes expired COMPLETED/FAILED records every minute in bounded batches; PROCESSING records are
 * never touched. Safe on every instance at once. Needs @EnableScheduling on a configuration class.
 * (On Redis, records also expire by themselves.)
 */
@Component
public class IdempotencyCleanupJob {
    private final IdempotencyEngine.Store store;

    public IdempotencyCleanupJob(IdempotencyEngine.Store store) {
        this.store = store;
    }

    @Scheduled(fixedDelay = 60_000)
    public void purge() throws Exception {
        for (int batch = 0; batch < 500; batch++) {
            if (store.purgeExpired(1000) < 1000) return;
        }
    }
}
