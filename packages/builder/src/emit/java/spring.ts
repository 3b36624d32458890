/**
 * Generated Spring Boot glue (the executor controllers call, and the scheduled cleanup) and the
 * JUnit 5 test suite.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { expectedFingerprint } from '../../design/plan/expected-fingerprint.js';
import { sampleBodies } from '../../design/plan/samples.js';
import { JAVA_PACKAGE } from './core.js';

/**
 * `IdempotentExecutor.java`: what controllers call.
 * @example executorJava().includes('class IdempotentExecutor')
 */
export function executorJava(): string {
  return `package ${JAVA_PACKAGE};

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;

/**
 * Runs a controller's work once per idempotency key and replays the stored response to duplicates:
 *
 * <pre>
 * &#64;PostMapping("/payments")
 * ResponseEntity&lt;Object&gt; create(&#64;RequestHeader(value = "Idempotency-Key", required = false) String key,
 *                               &#64;RequestBody Map&lt;String, Object&gt; body, Principal principal) {
 *     return idempotent.execute("createPayment", key, principal.getName(), body, "/payments",
 *         () -> ResponseEntity.status(201).body(payments.create(body)));
 * }
 * </pre>
 *
 * The scope is the authenticated principal, never a value from the request body.
 */
@Component
public class IdempotentExecutor {
    private final IdempotencyEngine engine;
    private final ObjectMapper json;

    public IdempotentExecutor(IdempotencyEngine.Store store, ObjectMapper json) {
        this.engine = new IdempotencyEngine(store);
        this.json = json;
    }

    public ResponseEntity<Object> execute(String action, String idempotencyKey, String scope, Map<String, Object> body,
                                          String path, Supplier<ResponseEntity<Object>> handler) throws Exception {
        Object intent = IdempotencyEngine.validateIntent(idempotencyKey);
        if (intent instanceof IdempotencyEngine.Answer problem) return toResponse(problem);
        if (scope == null || scope.isEmpty()) {
            return toResponse(IdempotencyEngine.problem(401, "unauthenticated", "Idempotent requests need an authenticated caller.", 0));
        }
        String fingerprint = Fingerprint.of(action, body, path);
        IdempotencyEngine.Answer answer = engine.run(action, (String) intent, scope, fingerprint, () -> {
            ResponseEntity<Object> response = handler.get();
            return new IdempotencyEngine.Result(response.getStatusCode().value(), json.writeValueAsString(response.getBody()));
        });
        return toResponse(answer);
    }

    private ResponseEntity<Object> toResponse(IdempotencyEngine.Answer answer) throws Exception {
        ResponseEntity.BodyBuilder builder = ResponseEntity.status(answer.status());
        builder.header("Content-Type", answer.problemCode() != null ? "application/problem+json" : "application/json");
        if (answer.replayed()) builder.header("Idempotent-Replayed", "true");
        if (answer.retryAfterSeconds() > 0) builder.header("Retry-After", Long.toString(answer.retryAfterSeconds()));
        return builder.body(answer.body() == null ? null : json.readValue(answer.body(), Object.class));
    }
}
`;
}

/**
 * `IdempotencyCleanupJob.java`.
 * @example cleanupJava(plan).includes('@Scheduled')
 */
export function cleanupJava(plan: Plan): string {
  if (plan.stack.store === 'redis') {
    return `package ${JAVA_PACKAGE};

import org.springframework.stereotype.Component;

/** On Redis, records expire by PEXPIREAT on their own: there is nothing to purge. Count records for
 * the store_size gauge with SCAN on a replica, never KEYS. */
@Component
public class IdempotencyCleanupJob {
}
`;
  }
  return `package ${JAVA_PACKAGE};

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Deletes expired COMPLETED/FAILED records every minute in bounded batches; PROCESSING records are
 * never touched. Safe on every instance at once. Needs @EnableScheduling on a configuration class.
 */
@Component
public class IdempotencyCleanupJob {
    private final JdbcIdempotencyStore store;

    public IdempotencyCleanupJob(JdbcIdempotencyStore store) {
        this.store = store;
    }

    @Scheduled(fixedDelay = 60_000)
    public void purge() throws Exception {
        for (int batch = 0; batch < 500; batch++) {
            if (store.purgeExpired(1000) < 1000) return;
        }
    }
}
`;
}

/**
 * `IdempotencyEngineTest.java` (JUnit 5).
 * @example javaTests(plan).includes('@Test')
 */
export function javaTests(plan: Plan): string {
  const target = (plan.actions.find((a) => a.action.kind === 'http') ?? plan.actions[0]) as ActionPlan;
  const { same, different } = sampleBodies(target.action);
  const mapLiteral = (value: unknown): string => {
    if (value === null) return 'null';
    if (Array.isArray(value)) return `List.of(${value.map(mapLiteral).join(', ')})`;
    if (typeof value === 'object') {
      return `Map.of(${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}, ${mapLiteral(v)}`).join(', ')})`;
    }
    return typeof value === 'number' ? `${value}L` : JSON.stringify(value);
  };
  return `package ${JAVA_PACKAGE};

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

/** Idempotency test scenarios (design document, section 11) for ${target.action.name}, on an in-memory store. */
class IdempotencyEngineTest {
    static final String ACTION = ${JSON.stringify(target.action.name)};
    static final IdempotencyEngine.Policy POLICY = IdempotencyEngine.POLICIES.get(ACTION);
    static final Map<String, Object> BODY = ${mapLiteral(same)};
    static final Map<String, Object> OTHER_BODY = ${mapLiteral(different)};

    /** The store contract in memory: synchronized, with its own clock. */
    static final class MemoryStore implements IdempotencyEngine.Store {
        long now = 1_748_772_000_000L;
        final Map<String, Object[]> records = new HashMap<>(); // status, fingerprint, version, lockedUntil, expiresAt, code, body

        public synchronized IdempotencyEngine.ClaimResult claim(String key, String scope, String fp, long leaseMs, long ttlMs) {
            Object[] r = records.get(scope + "\\u0000" + key);
            boolean free = r == null;
            boolean expired = !free && !r[0].equals("PROCESSING") && (long) r[4] <= now;
            boolean orphan = !free && r[0].equals("PROCESSING") && (long) r[3] <= now && r[1].equals(fp);
            if (free || expired || orphan) {
                // Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
                long version = free ? now : orphan ? (long) r[2] + 1 : Math.max((long) r[2] + 1, now);
                records.put(scope + "\\u0000" + key, new Object[] {"PROCESSING", fp, version, now + leaseMs, now + ttlMs, 0, null});
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(key, scope, version, !free), null);
            }
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing((String) r[0], (String) r[1], (int) r[5], (String) r[6], (long) r[3] - now));
        }

        private Object[] held(IdempotencyEngine.Claimed c) {
            Object[] r = records.get(c.scope() + "\\u0000" + c.key());
            return r != null && r[0].equals("PROCESSING") && (long) r[2] == c.lockVersion() ? r : null;
        }

        public synchronized boolean finish(IdempotencyEngine.Claimed c, String status, int code, String body, long ttlMs) {
            Object[] r = held(c);
            if (r == null) return false;
            r[0] = status;
            r[4] = now + ttlMs;
            r[5] = code;
            r[6] = body;
            return true;
        }

        public synchronized boolean release(IdempotencyEngine.Claimed c) {
            return held(c) != null && records.remove(c.scope() + "\\u0000" + c.key()) != null;
        }

        public synchronized boolean extend(IdempotencyEngine.Claimed c, long leaseMs) {
            Object[] r = held(c);
            if (r == null) return false;
            r[3] = now + leaseMs;
            return true;
        }
    }

    final MemoryStore store = new MemoryStore();
    final IdempotencyEngine engine = new IdempotencyEngine(store);
    final AtomicInteger runs = new AtomicInteger();

    IdempotencyEngine.Answer call(String intent, Map<String, Object> body, String scope) throws Exception {
        return engine.run(ACTION, intent, scope, Fingerprint.of(ACTION, body, null), () -> {
            int run = runs.incrementAndGet();
            Thread.sleep(5);
            return new IdempotencyEngine.Result(201, "{\\"id\\":\\"res-" + run + "\\"}");
        });
    }

    @Test
    void fingerprintMatchesTheTypeScriptRuntime() {
        assertEquals(${JSON.stringify(expectedFingerprint(target, same))}, Fingerprint.of(ACTION, BODY, null));
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
        store.claim(ACTION + "_" + intent, "usr-1", Fingerprint.of(ACTION, BODY, null), POLICY.leaseMs(), POLICY.ttlMs());
        assertEquals(409, call(intent, BODY, "usr-1").status());
        store.now += POLICY.leaseMs() + 1;
        assertEquals(201, call(intent, BODY, "usr-1").status());
        assertEquals(1, runs.get());
    }
}
`;
}
