package com.example.idempotency;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Idempotency store on SQLite through JDBC (xerial sqlite-jdbc). The statements and the table are
 * the runtime's (project.json): the claim reads the record and the store clock, then runs one
 * compare-and-set upsert, both inside BEGIN IMMEDIATE so no other connection in any process writes
 * in between. Times are integer ms on SQLite's clock. Open connections with a busy timeout.
 */
public final class SqliteIdempotencyStore implements IdempotencyEngine.Store {
    private final Jdbc.Connector connector;

    public SqliteIdempotencyStore(Jdbc.Connector connector) {
        this.connector = connector;
    }

    private static IdempotencyEngine.Record record(Map<String, Object> row) {
        return Jdbc.record(row, column -> column, "response_body");
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(IdempotencyEngine.ClaimInput in) throws SQLException {
        try (Connection connection = connector.open(); Statement control = connection.createStatement()) {
            connection.setAutoCommit(true);
            control.execute("BEGIN IMMEDIATE");
            try {
                Map<String, Object> read = Jdbc.run(connection, "claimRead", Map.of("key", in.key(), "scope", in.scope())).rows().get(0);
                Map<String, Object> values = new HashMap<>(Map.of("key", in.key(), "scope", in.scope(), "fingerprint", in.fingerprint(),
                    "now", read.get("now"), "leaseMs", in.leaseMs(), "ttlMs", in.ttlMs(), "replaceExpired", in.replaceExpired() ? 1 : 0));
                values.put("owner", in.owner());
                List<Map<String, Object>> won = Jdbc.run(connection, "claimUpsert", values).rows();
                control.execute("COMMIT");
                String status = Jdbc.text(read.get("status"));
                if (!won.isEmpty()) {
                    return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(in.key(), in.scope(), Jdbc.asLong(won.get(0).get("lock_version")),
                        "PROCESSING".equals(status), "COMPLETED".equals(status) || "FAILED".equals(status)), null);
                }
                if (status == null) throw new SQLException("idempotency claim neither inserted nor found the record");
                return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(record(read), Jdbc.asLong(read.get("now"))));
            } catch (SQLException | RuntimeException e) {
                try {
                    control.execute("ROLLBACK");
                } catch (SQLException none) {
                    // nothing was open: the COMMIT already ran
                }
                throw e;
            }
        }
    }

    private boolean applied(String name, Map<String, Object> values) throws SQLException {
        return Jdbc.run(connector, name, values).affected() == 1;
    }

    private boolean finish(String status, String key, String scope, long lockVersion, IdempotencyEngine.Response response, long ttlMs) throws SQLException {
        Map<String, Object> values = Jdbc.responseValues(Jdbc.fenced(key, scope, lockVersion), response);
        values.put("status", status);
        values.put("ttlMs", ttlMs);
        values.put("responseBody", response.body());
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
        return Jdbc.run(connector, "purgeExpired", Map.of("batchSize", batchSize)).affected();
    }

    @Override
    public List<IdempotencyEngine.Record> listStuck(long olderThanMs, int limit) throws SQLException {
        List<IdempotencyEngine.Record> out = new ArrayList<>();
        for (Map<String, Object> row : Jdbc.run(connector, "listStuck", Map.of("olderThanMs", olderThanMs, "limit", limit)).rows()) out.add(record(row));
        return out;
    }
}
