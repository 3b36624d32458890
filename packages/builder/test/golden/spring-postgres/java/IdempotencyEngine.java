package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
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
 * its own clock; every write after the claim is fenced by the lock version (the fencing token).
 */
public final class IdempotencyEngine {
    // Value classes written out (not records) so that the package compiles at Java 11: accessors
    // keep the record style, `policy.leaseMs()`.

    /** An action's lock timeout (lease) and key expiry (retention), from project.json. */
    public static final class Policy {
        private final long leaseMs;
        private final long ttlMs;

        public Policy(long leaseMs, long ttlMs) {
            this.leaseMs = leaseMs;
            this.ttlMs = ttlMs;
        }

        public long leaseMs() { return leaseMs; }
        public long ttlMs() { return ttlMs; }

        public static Policy of(String action) {
            Map<String, Object> data = Project.action(action);
            return new Policy(((Number) data.get("leaseMs")).longValue(), ((Number) data.get("ttlMs")).longValue());
        }
    }

    /** A stored response: status code and headers (null = none), what the body bytes are, the bytes. */
    public static final class Response {
        private final Integer statusCode;
        private final Map<String, String> headers;
        private final String encoding;
        private final byte[] body;

        public Response(Integer statusCode, Map<String, String> headers, String encoding, byte[] body) {
            this.statusCode = statusCode;
            this.headers = headers;
            this.encoding = encoding;
            this.body = body;
        }

        public Integer statusCode() { return statusCode; }
        public Map<String, String> headers() { return headers; }
        public String encoding() { return encoding; }
        public byte[] body() { return body; }
    }

    /** A stored record; times are ms since the epoch on the store clock (null = not set). */
    public static final class Record {
        private final String key;
        private final String scope;
        private final String owner;
        private final String fingerprint;
        private final String status;
        private final long lockVersion;
        private final Long lockedUntil;
        private final Long createdAt;
        private final Long completedAt;
        private final long expiresAt;
        private final Response response;

        public Record(String key, String scope, String owner, String fingerprint, String status, long lockVersion,
                      Long lockedUntil, Long createdAt, Long completedAt, long expiresAt, Response response) {
            this.key = key;
            this.scope = scope;
            this.owner = owner;
            this.fingerprint = fingerprint;
            this.status = status;
            this.lockVersion = lockVersion;
            this.lockedUntil = lockedUntil;
            this.createdAt = createdAt;
            this.completedAt = completedAt;
            this.expiresAt = expiresAt;
            this.response = response;
        }

        public String key() { return key; }
        public String scope() { return scope; }
        public String owner() { return owner; }
        public String fingerprint() { return fingerprint; }
        public String status() { return status; }
        public long lockVersion() { return lockVersion; }
        public Long lockedUntil() { return lockedUntil; }
        public Long createdAt() { return createdAt; }
        public Long completedAt() { return completedAt; }
        public long expiresAt() { return expiresAt; }
        public Response response() { return response; }
    }

    /** One claim: owner (null = none) may take over its orphans; replaceExpired replaces an expired record. */
    public static final class ClaimInput {
        private final String key;
        private final String scope;
        private final String fingerprint;
        private final String owner;
        private final long leaseMs;
        private final long ttlMs;
        private final boolean replaceExpired;

        public ClaimInput(String key, String scope, String fingerprint, String owner, long leaseMs, long ttlMs, boolean replaceExpired) {
            this.key = key;
            this.scope = scope;
            this.fingerprint = fingerprint;
            this.owner = owner;
            this.leaseMs = leaseMs;
            this.ttlMs = ttlMs;
            this.replaceExpired = replaceExpired;
        }

        public String key() { return key; }
        public String scope() { return scope; }
        public String fingerprint() { return fingerprint; }
        public String owner() { return owner; }
        public long leaseMs() { return leaseMs; }
        public long ttlMs() { return ttlMs; }
        public boolean replaceExpired() { return replaceExpired; }
    }

    public static final class Claimed {
        private final String key;
        private final String scope;
        private final long lockVersion;
        private final boolean reclaimed;
        private final boolean replacedExpired;

        public Claimed(String key, String scope, long lockVersion, boolean reclaimed, boolean replacedExpired) {
            this.key = key;
            this.scope = scope;
            this.lockVersion = lockVersion;
            this.reclaimed = reclaimed;
            this.replacedExpired = replacedExpired;
        }

        public String key() { return key; }
        public String scope() { return scope; }
        public long lockVersion() { return lockVersion; }
        public boolean reclaimed() { return reclaimed; }
        public boolean replacedExpired() { return replacedExpired; }
    }

    /** The record that holds the key, read together with the store clock. */
    public static final class Existing {
        private final Record record;
        private final long now;

        public Existing(Record record, long now) {
            this.record = record;
            this.now = now;
        }

        public Record record() { return record; }
        public long now() { return now; }

        public long retryAfterMs() {
            return Math.max(0, (record.lockedUntil() == null ? 0 : record.lockedUntil()) - now);
        }
    }

    /** Either this caller holds the key, or the record that holds it. */
    public static final class ClaimResult {
        private final Claimed claimed;
        private final Existing existing;

        public ClaimResult(Claimed claimed, Existing existing) {
            this.claimed = claimed;
            this.existing = existing;
        }

        public Claimed claimed() { return claimed; }
        public Existing existing() { return existing; }
    }

    /**
     * The runtime's store contract: each method one atomic operation, every time comparison on the
     * store clock, every write after the claim fenced by the lock version (false = lost).
     */
    public interface Store {
        ClaimResult claim(ClaimInput input) throws Exception;
        boolean complete(String key, String scope, long lockVersion, Response response, long ttlMs) throws Exception;
        boolean fail(String key, String scope, long lockVersion, Response response, long ttlMs) throws Exception;
        boolean release(String key, String scope, long lockVersion) throws Exception;
        boolean extend(String key, String scope, long lockVersion, long leaseMs) throws Exception;
        Record get(String key, String scope) throws Exception;
        boolean forceRelease(String key, String scope) throws Exception;
        long purgeExpired(int batchSize) throws Exception;
        List<Record> listStuck(long olderThanMs, int limit) throws Exception;
    }

    /** A fresh result, a replay, or a problem. body is JSON text; problemCode is set on refusals. */
    public static final class Answer {
        private final int status;
        private final String body;
        private final boolean replayed;
        private final long retryAfterSeconds;
        private final String problemCode;

        public Answer(int status, String body, boolean replayed, long retryAfterSeconds, String problemCode) {
            this.status = status;
            this.body = body;
            this.replayed = replayed;
            this.retryAfterSeconds = retryAfterSeconds;
            this.problemCode = problemCode;
        }

        public int status() { return status; }
        public String body() { return body; }
        public boolean replayed() { return replayed; }
        public long retryAfterSeconds() { return retryAfterSeconds; }
        public String problemCode() { return problemCode; }
    }

    /** What an action returns: status and JSON body. */
    public static final class Result {
        private final int status;
        private final String body;

        public Result(int status, String body) {
            this.status = status;
            this.body = body;
        }

        public int status() { return status; }
        public String body() { return body; }
    }

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

    /** The runtime's problem+json answer for a refusal code; its text never echoes the request. */
    @SuppressWarnings("unchecked")
    public static Answer problem(String code, long retryAfterMs) {
        Map<String, Object> spec = (Map<String, Object>) Project.section("problems").get(code);
        long status = spec == null ? 500 : ((Number) spec.get("status")).longValue();
        String title = spec == null ? "Unexpected idempotency problem." : (String) spec.get("title");
        String body = Fingerprint.canonicalJson(Map.of("type", Project.text("problemTypeBase") + code, "title", title, "status", status, "code", code));
        // Whole seconds, rounded up and never 0: 0 invites a hot retry loop.
        long retryAfterSeconds = retryAfterMs > 0 ? (retryAfterMs + 999) / 1000 : 0;
        return new Answer((int) status, body, false, retryAfterSeconds, code);
    }

    static Answer failure(PermanentException e) {
        String body = Fingerprint.canonicalJson(Map.of("type", "about:blank", "title", String.valueOf(e.getMessage()), "status", (long) e.status()));
        return new Answer(e.status(), body, false, 0, "failed");
    }

    /** How the engine stores an answer: its status and JSON body. */
    static Response jsonResponse(int status, String body) {
        return new Response(status, null, "json", body.getBytes(StandardCharsets.UTF_8));
    }

    /** The client's Idempotency-Key, a UUID (lower-cased) or a ULID; a problem Answer otherwise. */
    public static Object validateIntent(String header) {
        if (header == null || header.isEmpty()) return problem("key_required", 0);
        if (UUID_PATTERN.matcher(header).matches()) return header.toLowerCase(Locale.ROOT);
        if (ULID_PATTERN.matcher(header).matches()) return header;
        return problem("invalid_key", 0);
    }

    /** Claims the key, or answers the duplicate: replay, in progress, or fingerprint mismatch. */
    public Object begin(String action, String intent, String scope, String fingerprint) throws Exception {
        String key = action + "_" + intent;
        if (!KEY.matcher(key).matches()) return problem("invalid_key", 0);
        Policy policy = Policy.of(action);
        ClaimResult result = store.claim(new ClaimInput(key, scope, fingerprint, null, policy.leaseMs(), policy.ttlMs(), true));
        if (result.claimed() != null) return result.claimed();
        Record record = result.existing().record();
        // Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
        if (!MessageDigest.isEqual(record.fingerprint().getBytes(StandardCharsets.UTF_8), fingerprint.getBytes(StandardCharsets.UTF_8))) {
            return problem("fingerprint_mismatch", 0);
        }
        if ((record.status().equals("COMPLETED") || record.status().equals("FAILED")) && record.response() != null) {
            Response response = record.response();
            int status = response.statusCode() == null ? 200 : response.statusCode();
            return new Answer(status, new String(response.body(), StandardCharsets.UTF_8), true, 0, null);
        }
        return problem("in_progress", Math.max(1, result.existing().retryAfterMs()));
    }

    /** The whole flow: claim, run once (with a heartbeat), store, or answer the duplicate. */
    public Answer run(String action, String intent, String scope, String fingerprint, Action execute) throws Exception {
        Object begun = begin(action, intent, scope, fingerprint);
        if (begun instanceof Answer) return (Answer) begun;
        Claimed claimed = (Claimed) begun;
        Policy policy = Policy.of(action);
        AtomicBoolean lost = new AtomicBoolean(false);
        long every = Math.max(1, policy.leaseMs() / 3);
        ScheduledFuture<?> beat = heartbeats.scheduleAtFixedRate(() -> {
            try {
                if (!store.extend(claimed.key(), claimed.scope(), claimed.lockVersion(), policy.leaseMs())) lost.set(true);
            } catch (Exception ignored) {
                // a failed beat is retried at the next tick; the lease itself is the safety net
            }
        }, every, every, TimeUnit.MILLISECONDS);
        Result result;
        try {
            result = execute.execute();
        } catch (PermanentException e) {
            beat.cancel(false);
            Answer failed = failure(e);
            if (!store.fail(claimed.key(), claimed.scope(), claimed.lockVersion(), jsonResponse(failed.status(), failed.body()), policy.ttlMs())) {
                return problem("lease_lost", 1000);
            }
            return failed;
        } catch (Exception e) {
            beat.cancel(false);
            store.release(claimed.key(), claimed.scope(), claimed.lockVersion()); // transient: the same key may run again at once
            throw e;
        }
        beat.cancel(false);
        // A newer attempt holds the key: never overwrite it (409, like the runtime's adapters).
        if (lost.get()) return problem("lease_lost", 1000);
        if (result.status() >= 500) {
            store.release(claimed.key(), claimed.scope(), claimed.lockVersion());
            return new Answer(result.status(), result.body(), false, 0, null);
        }
        if (!store.complete(claimed.key(), claimed.scope(), claimed.lockVersion(), jsonResponse(result.status(), result.body()), policy.ttlMs())) {
            return problem("lease_lost", 1000);
        }
        return new Answer(result.status(), result.body(), false, 0, null);
    }
}
