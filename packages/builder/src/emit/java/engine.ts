/**
 * Generated Java 17: the engine (claim → run → store → replay) with a heartbeat, JDK only.
 */
import type { Plan } from '../../design/plan/plan.js';
import { JAVA_PACKAGE } from './core.js';

/**
 * `IdempotencyEngine.java`.
 * @example engineJava(plan).includes('public Answer run(')
 */
export function engineJava(plan: Plan): string {
  const policies = plan.actions.map((a) => `        Map.entry(${JSON.stringify(a.action.name)}, new Policy(${a.lease.leaseMs}L, ${a.retention.ttlMs}L))`).join(',\n');
  return `package ${JAVA_PACKAGE};

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Idempotency engine: claim -> run -> store -> replay. The store decides every time question with
 * the database clock; every write after the claim is fenced by the lock version.
 */
public final class IdempotencyEngine {
    /** An action's lock timeout (lease) and key expiry (retention). */
    public record Policy(long leaseMs, long ttlMs) {}

    /** Per protected action (design document, sections 4 and 5). */
    public static final Map<String, Policy> POLICIES = Map.ofEntries(
${policies});

    public record Claimed(String key, String scope, long lockVersion, boolean reclaimed) {}

    public record Existing(String status, String fingerprint, int responseCode, String responseBody, long retryAfterMs) {}

    /** A fresh result, a replay, or a problem. body is JSON text. */
    public record Answer(int status, String body, boolean replayed, long retryAfterSeconds, String problemCode) {}

    /** Either this caller holds the key, or the record that holds it. */
    public record ClaimResult(Claimed claimed, Existing existing) {}

    /** The store contract: each method one atomic operation. */
    public interface Store {
        ClaimResult claim(String key, String scope, String fingerprint, long leaseMs, long ttlMs) throws Exception;
        boolean finish(Claimed claim, String status, int code, String body, long ttlMs) throws Exception;
        boolean release(Claimed claim) throws Exception;
        boolean extend(Claimed claim, long leaseMs) throws Exception;
    }

    /** What an action returns: status and JSON body. */
    public record Result(int status, String body) {}

    @FunctionalInterface
    public interface Action {
        Result execute() throws Exception;
    }

    /** Stored and replayed (declined card, invalid request), never retried. */
    public static final class PermanentException extends Exception {
        private final int status;

        public PermanentException(String message, int status) {
            super(message);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private static final Pattern KEY = Pattern.compile("^[A-Za-z0-9_.:~-]{1,255}$");
    private static final Pattern UUID_PATTERN = Pattern.compile("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$");
    private static final Pattern ULID_PATTERN = Pattern.compile("^[0-7][0-9A-HJKMNP-TV-Z]{25}$");

    private final Store store;
    private final ScheduledExecutorService heartbeats = Executors.newScheduledThreadPool(1, runnable -> {
        Thread thread = new Thread(runnable, "idempotency-heartbeat");
        thread.setDaemon(true);
        return thread;
    });

    public IdempotencyEngine(Store store) {
        this.store = store;
    }

    public static Answer problem(int status, String code, String detail, long retryAfterSeconds) {
        String body = "{\\"type\\":\\"urn:idempotency:" + code + "\\",\\"title\\":" + Fingerprint.canonicalJson(code.replace('_', ' '))
            + ",\\"status\\":" + status + ",\\"code\\":\\"" + code + "\\",\\"detail\\":" + Fingerprint.canonicalJson(detail) + "}";
        return new Answer(status, body, false, retryAfterSeconds, code);
    }

    /** The client's Idempotency-Key, a UUID (lower-cased) or a ULID; null and a problem otherwise. */
    public static Object validateIntent(String header) {
        if (header == null || header.isEmpty()) return problem(400, "missing_key", "Send an Idempotency-Key header: a UUIDv4 generated once per intent.", 0);
        if (UUID_PATTERN.matcher(header).matches()) return header.toLowerCase(Locale.ROOT);
        if (ULID_PATTERN.matcher(header).matches()) return header;
        return problem(400, "invalid_key", "The Idempotency-Key must be a UUID (v4) or a ULID.", 0);
    }

    /** Claims the key, or answers the duplicate: replay, in progress, or fingerprint mismatch. */
    public Object begin(String action, String intent, String scope, String fingerprint) throws Exception {
        String key = action + "_" + intent;
        if (!KEY.matcher(key).matches()) return problem(400, "invalid_key", "The idempotency key is too long or has characters outside [A-Za-z0-9_.:~-].", 0);
        Policy policy = POLICIES.get(action);
        ClaimResult result = store.claim(key, scope, fingerprint, policy.leaseMs(), policy.ttlMs());
        if (result.claimed() != null) return result.claimed();
        Existing existing = result.existing();
        // Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
        if (!MessageDigest.isEqual(existing.fingerprint().getBytes(StandardCharsets.UTF_8), fingerprint.getBytes(StandardCharsets.UTF_8))) {
            return problem(409, "fingerprint_mismatch", "This idempotency key was already used with different request parameters.", 0);
        }
        if (existing.status().equals("COMPLETED") || existing.status().equals("FAILED")) {
            return new Answer(existing.responseCode(), existing.responseBody(), true, 0, null);
        }
        long seconds = Math.max(1, (existing.retryAfterMs() + 999) / 1000);
        return problem(409, "in_progress", "A request with this idempotency key is still being processed.", seconds);
    }

    /** The whole flow: claim, run once (with a heartbeat), store, or answer the duplicate. */
    public Answer run(String action, String intent, String scope, String fingerprint, Action execute) throws Exception {
        Object begun = begin(action, intent, scope, fingerprint);
        if (begun instanceof Answer answer) return answer;
        Claimed claimed = (Claimed) begun;
        Policy policy = POLICIES.get(action);
        AtomicBoolean lost = new AtomicBoolean(false);
        long every = Math.max(1, policy.leaseMs() / 3);
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> {
            try {
                if (!store.extend(claimed, policy.leaseMs())) lost.set(true);
            } catch (Exception ignored) {
                // a failed beat is retried at the next tick; the lease itself is the safety net
            }
        }, every, every, TimeUnit.MILLISECONDS);
        Result result;
        try {
            result = execute.execute();
        } catch (PermanentException e) {
            beat.cancel(false);
            Answer failed = problem(e.status(), "failed", e.getMessage(), 0);
            store.finish(claimed, "FAILED", failed.status(), failed.body(), policy.ttlMs());
            return failed;
        } catch (Exception e) {
            beat.cancel(false);
            store.release(claimed); // transient: the same key may run again at once
            throw e;
        }
        beat.cancel(false);
        if (lost.get()) return problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1);
        if (result.status() >= 500) {
            store.release(claimed);
            return new Answer(result.status(), result.body(), false, 0, null);
        }
        if (!store.finish(claimed, "COMPLETED", result.status(), result.body(), policy.ttlMs())) {
            return problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1);
        }
        return new Answer(result.status(), result.body(), false, 0, null);
    }
}
`;
}
