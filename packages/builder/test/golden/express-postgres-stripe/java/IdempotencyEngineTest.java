package com.example.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Idempotency test scenarios (design document, section 11) for the first protected action, on an
 * in-memory store with a controllable clock: runs without a database.
 */
@SuppressWarnings("unchecked")
class IdempotencyEngineTest {
    static final Map<String, Object> SAMPLE = Project.section("sample");
    static final String ACTION = (String) SAMPLE.get("action");
    static final IdempotencyEngine.Policy POLICY = IdempotencyEngine.Policy.of(ACTION);
    static final Map<String, Object> BODY = (Map<String, Object>) SAMPLE.get("body");
    static final Map<String, Object> OTHER_BODY = (Map<String, Object>) SAMPLE.get("otherBody");

    /** The request-flow half of the store contract in memory: synchronized, with its own clock. */
    static final class MemoryStore implements IdempotencyEngine.Store {
        long now = 1_748_772_000_000L;
        final Map<String, IdempotencyEngine.Record> records = new HashMap<>();

        public synchronized IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) {
            IdempotencyEngine.Record r = records.get(in.scope() + "\u0000" + in.key());
            boolean free = r == null;
            boolean expired = !free && !r.status().equals("PROCESSING") && r.expiresAt() <= now && in.replaceExpired();
            boolean orphan = !free && r.status().equals("PROCESSING") && r.lockedUntil() <= now && r.fingerprint().equals(in.fingerprint());
            if (free || expired || orphan) {
                // Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
                long version = free ? now : orphan ? r.lockVersion() + 1 : Math.max(r.lockVersion() + 1, now);
                records.put(in.scope() + "\u0000" + in.key(), new IdempotencyEngine.Record(in.key(), in.scope(), in.owner(), in.fingerprint(),
                    "PROCESSING", version, now + in.leaseMs(), now, null, now + in.ttlMs(), null));
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), version, orphan, expired), null);
            }
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(r, now));
        }

        private IdempotencyEngine.Record held(String key, String scope, long lockVersion) {
            IdempotencyEngine.Record r = records.get(scope + "\u0000" + key);
            return r != null && r.status().equals("PROCESSING") && r.lockVersion() == lockVersion ? r : null;
        }

        private synchronized boolean finish(String status, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) {
            IdempotencyEngine.Record r = held(key, scope, lockVersion);
            if (r == null) return false;
            records.put(scope + "\u0000" + key, new IdempotencyEngine.Record(key, scope, r.owner(), r.fingerprint(), status, lockVersion,
                null, r.createdAt(), now, now + ttlMs, response));
            return true;
        }

        public boolean complete(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) {
            return finish("COMPLETED", key, scope, lockVersion, response, ttlMs);
        }

        public boolean fail(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) {
            return finish("FAILED", key, scope, lockVersion, response, ttlMs);
        }

        public synchronized boolean release(String key, String scope, long lockVersion) {
            return held(key, scope, lockVersion) != null && records.remove(scope + "\u0000" + key) != null;
        }

        public synchronized boolean extend(String key, String scope, long lockVersion, long leaseMs) {
            IdempotencyEngine.Record r = held(key, scope, lockVersion);
            if (r == null) return false;
            records.put(scope + "\u0000" + key, new IdempotencyEngine.Record(key, scope, r.owner(), r.fingerprint(), r.status(), lockVersion,
                now + leaseMs, r.createdAt(), null, r.expiresAt(), null));
            return true;
        }

        public synchronized IdempotencyEngine.Record get(String key, String scope) {
            return records.get(scope + "\u0000" + key);
        }

        public boolean forceRelease(String key, String scope) {
            return false;
        }

        public long purgeExpired(int batchSize) {
            return 0;
        }

        public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) {
            return List.of();
        }
    }

    final MemoryStore store = new MemoryStore();
    final IdempotencyEngine engine = new IdempotencyEngine(store);
    final AtomicInteger runs = new AtomicInteger();

    IdempotencyEngine.Answer call(String intent, Map<String, Object> body, String scope) throws Exception {
        return engine.run(ACTION, intent, scope, Fingerprint.of(ACTION, body, null), () -> {
            int run = runs.incrementAndGet();
            Thread.sleep(5);
            return new IdempotencyEngine.Result(201, "{\"id\":\"res-" + run + "\"}");
        });
    }

    @Test
    void fingerprintMatchesTheTypeScriptRuntime() {
        assertEquals(SAMPLE.get("fingerprint"), Fingerprint.of(ACTION, BODY, null));
    }

    @Test
    void sameKeySameBodyFirstRequestExecutes() throws Exception {
        IdempotencyEngine.Answer answer = call(UUID.randomUUID().toString(), BODY, "usr-1");
        assertEquals(201, answer.status());
        assertFalse(answer.replayed());
        assertEquals(1, runs.get());
    }

    @Test
    void sameKeySameBodySecondRequestReplays() throws Exception {
        String intent = UUID.randomUUID().toString();
        IdempotencyEngine.Answer first = call(intent, BODY, "usr-1");
        IdempotencyEngine.Answer second = call(intent, BODY, "usr-1");
        assertTrue(second.replayed());
        assertEquals(first.body(), second.body());
        assertEquals(1, runs.get());
    }

    @Test
    void sameKeyDifferentBodyIs409() throws Exception {
        String intent = UUID.randomUUID().toString();
        call(intent, BODY, "usr-1");
        IdempotencyEngine.Answer answer = call(intent, OTHER_BODY, "usr-1");
        assertEquals(409, answer.status());
        assertEquals("fingerprint_mismatch", answer.problemCode());
        assertTrue(answer.body().contains("\"type\":\"" + Project.text("problemTypeBase") + "fingerprint_mismatch\""));
        assertEquals(1, runs.get());
    }

    @Test
    void concurrentRequestsWithSameKeyExecuteOnce() throws Exception {
        String intent = UUID.randomUUID().toString();
        CountDownLatch start = new CountDownLatch(1);
        List<Integer> statuses = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    statuses.add(call(intent, BODY, "usr-1").status());
                } catch (Exception e) {
                    statuses.add(-1);
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) thread.join();
        assertEquals(1, runs.get());
        assertTrue(statuses.stream().allMatch(status -> status == 201 || status == 409));
    }

    @Test
    void keyFromDifferentUserNeverReturnsTheirResponse() throws Exception {
        String intent = UUID.randomUUID().toString();
        IdempotencyEngine.Answer mine = call(intent, BODY, "usr-1");
        IdempotencyEngine.Answer theirs = call(intent, BODY, "usr-2");
        assertFalse(theirs.replayed());
        assertNotEquals(mine.body(), theirs.body());
    }

    @Test
    void requestAfterExpiryIsNew() throws Exception {
        String intent = UUID.randomUUID().toString();
        call(intent, BODY, "usr-1");
        store.now += POLICY.ttlMs() + 1;
        assertFalse(call(intent, BODY, "usr-1").replayed());
        assertEquals(2, runs.get());
    }

    @Test
    void crashMidProcessingThenRetryAfterTheLease() throws Exception {
        String intent = UUID.randomUUID().toString();
        store.claim(new IdempotencyEngine.ClaimInput(ACTION + "_" + intent, "usr-1", Fingerprint.of(ACTION, BODY, null), null,
            POLICY.leaseMs(), POLICY.ttlMs(), true));
        assertEquals(409, call(intent, BODY, "usr-1").status());
        store.now += POLICY.leaseMs() + 1;
        assertEquals(201, call(intent, BODY, "usr-1").status());
        assertEquals(1, runs.get());
    }
}
