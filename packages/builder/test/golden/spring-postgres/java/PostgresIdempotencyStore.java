package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Idempotency store on PostgreSQL through JDBC. The statements are the runtime's own (project.json):
 * one statement per operation, the clock is clock_timestamp(), and the table is the runtime's, so
 * TypeScript services can share it. The table name is unqualified: the connection's search path
 * (currentSchema) picks the schema. Each call uses its own auto-commit connection.
 */
public final class PostgresIdempotencyStore implements IdempotencyEngine.Store {
    private final Jdbc.Connector connector;

    /** new PostgresIdempotencyStore(dataSource::getConnection) */
    public PostgresIdempotencyStore(Jdbc.Connector connector) {
        this.connector = connector;
    }

    private static IdempotencyEngine.Record record(Map<String, Object> row) {
        return Jdbc.record(row, column -> column + "_ms", "response_bytes");
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) throws SQLException {
        Map<String, Object> values = new java.util.HashMap<>(Map.of("key", in.key(), "scope", in.scope(), "fingerprint", in.fingerprint(),
            "leaseMs", in.leaseMs(), "ttlMs", in.ttlMs(), "replaceExpired", in.replaceExpired()));
        values.put("owner", in.owner());
        for (int attempt = 0; attempt < 8; attempt++) {
            List<Map<String, Object>> rows = Jdbc.run(connector, "claim", values).rows();
            if (rows.isEmpty()) continue; // a concurrent claim committed after this statement's snapshot: run it again
            Map<String, Object> row = rows.get(0);
            if ("claimed".equals(Jdbc.text(row.get("outcome")))) {
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), Jdbc.asLong(row.get("lock_version")),
                    Jdbc.asLong(row.get("reclaimed")) == 1, Jdbc.asLong(row.get("replaced")) == 1), null);
            }
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(record(row), Jdbc.asLong(row.get("now_ms"))));
        }
        throw new SQLException("idempotency claim did not settle after 8 attempts");
    }

    private boolean applied(String name, Map<String, Object> values) throws SQLException {
        return Jdbc.run(connector, name, values).rows().size() == 1;
    }

    private boolean finish(String status, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        Map<String, Object> values = Jdbc.responseValues(Jdbc.fenced(key, scope, lockVersion), response);
        values.put("status", status);
        values.put("ttlMs", ttlMs);
        String readable = null;
        if ("json".equals(response.encoding())) {
            try {
                String text = new String(response.body(), StandardCharsets.UTF_8);
                Json.parse(text);
                readable = text; // the spec's readable JSONB copy
            } catch (RuntimeException notJson) {
                readable = null;
            }
        }
        values.put("responseBody", readable);
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
        values.put("leaseMs", leaseMs);
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

    @Override
    public long purgeExpired(int batchSize) throws SQLException {
        List<Map<String, Object>> rows = Jdbc.run(connector, "purgeExpired", Map.of("batchSize", batchSize)).rows();
        return rows.isEmpty() ? 0 : Jdbc.asLong(rows.get(0).get("purged"));
    }

    @Override
    public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) throws SQLException {
        List<IdempotencyEngine.Record> out = new ArrayList<>();
        for (Map<String, Object> row : Jdbc.run(connector, "listStuck", Map.of("olderThanMs", olderThanMs, "limit", limit)).rows()) out.add(record(row));
        return out;
    }
}
