package com.example.idempotency;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Idempotency store on MySQL 8 / MariaDB 10.5+ through JDBC. MySQL has no INSERT ... RETURNING: a
 * claim inserts if absent, else reads the record with the server's verdicts and takes it over with
 * one compare-and-set; the new fencing token is the statement's LAST_INSERT_ID(expr), read back on
 * the same connection. Every time comparison uses UTC_TIMESTAMP(3) on the server. The table keeps
 * the spec's columns: no owner, no response headers, and the body as JSON (encoding "json").
 */
public final class MysqlIdempotencyStore implements IdempotencyEngine.Store {
    private final Jdbc.Connector connector;

    public MysqlIdempotencyStore(Jdbc.Connector connector) {
        this.connector = connector;
    }

    private static IdempotencyEngine.Record record(Map<String, Object> row) {
        Object body = row.get("response_body");
        IdempotencyEngine.Response response = body == null ? null
            : new IdempotencyEngine.Response((int) Jdbc.asLong(row.get("response_code")), null, "json", Jdbc.bytes(body));
        return new IdempotencyEngine.Record(Jdbc.text(row.get("idempotency_key")), Jdbc.text(row.get("user_id")), null,
            Jdbc.text(row.get("fingerprint")), Jdbc.text(row.get("status")), Jdbc.asLong(row.get("lock_version")),
            Jdbc.optionalLong(row.get("locked_until")), Jdbc.optionalLong(row.get("created_at")), Jdbc.optionalLong(row.get("completed_at")),
            Jdbc.asLong(row.get("expires_at")), response);
    }

    /** Runs a claim statement; the new lock version when it changed one row, else null. */
    private Long claimStatement(String name, Map<String, Object> values) throws SQLException {
        try (Connection connection = connector.open()) {
            connection.setAutoCommit(true);
            if (Jdbc.run(connection, name, values).affected() != 1) return null;
            try (PreparedStatement last = connection.prepareStatement("SELECT LAST_INSERT_ID()"); ResultSet id = last.executeQuery()) {
                id.next();
                return id.getLong(1);
            }
        }
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) throws SQLException {
        Map<String, Object> values = new HashMap<>(Map.of("key", in.key(), "scope", in.scope(), "fingerprint", in.fingerprint(),
            "leaseMs", in.leaseMs(), "ttlMs", in.ttlMs()));
        for (int attempt = 0; attempt < 8; attempt++) {
            Long fresh = claimStatement("claimInsert", values);
            if (fresh != null) {
                // A fresh record's fencing token is the server clock in ms.
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), fresh, false, false), null);
            }
            List<Map<String, Object>> found = Jdbc.run(connector, "fetch", values).rows();
            if (found.isEmpty()) continue; // released or purged in between: insert again
            Map<String, Object> row = found.get(0);
            boolean same = MessageDigest.isEqual(Jdbc.text(row.get("fingerprint")).getBytes(StandardCharsets.UTF_8), in.fingerprint().getBytes(StandardCharsets.UTF_8));
            boolean orphan = Jdbc.asLong(row.get("lease_over")) == 1 && same && in.owner() == null;
            boolean expired = Jdbc.asLong(row.get("expired")) == 1 && in.replaceExpired();
            if (orphan || expired) {
                // Compare-and-set on the version just read: of many reclaimers exactly one wins.
                values.put("lockVersion", Jdbc.asLong(row.get("lock_version")));
                Long next = claimStatement("reclaim", values);
                if (next != null) {
                    return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), next, orphan, !orphan), null);
                }
                continue;
            }
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(record(row), Jdbc.asLong(row.get("db_now"))));
        }
        throw new SQLException("idempotency claim did not settle after 8 attempts");
    }

    private boolean applied(String name, Map<String, Object> values) throws SQLException {
        return Jdbc.run(connector, name, values).affected() == 1;
    }

    private boolean finish(String name, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        Map<String, Object> values = Jdbc.fenced(key, scope, lockVersion);
        values.put("responseCode", response.statusCode());
        values.put("responseBody", new String(response.body(), StandardCharsets.UTF_8));
        values.put("ttlMs", ttlMs);
        return applied(name, values);
    }

    @Override
    public boolean complete(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        return finish("complete", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean fail(String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        return finish("fail", key, scope, lockVersion, response, ttlMs);
    }

    @Override
    public boolean release(String key, String scope, long lockVersion) throws SQLException {
        return applied("release", Jdbc.fenced(key, scope, lockVersion));
    }

    @Override
    public boolean extend(String key, String scope, long lockVersion, long leaseMs) throws SQLException {
        Map<String, Object> values = Jdbc.fenced(key, scope, lockVersion);
        values.put("leaseMs", leaseMs);
        return applied("extend", values);
    }

    @Override
    public IdempotencyEngine.Record get(String key, String scope) throws SQLException {
        List<Map<String, Object>> rows = Jdbc.run(connector, "fetch", Map.of("key", key, "scope", scope)).rows();
        return rows.isEmpty() ? null : record(rows.get(0));
    }

    @Override
    public boolean forceRelease(String key, String scope) throws SQLException {
        return applied("forceRelease", Map.of("key", key, "scope", scope));
    }

    @Override
    public long purgeExpired(int batchSize) throws SQLException {
        return Jdbc.run(connector, "purgeExpired", Map.of("batchSize", batchSize)).affected();
    }

    @Override
    public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) throws SQLException {
        List<IdempotencyEngine.Record> out = new ArrayList<>();
        for (Map<String, Object> row : Jdbc.run(connector, "listStuck", Map.of("olderThanMs", olderThanMs, "limit", limit)).rows()) out.add(record(row));
        return out;
    }
}
