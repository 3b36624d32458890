/**
 * Generated Java stores: JDBC (PostgreSQL, MySQL/MariaDB, SQLite) with the queries file's
 * statements, and Redis through a one-method Eval port with the Lua scripts. JDK only.
 */
import type { Plan } from '../../design/plan/plan.js';
import { redisScripts } from '../ddl/redis.js';
import { sqlStatementsFor } from '../ddl/index.js';
import { toQuestion } from '../sql/statements.js';
import { JAVA_PACKAGE } from './core.js';

const textBlock = (text: string) => `"""\n${text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"""')}"""`;
const constantName = (name: string) => name.toUpperCase();

/**
 * The store class for the plan's database.
 * @example storeJava(plan).file // 'JdbcIdempotencyStore.java'
 */
export function storeJava(plan: Plan): { file: string; content: string } {
  if (plan.stack.store === 'redis') return { file: 'RedisIdempotencyStore.java', content: redisJava() };
  return { file: 'JdbcIdempotencyStore.java', content: jdbcJava(plan) };
}

function jdbcJava(plan: Plan): string {
  const store = plan.stack.store === 'mysql' || plan.stack.store === 'sqlite' ? plan.stack.store : 'postgresql';
  const statements = sqlStatementsFor(store, plan.table, false).filter((s) => s.name !== 'claim');
  const constants = statements
    .map((s) => {
      const rendered = toQuestion(s.sql);
      const returns = /\bRETURNING\b/.test(s.sql) || /^\s*SELECT/i.test(s.sql);
      return `    /** ${s.purpose.replace(/\*\//g, '*\u2215')} */\n    static final Statement ${constantName(s.name)} = new Statement(${returns}, List.of(${rendered.params.map((p) => JSON.stringify(p)).join(', ')}), ${textBlock(rendered.text)});`;
    })
    .join('\n\n');
  return `package ${JAVA_PACKAGE};

import java.security.MessageDigest;
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
import javax.sql.DataSource;

/**
 * Idempotency store on ${plan.stack.storeName} through JDBC. The statements are the queries file's;
 * every time comparison happens in the database. Each call uses its own auto-commit connection.
 */
public final class JdbcIdempotencyStore implements IdempotencyEngine.Store {
    record Statement(boolean returns, List<String> params, String text) {}

${constants}

    private final DataSource dataSource;

    public JdbcIdempotencyStore(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    private record Outcome(List<Map<String, Object>> rows, int affected) {
        boolean applied(Statement statement) {
            return statement.returns() ? !rows.isEmpty() : affected == 1;
        }
    }

    private Outcome run(Statement statement, Map<String, Object> values) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement prepared = connection.prepareStatement(statement.text())) {
            connection.setAutoCommit(true);
            for (int i = 0; i < statement.params().size(); i++) prepared.setObject(i + 1, values.get(statement.params().get(i)));
            if (!statement.returns()) {
                int affected = prepared.executeUpdate();
                if (affected != 1 || !statement.text().contains("LAST_INSERT_ID(")) return new Outcome(List.of(), affected);
                // MySQL/MariaDB have no RETURNING: the claim statements set LAST_INSERT_ID(new lock_version),
                // which this connection (and only it) reads back.
                try (PreparedStatement last = connection.prepareStatement("SELECT LAST_INSERT_ID() AS lock_version");
                     ResultSet id = last.executeQuery()) {
                    id.next();
                    return new Outcome(List.of(Map.of("lock_version", id.getLong(1))), affected);
                }
            }
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet result = prepared.executeQuery()) {
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

    private static long asLong(Object value) {
        if (value instanceof Number number) return number.longValue();
        if (value instanceof Boolean flag) return flag ? 1 : 0;
        if (value == null) return 0;
        return Long.parseLong(value.toString());
    }

    private static long asMillis(Object value) {
        if (value instanceof Timestamp timestamp) return timestamp.getTime();
        if (value instanceof OffsetDateTime time) return time.toInstant().toEpochMilli();
        if (value instanceof LocalDateTime time) return time.toInstant(ZoneOffset.UTC).toEpochMilli();
        return asLong(value);
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(String key, String scope, String fingerprint, long leaseMs, long ttlMs) throws SQLException {
        Map<String, Object> values = new HashMap<>(Map.of("key", key, "scope", scope, "fingerprint", fingerprint, "lease_ms", leaseMs, "ttl_ms", ttlMs));
        for (int attempt = 0; attempt < 8; attempt++) {
            Outcome inserted = run(CLAIM_INSERT, values);
            if (inserted.applied(CLAIM_INSERT)) {
                // A fresh record's fencing token is the database clock in ms, handed back by the insert.
                return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(key, scope, asLong(inserted.rows().get(0).get("lock_version")), false), null);
            }
            List<Map<String, Object>> found = run(FETCH, values).rows();
            if (found.isEmpty()) continue; // released or purged in between: insert again
            Map<String, Object> record = found.get(0);
            String stored = String.valueOf(record.get("fingerprint"));
            boolean same = MessageDigest.isEqual(stored.getBytes(StandardCharsets.UTF_8), fingerprint.getBytes(StandardCharsets.UTF_8));
            if (asLong(record.get("expired")) == 1 || (asLong(record.get("lease_over")) == 1 && same)) {
                long version = asLong(record.get("lock_version"));
                values.put("lock_version", version);
                // Compare-and-set on the version just read: of many reclaimers exactly one wins.
                // Orphan: version + 1; expired record: max(version + 1, clock ms) — the statement says which.
                Outcome taken = run(RECLAIM, values);
                if (taken.applied(RECLAIM)) {
                    long next = asLong(taken.rows().get(0).get("lock_version"));
                    return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(key, scope, next, asLong(record.get("lease_over")) == 1), null);
                }
                continue;
            }
            long retry = Math.max(0, asMillis(record.get("locked_until")) - asMillis(record.get("db_now")));
            Object body = record.get("response_body");
            return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(String.valueOf(record.get("status")), stored,
                (int) asLong(record.get("response_code")), body == null ? null : body.toString(), retry));
        }
        throw new SQLException("idempotency claim did not settle after 8 attempts");
    }

    private boolean fenced(Statement statement, IdempotencyEngine.Claimed claim, Map<String, Object> extra) throws SQLException {
        Map<String, Object> values = new HashMap<>(extra);
        values.put("key", claim.key());
        values.put("scope", claim.scope());
        values.put("lock_version", claim.lockVersion());
        return run(statement, values).applied(statement);
    }

    @Override
    public boolean finish(IdempotencyEngine.Claimed claim, String status, int code, String body, long ttlMs) throws SQLException {
        Statement statement = status.equals("FAILED") ? FAIL : COMPLETE;
        return fenced(statement, claim, Map.of("response_code", code, "response_body", body, "ttl_ms", ttlMs));
    }

    @Override
    public boolean release(IdempotencyEngine.Claimed claim) throws SQLException {
        return fenced(RELEASE, claim, Map.of());
    }

    @Override
    public boolean extend(IdempotencyEngine.Claimed claim, long leaseMs) throws SQLException {
        return fenced(EXTEND, claim, Map.of("lease_ms", leaseMs));
    }

    /** Deletes up to batchSize expired finished records. */
    public int purgeExpired(int batchSize) throws SQLException {
        return run(new Statement(false, PURGE_EXPIRED.params(), PURGE_EXPIRED.text()), Map.of("batch_size", batchSize)).affected();
    }
}
`;
}

function redisJava(): string {
  const scripts = redisScripts();
  const source = (name: string) => textBlock(`${scripts.find((s) => s.name === name)?.source ?? ''}\n`);
  return `package ${JAVA_PACKAGE};

import java.util.List;

/**
 * Idempotency store on Redis: one Lua script per operation, atomic on the server and timed by the
 * server clock (TIME). One key per record, so it works on Redis Cluster. Plug in your client
 * (Lettuce, Jedis, Spring's RedisTemplate.execute(RedisScript ...)) through Eval.
 */
public final class RedisIdempotencyStore implements IdempotencyEngine.Store {
    @FunctionalInterface
    public interface Eval {
        Object eval(String script, List<String> keys, List<String> args) throws Exception;
    }

    static final String CLAIM = ${source('claim')};

    static final String FINISH = ${source('finish')};

    static final String RELEASE = ${source('release')};

    static final String EXTEND = ${source('extend')};

    private final Eval eval;
    private final String prefix;

    public RedisIdempotencyStore(Eval eval, String prefix) {
        this.eval = eval;
        this.prefix = prefix;
    }

    private String key(String scope, String key) {
        // The scope's length keeps "a:b"+"c" and "a"+"b:c" apart.
        return prefix + ":" + scope.length() + ":" + scope + ":" + key;
    }

    private static String text(Object value) {
        return value instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8) : String.valueOf(value);
    }

    private static long number(Object value) {
        String text = text(value);
        return text.isEmpty() || text.equals("null") ? 0 : Long.parseLong(text);
    }

    @Override
    public IdempotencyEngine.ClaimResult claim(String key, String scope, String fingerprint, long leaseMs, long ttlMs) throws Exception {
        List<?> reply = (List<?>) eval.eval(CLAIM, List.of(key(scope, key)), List.of(fingerprint, Long.toString(leaseMs), Long.toString(ttlMs)));
        if (text(reply.get(0)).equals("claimed")) {
            return new IdempotencyEngine.ClaimResult(new IdempotencyEngine.Claimed(key, scope, number(reply.get(1)), number(reply.get(3)) == 1), null);
        }
        long retry = Math.max(0, number(reply.get(3)) - number(reply.get(8)));
        String body = text(reply.get(7));
        return new IdempotencyEngine.ClaimResult(null, new IdempotencyEngine.Existing(text(reply.get(1)), text(reply.get(5)),
            (int) number(reply.get(6)), body.isEmpty() ? null : body, retry));
    }

    private boolean fenced(String script, IdempotencyEngine.Claimed claim, List<String> args) throws Exception {
        return number(eval.eval(script, List.of(key(claim.scope(), claim.key())), args)) > 0;
    }

    @Override
    public boolean finish(IdempotencyEngine.Claimed claim, String status, int code, String body, long ttlMs) throws Exception {
        return fenced(FINISH, claim, List.of(Long.toString(claim.lockVersion()), status, Integer.toString(code), body, Long.toString(ttlMs)));
    }

    @Override
    public boolean release(IdempotencyEngine.Claimed claim) throws Exception {
        return fenced(RELEASE, claim, List.of(Long.toString(claim.lockVersion())));
    }

    @Override
    public boolean extend(IdempotencyEngine.Claimed claim, long leaseMs) throws Exception {
        return fenced(EXTEND, claim, List.of(Long.toString(claim.lockVersion()), Long.toString(leaseMs)));
    }
}
`;
}
