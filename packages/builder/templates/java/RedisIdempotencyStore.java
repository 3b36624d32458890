package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Idempotency store on Redis: the runtime's Lua scripts (project.json), one per operation, atomic
 * on the server and timed by the server clock (TIME). The key layout is the runtime's, so every key
 * of one record shares a Redis Cluster hash slot and TypeScript services can share the store. A
 * PROCESSING record never gets a Redis expiry: only complete/fail set one. Plug in any client
 * through Commands (RespClient is a JDK-only one).
 */
public final class RedisIdempotencyStore implements IdempotencyEngine.Store {
    /** Sends one command; replies as byte[] or String (strings), Long, List (arrays) or null. */
    @FunctionalInterface
    public interface Commands {
        Object call(Object... args) throws Exception;
    }

    private static final String[] FIELDS = {"k", "sp", "o", "fp", "s", "v", "lu", "ca", "cpa", "ea", "sc", "hd", "en", "b"};

    private final Commands redis;
    private final String prefix;
    private final long keepExpiredMs = Project.number("keepExpiredMs");

    public RedisIdempotencyStore(Commands redis, String prefix) {
        this.redis = redis;
        this.prefix = prefix == null ? Project.text("keyPrefix") : prefix;
    }

    /** The record hash and its fence, tagged {scope|key} with "%", "{", "}", "|" escaped in the scope. */
    private String[] keys(String scope, String key) {
        String escaped = scope.replace("%", "%25").replace("{", "%7B").replace("}", "%7D").replace("|", "%7C");
        String tag = "{" + escaped + "|" + key + "}";
        return new String[] {prefix + "r:" + tag, prefix + "f:" + tag};
    }

    private Object eval(String name, List<String> keys, Object... args) throws Exception {
        Object[] command = new Object[3 + keys.size() + args.length];
        command[0] = "EVAL";
        command[1] = Project.script(name);
        command[2] = keys.size();
        for (int i = 0; i < keys.size(); i++) command[3 + i] = keys.get(i);
        System.arraycopy(args, 0, command, 3 + keys.size(), args.length);
        return redis.call(command);
    }

    private static String text(Object value) {
        if (value == null) return null;
        return value instanceof byte[] ? new String((byte[]) value, StandardCharsets.UTF_8) : value.toString();
    }

    private static Long number(Object value) {
        String text = text(value);
        return text == null || text.isEmpty() ? null : Long.parseLong(text);
    }

    @SuppressWarnings("unchecked")
    private static IdempotencyEngine.Record record(List<Object> values) {
        if (values == null || values.size() < FIELDS.length || values.get(4) == null) return null;
        IdempotencyEngine.Response response = null;
        if (values.get(12) != null) {
            String headers = text(values.get(11));
            Long code = number(values.get(10));
            Object body = values.get(13);
            response = new IdempotencyEngine.Response(code == null ? null : code.intValue(),
                headers == null ? null : (Map<String, String>) Json.parse(headers), text(values.get(12)),
                body instanceof byte[] ? (byte[]) body : body == null ? new byte[0] : text(body).getBytes(StandardCharsets.UTF_8));
        }
        return new IdempotencyEngine.Record(text(values.get(0)), text(values.get(1)), text(values.get(2)), text(values.get(3)), text(values.get(4)),
            number(values.get(5)), number(values.get(6)), number(values.get(7)), number(values.get(8)), number(values.get(9)), response);
    }

    @Override
    @SuppressWarnings("unchecked")
    public IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) throws Exception {
        String[] keys = keys(in.scope(), in.key());
        // ARGV: fingerprint, has owner, owner, leaseMs, ttlMs, replace an expired record, key, scope.
        List<Object> reply = (List<Object>) eval("claim", List.of(keys), in.fingerprint(), in.owner() == null ? "0" : "1",
            in.owner() == null ? "" : in.owner(), in.leaseMs(), in.ttlMs(), in.replaceExpired() ? "1" : "0", in.key(), in.scope());
        if ("claimed".equals(text(reply.get(0)))) {
            return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), number(reply.get(1)),
                number(reply.get(2)) == 1, number(reply.get(3)) == 1), null);
        }
        IdempotencyEngine.Record record = record((List<Object>) reply.get(2));
        if (!"existing".equals(text(reply.get(0))) || record == null) throw new IllegalStateException("unexpected claim reply " + reply);
        return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(record, number(reply.get(1))));
    }

    private boolean applied(Object reply) {
        return "applied".equals(text(reply));
    }

    private boolean finish(String name, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws Exception {
        String code = response.statusCode() == null ? "" : response.statusCode().toString();
        String headers = response.headers() == null ? "" : Fingerprint.canonicalJson(response.headers());
        // ARGV: lockVersion, ttlMs, keepExpiredMs, encoding, body, status code, headers.
        return applied(eval(name, List.of(keys(scope, key)[0]), lockVersion, ttlMs, keepExpiredMs, response.encoding(), response.body(), code, headers));
    }

    @Override
    public boolean complete(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws Exception {
        return finish("complete", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean fail(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws Exception {
        return finish("fail", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean release(String key, String scope, long lockVersion) throws Exception {
        return applied(eval("release", List.of(keys(scope, key)), lockVersion, keepExpiredMs));
    }

    @Override
    public boolean extend(String key, String scope, long lockVersion, long leaseMs) throws Exception {
        return applied(eval("extend", List.of(keys(scope, key)[0]), lockVersion, leaseMs));
    }

    @SuppressWarnings("unchecked")
    private IdempotencyEngine.Record read(String hash) throws Exception {
        Object[] command = new Object[2 + FIELDS.length];
        command[0] = "HMGET";
        command[1] = hash;
        System.arraycopy(FIELDS, 0, command, 2, FIELDS.length);
        return record((List<Object>) redis.call(command));
    }

    @Override
    public IdempotencyEngine.Record get(String key, String scope) throws Exception {
        return read(keys(scope, key)[0]);
    }

    @Override
    public boolean forceRelease(String key, String scope) throws Exception {
        return applied(eval("forceRelease", List.of(keys(scope, key)[0])));
    }

    /** Every record hash of this prefix (SCAN, never KEYS: it does not block the server). */
    @SuppressWarnings("unchecked")
    private List<String> records() throws Exception {
        StringBuilder pattern = new StringBuilder();
        for (char c : prefix.toCharArray()) pattern.append("*?[]\\".indexOf(c) >= 0 ? "\\" + c : String.valueOf(c));
        pattern.append("r:{*");
        List<String> out = new ArrayList<>();
        String cursor = "0";
        do {
            List<Object> reply = (List<Object>) redis.call("SCAN", cursor, "MATCH", pattern.toString(), "COUNT", 200);
            cursor = text(reply.get(0));
            for (Object key : (List<Object>) reply.get(1)) out.add(text(key));
        } while (!"0".equals(cursor));
        return out;
    }

    /** Deletes expired finished records early (purge.lua per record); Redis also drops them itself. */
    @Override
    public long purgeExpired(int batchSize) throws Exception {
        long purged = 0;
        for (String hash : records()) {
            if (purged >= batchSize) break;
            if ("purged".equals(text(eval("purge", List.of(hash))))) purged++;
        }
        return purged;
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) throws Exception {
        List<Object> time = (List<Object>) redis.call("TIME");
        long now = number(time.get(0)) * 1000 + number(time.get(1)) / 1000;
        List<IdempotencyEngine.Record> stuck = new ArrayList<>();
        for (String hash : records()) {
            IdempotencyEngine.Record record = read(hash);
            if (record != null && record.status().equals("PROCESSING") && record.lockedUntil() != null && record.lockedUntil() <= now - olderThanMs) {
                stuck.add(record);
            }
        }
        stuck.sort(Comparator.comparingLong(IdempotencyEngine.Record::lockedUntil));
        return stuck.size() > limit ? stuck.subList(0, limit) : stuck;
    }
}
