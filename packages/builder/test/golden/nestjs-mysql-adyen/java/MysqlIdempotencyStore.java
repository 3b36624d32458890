package com.example.idempotency;

import java.security.SecureRandom;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Idempotency store on MySQL 8 / MariaDB 10.11 through JDBC. The table and statements are the
 * runtime's own (project.json, from @idempotency-builder/runtime/contract), so TypeScript services
 * can share the table. The claim is one atomic upsert (INSERT ... ON DUPLICATE KEY UPDATE with the
 * takeover conditions inside) that stamps a random nonce into claim_token when it wins, then a
 * locking read-back of the row: the caller holds the key exactly when the row carries its nonce.
 * Every time is UTC_TIMESTAMP(3) on the server; durations are bound in microseconds.
 */
public final class MysqlIdempotencyStore implements IdempotencyEngine.Store {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final Jdbc.Connector connector;

    public MysqlIdempotencyStore(Jdbc.Connector connector) {
        this.connector = connector;
    }

    private static IdempotencyEngine.Record record(Map<String, Object> row) {
        return Jdbc.record(row, column -> column + "_ms", "response_bytes");
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) throws SQLException {
        for (int attempt = 0; attempt < 8; attempt++) {
            byte[] raw = new byte[16];
            RANDOM.nextBytes(raw);
            String nonce = Fingerprint.hex(raw);
            Map<String, Object> values = new HashMap<>();
            values.put("key", in.key());
            values.put("scope", in.scope());
            values.put("owner", in.owner());
            values.put("fingerprint", in.fingerprint());
            values.put("leaseUs", in.leaseMs() * 1000);
            values.put("ttlUs", in.ttlMs() * 1000);
            values.put("nonce", nonce);
            values.put("replaceExpired", in.replaceExpired() ? 1 : 0);
            Jdbc.run(connector, "claimUpsert", values);
            List<Map<String, Object>> found = Jdbc.run(connector, "claimRead", values).rows();
            if (found.isEmpty()) continue; // a holder released the key between upsert and read-back: claim again
            Map<String, Object> row = found.get(0);
            IdempotencyEngine.Record record = record(row);
            String token = row.get("claim_token") == null ? "" : Jdbc.text(row.get("claim_token"));
            if (token.length() == 33 && token.startsWith(nonce)) {
                // N: new record, R: orphan reclaimed (+1), E: expired record replaced.
                char kind = token.charAt(32);
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), record.lockVersion(), kind == 'R', kind == 'E'), null);
            }
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(record, Jdbc.asLong(row.get("now_ms"))));
        }
        throw new SQLException("idempotency claim did not settle after 8 attempts");
    }

    private boolean applied(String name, Map<String, Object> values) throws SQLException {
        return Jdbc.run(connector, name, values).affected() == 1;
    }

    private boolean finish(String status, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        Map<String, Object> values = Jdbc.fenced(key, scope, lockVersion);
        values.put("status", status);
        values.put("code", response.statusCode());
        values.put("headers", response.headers() == null ? null : Fingerprint.canonicalJson(response.headers()));
        values.put("encoding", response.encoding());
        values.put("bytes", response.body());
        values.put("ttlUs", ttlMs * 1000);
        return applied("finish", values);
    }

    @Override
    public boolean complete(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        return finish("COMPLETED", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean fail(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        return finish("FAILED", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean release(String key, String scope, long lockVersion) throws SQLException {
        return applied("release", Jdbc.fenced(key, scope, lockVersion));
    }

    @Override
    public boolean extend(String key, String scope, long lockVersion, long leaseMs) throws SQLException {
        Map<String, Object> values = Jdbc.fenced(key, scope, lockVersion);
        values.put("leaseUs", leaseMs * 1000);
        return applied("extend", values);
    }

    @Override
    public IdempotencyEngine.Record get(String key, String scope) throws SQLException {
        List<Map<String, Object>> rows = Jdbc.run(connector, "get", Map.of("key", key, "scope", scope)).rows();
        return rows.isEmpty() ? null : record(rows.get(0));
    }

    @Override
    public boolean forceRelease(String key, String scope) throws SQLException {
        return applied("forceRelease", Map.of("key", key, "scope", scope));
    }

    /**
     * A plain (lock-free) read of the candidates, then one primary-key DELETE each that re-checks
     * expiry: a claim that replaced a candidate meanwhile keeps its row, and claims never wait.
     */
    @Override
    public long purgeExpired(int batchSize) throws SQLException {
        long purged = 0;
        for (Map<String, Object> row : Jdbc.run(connector, "purgeCandidates", Map.of("limit", batchSize)).rows()) {
            purged += Jdbc.run(connector, "purgeDelete", Map.of("key0", Jdbc.text(row.get("idempotency_key")), "scope0", Jdbc.text(row.get("user_id")))).affected();
        }
        return purged;
    }

    @Override
    public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) throws SQLException {
        List<IdempotencyEngine.Record> out = new ArrayList<>();
        for (Map<String, Object> row : Jdbc.run(connector, "listStuck", Map.of("olderUs", olderThanMs * 1000, "limit", limit)).rows()) out.add(record(row));
        return out;
    }
}
