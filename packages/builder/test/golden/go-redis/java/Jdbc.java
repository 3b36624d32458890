package com.example.idempotency;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the JDBC stores share: one statement of project.json run with named values, rows read back
 * as maps, and driver values (which differ between drivers) read as Java types.
 */
public final class Jdbc {
    /** Where connections come from: a DataSource's getConnection, a pool, DriverManager. */
    @FunctionalInterface
    public interface Connector {
        Connection open() throws SQLException;
    }

    /** What a statement did: its rows (SELECT or RETURNING), else the affected row count. */
    static final class Outcome {
        private final List<Map<String, Object>> rows;
        private final int affected;

        Outcome(List<Map<String, Object>> rows, int affected) {
            this.rows = rows;
            this.affected = affected;
        }

        List<Map<String, Object>> rows() { return rows; }
        int affected() { return affected; }
    }

    private Jdbc() {}

    static Outcome run(Connection connection, String name, Map<String, Object> values) throws SQLException {
        Project.Statement statement = Project.statement(name);
        try (PreparedStatement prepared = connection.prepareStatement(statement.text())) {
            for (int i = 0; i < statement.params().size(); i++) prepared.setObject(i + 1, values.get(statement.params().get(i)));
            if (!prepared.execute()) return new Outcome(List.of(), prepared.getUpdateCount());
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet result = prepared.getResultSet()) {
                ResultSetMetaData meta = result.getMetaData();
                while (result.next()) {
                    Map<String, Object> row = new HashMap<>();
                    for (int c = 1; c <= meta.getColumnCount(); c++) row.put(meta.getColumnLabel(c).toLowerCase(), result.getObject(c));
                    rows.add(row);
                }
            }
            return new Outcome(rows, rows.size());
        }
    }

    /** Runs one statement on its own auto-commit connection. */
    static Outcome run(Connector connector, String name, Map<String, Object> values) throws SQLException {
        try (Connection connection = connector.open()) {
            connection.setAutoCommit(true);
            return run(connection, name, values);
        }
    }

    static Map<String, Object> fenced(String key, String scope, long lockVersion) {
        Map<String, Object> values = new HashMap<>();
        values.put("key", key);
        values.put("scope", scope);
        values.put("lockVersion", lockVersion);
        return values;
    }

    /** A response's columns; status code and headers are NULL when absent. */
    static Map<String, Object> responseValues(Map<String, Object> values, IdempotencyEngine.Response response) {
        values.put("responseCode", response.statusCode());
        values.put("responseHeaders", response.headers() == null ? null : Fingerprint.canonicalJson(response.headers()));
        values.put("responseEncoding", response.encoding());
        values.put("responseBytes", response.body());
        return values;
    }

    /** The runtime's record columns as a Record; times via timeColumn, the body from bodyColumn. */
    @SuppressWarnings("unchecked")
    static IdempotencyEngine.Record record(Map<String, Object> row, java.util.function.UnaryOperator<String> timeColumn, String bodyColumn) {
        IdempotencyEngine.Response response = null;
        if (row.get("response_encoding") != null) {
            Object headers = row.get("response_headers");
            Map<String, String> parsed = headers == null ? null : (Map<String, String>) Json.parse(text(headers));
            Long code = optionalLong(row.get("response_code"));
            response = new IdempotencyEngine.Response(code == null ? null : code.intValue(), parsed, text(row.get("response_encoding")),
                bytes(row.get(bodyColumn)));
        }
        Object owner = row.get("owner_id");
        return new IdempotencyEngine.Record(text(row.get("idempotency_key")), text(row.get("user_id")), owner == null ? null : text(owner),
            text(row.get("fingerprint")), text(row.get("status")), asLong(row.get("lock_version")),
            optionalLong(row.get(timeColumn.apply("locked_until"))), optionalLong(row.get(timeColumn.apply("created_at"))),
            optionalLong(row.get(timeColumn.apply("completed_at"))), asLong(row.get(timeColumn.apply("expires_at"))), response);
    }

    static String text(Object value) {
        if (value == null) return null;
        if (value instanceof byte[]) return new String((byte[]) value, StandardCharsets.UTF_8);
        return value.toString();
    }

    static byte[] bytes(Object value) {
        if (value == null) return new byte[0];
        if (value instanceof byte[]) return (byte[]) value;
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    static Long optionalLong(Object value) {
        return value == null ? null : asLong(value);
    }

    /** Integers, float ms (with a microsecond fraction), booleans and UTC date-times as whole ms. */
    static long asLong(Object value) {
        if (value instanceof Double || value instanceof Float) return (long) Math.floor(((Number) value).doubleValue());
        if (value instanceof Number) return ((Number) value).longValue();
        if (value instanceof Boolean) return (Boolean) value ? 1 : 0;
        // DATETIME(3) in UTC (MySQL): the wall-clock fields as stored, whatever the JVM's zone.
        if (value instanceof Timestamp) return ((Timestamp) value).toLocalDateTime().toInstant(ZoneOffset.UTC).toEpochMilli();
        if (value instanceof LocalDateTime) return ((LocalDateTime) value).toInstant(ZoneOffset.UTC).toEpochMilli();
        if (value instanceof OffsetDateTime) return ((OffsetDateTime) value).toInstant().toEpochMilli();
        if (value == null) return 0;
        return Long.parseLong(value.toString());
    }
}
