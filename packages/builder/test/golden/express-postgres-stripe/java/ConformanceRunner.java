package com.example.idempotency;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * The runtime's shared store conformance scenarios (packages/runtime/conformance/scenarios.json),
 * run against this package's store on a real server (the JDBC driver on the class path):
 *
 * <pre>java com.example.idempotency.ConformanceRunner scenarios.json postgresql "jdbc:postgresql://127.0.0.1/test?user=postgres&amp;currentSchema=idem_{n}"</pre>
 *
 * The target's "{n}" stands for the scenario's index, so every scenario runs on a fresh, empty
 * store (its own schema, database, file or key prefix). Prints PASS/FAIL per scenario.
 */
@SuppressWarnings("unchecked")
public final class ConformanceRunner {
    private final Map<String, Object> data;
    private final Map<String, Object> defaults;
    private final IdempotencyEngine.Store store;
    private final String prefix;
    private final Map<String, Long> tokens = new ConcurrentHashMap<>();

    private ConformanceRunner(Map<String, Object> data, IdempotencyEngine.Store store, String prefix) {
        this.data = data;
        this.defaults = (Map<String, Object>) data.get("defaults");
        this.store = store;
        this.prefix = prefix;
    }

    /**
     * This project's store on the target. By class name: a project holds only its own store class
     * (and only the Redis one has RespClient), so the runner compiles for every store.
     */
    static IdempotencyEngine.Store open(String kind, String target) throws Exception {
        String name = Map.of("postgresql", "PostgresIdempotencyStore", "mysql", "MysqlIdempotencyStore",
            "sqlite", "SqliteIdempotencyStore", "redis", "RedisIdempotencyStore").get(kind);
        Class<?> type = Class.forName(ConformanceRunner.class.getPackageName() + "." + name);
        if (kind.equals("redis")) {
            String[] parts = target.split("/", 2); // host:port/prefix
            String[] address = parts[0].split(":");
            Object client = Class.forName(ConformanceRunner.class.getPackageName() + ".RespClient")
                .getConstructor(String.class, int.class, int.class).newInstance(address[0], Integer.parseInt(address[1]), 10_000);
            return (IdempotencyEngine.Store) type.getConstructors()[0].newInstance(client, parts[1]);
        }
        Properties properties = new Properties();
        if (kind.equals("sqlite")) properties.setProperty("busy_timeout", "10000");
        // The store's Connector interface, implemented by a proxy: a Redis project has no JDBC classes.
        Constructor<?> constructor = type.getConstructors()[0];
        Class<?> connectorType = constructor.getParameterTypes()[0];
        Deque<Connection> idle = new ConcurrentLinkedDeque<>();
        POOLS.add(idle);
        Object connector = Proxy.newProxyInstance(connectorType.getClassLoader(), new Class<?>[] {connectorType},
            (proxy, method, methodArgs) -> pooled(idle, target, properties));
        return (IdempotencyEngine.Store) constructor.newInstance(connector);
    }

    /** Every scenario's idle connections, closed when the scenario ends. */
    private static final List<Deque<Connection>> POOLS = new ArrayList<>();

    private static void closePools() {
        for (Deque<Connection> idle : POOLS) {
            for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
                try {
                    connection.close();
                } catch (Exception ignored) {
                    // closing a connection the server already dropped
                }
            }
        }
        POOLS.clear();
    }

    /** A connection from the idle ones (or a new one) whose close() gives it back: fewer connects. */
    private static Connection pooled(Deque<Connection> idle, String target, Properties properties) throws Exception {
        Connection real = idle.poll();
        Connection connection = real != null ? real : DriverManager.getConnection(target, properties);
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, methodArgs) -> {
            if (method.getName().equals("close")) {
                idle.push(connection);
                return null;
            }
            try {
                return method.invoke(connection, methodArgs);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    public static void main(String[] args) throws Exception {
        Map<String, Object> data = (Map<String, Object>) Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8));
        String runId = "java" + (System.nanoTime() % 1_000_000_000L);
        int failed = 0;
        List<Object> scenarios = (List<Object>) data.get("scenarios");
        for (int index = 0; index < scenarios.size(); index++) {
            Map<String, Object> scenario = (Map<String, Object>) scenarios.get(index);
            String name = (String) scenario.get("name");
            ConformanceRunner run = new ConformanceRunner(data, open(args[1], args[2].replace("{n}", Integer.toString(index))), runId + "_" + name + "_");
            List<Object> steps = (List<Object>) scenario.get("steps");
            try {
                for (int i = 0; i < steps.size(); i++) {
                    Map<String, Object> step = (Map<String, Object>) steps.get(i);
                    try {
                        run.step(step);
                    } catch (AssertionError e) {
                        throw new AssertionError("step " + (i + 1) + " (" + step.get("op") + "): " + e.getMessage());
                    }
                }
                System.out.println("PASS " + name);
            } catch (Throwable e) {
                failed++;
                System.out.println("FAIL " + name + ": " + e);
            }
            closePools();
        }
        System.out.flush();
        System.exit(failed == 0 ? 0 : 1);
    }

    private Object value(Map<String, Object> step, String name) {
        return step.containsKey(name) ? step.get(name) : defaults.get(name);
    }

    private long number(Map<String, Object> step, String name) {
        return ((Number) value(step, name)).longValue();
    }

    private String key(Object name) {
        return prefix + name;
    }

    private String fingerprint(Object name) {
        return (String) ((Map<String, Object>) data.get("fingerprints")).get(name);
    }

    private IdempotencyEngine.Response response(Object name) {
        Map<String, Object> spec = (Map<String, Object>) ((Map<String, Object>) data.get("responses")).get(name);
        Map<String, Object> body = (Map<String, Object>) spec.get("body");
        byte[] raw;
        if (body.containsKey("pattern")) {
            raw = new byte[((Number) body.get("pattern")).intValue()];
            for (int i = 0; i < raw.length; i++) raw[i] = (byte) (i % 256);
        } else {
            raw = ((String) body.get("text")).getBytes(StandardCharsets.UTF_8);
        }
        Number code = (Number) spec.get("statusCode");
        return new IdempotencyEngine.Response(code == null ? null : code.intValue(), (Map<String, String>) spec.get("headers"), (String) spec.get("encoding"), raw);
    }

    private IdempotencyEngine.ClaimResult claim(Map<String, Object> step, String key) throws Exception {
        return store.claim(new IdempotencyEngine.ClaimInput(key(key), (String) value(step, "scope"), fingerprint(value(step, "fingerprint")),
            (String) value(step, "owner"), number(step, "leaseMs"), number(step, "ttlMs"), Boolean.TRUE.equals(value(step, "replaceExpired"))));
    }

    private long token(Map<String, Object> step) {
        return tokens.get((String) step.get("lockVersion"));
    }

    private static void check(Object got, Object want, String what) {
        if (!Objects.equals(normal(got), normal(want))) throw new AssertionError(what + ": want " + want + ", got " + got);
    }

    private static Object normal(Object value) {
        return value instanceof Number ? (Object) ((Number) value).longValue() : value;
    }

    private void step(Map<String, Object> step) throws Exception {
        String op = (String) step.get("op");
        Object expect = step.get("expect");
        String key = (String) step.getOrDefault("key", "");
        String scope = (String) value(step, "scope");
        switch (op) {
            case "sleep": Thread.sleep(number(step, "ms") + (Boolean.TRUE.equals(step.get("plusLease")) ? ((Number) defaults.get("leaseMs")).longValue() : 0)); break;
            case "parallel": {
                List<Object> subs = (List<Object>) step.get("steps");
                parallel(subs.stream().map(sub -> (Task) () -> {
                    step((Map<String, Object>) sub);
                    return null;
                }).collect(Collectors.toList()));
                break;
            }
            case "claim": {
                if (step.containsKey("concurrency")) {
                    concurrent(step);
                    return;
                }
                IdempotencyEngine.ClaimResult result = claim(step, key);
                if (result.claimed() != null && step.containsKey("as")) tokens.put((String) step.get("as"), result.claimed().lockVersion());
                checkClaim((Map<String, Object>) expect, result);
                break;
            }
            case "complete": check(store.complete(key(key), scope, token(step), response(step.get("response")), number(step, "ttlMs")) ? "applied" : "lost", expect, op); break;
            case "fail": check(store.fail(key(key), scope, token(step), response(step.get("response")), number(step, "ttlMs")) ? "applied" : "lost", expect, op); break;
            case "release": check(store.release(key(key), scope, token(step)) ? "applied" : "lost", expect, op); break;
            case "extend": check(store.extend(key(key), scope, token(step), number(step, "leaseMs")) ? "applied" : "lost", expect, op); break;
            case "get": {
                IdempotencyEngine.Record record = store.get(key(key), scope);
                Object want = ((Map<String, Object>) expect).get("record");
                if (want == null || record == null) check(record == null, want == null, "record is absent");
                else checkRecord((Map<String, Object>) want, record, null);
                break;
            }
            case "forceRelease": check(store.forceRelease(key(key), scope), expect, op); break;
            case "purgeExpired": check(store.purgeExpired((int) number(step, "batchSize")), expect, op); break;
            case "listStuck": {
                List<IdempotencyEngine.Record> records = store.listStuck(number(step, "olderThanMs"), (int) number(step, "limit"));
                Map<String, Object> want = (Map<String, Object>) expect;
                if (want.containsKey("count")) check(records.size(), want.get("count"), "listStuck count");
                if (want.containsKey("keys")) {
                    List<String> got = new ArrayList<>(records.stream().map(IdempotencyEngine.Record::key).collect(Collectors.toList()));
                    List<String> wanted = new ArrayList<>(((List<Object>) want.get("keys")).stream().map(this::key).collect(Collectors.toList()));
                    got.sort(null);
                    wanted.sort(null);
                    check(got, wanted, "listStuck keys");
                }
                break;
            }
            default: throw new AssertionError("unknown op " + op);
        }
    }

    @FunctionalInterface
    private interface Task {
        Object run() throws Exception;
    }

    private static List<Object> parallel(List<Task> tasks) throws Exception {
        Object[] results = new Object[tasks.size()];
        Throwable[] errors = new Throwable[tasks.size()];
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            int index = i;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    results[index] = tasks.get(index).run();
                } catch (Throwable e) {
                    errors[index] = e;
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) thread.join();
        for (Throwable error : errors) {
            if (error instanceof Exception) throw (Exception) error;
            if (error instanceof Error) throw (Error) error;
        }
        return Arrays.asList(results);
    }

    private void concurrent(Map<String, Object> step) throws Exception {
        List<String> keys = step.containsKey("keys") ? (List<String>) step.get("keys") : List.of((String) step.get("key"));
        int n = ((Number) step.get("concurrency")).intValue();
        List<Task> tasks = new ArrayList<>();
        List<String> owners = new ArrayList<>();
        for (String key : keys) {
            for (int i = 0; i < n; i++) {
                tasks.add(() -> claim(step, key));
                owners.add(key);
            }
        }
        List<Object> results = parallel(tasks);
        Map<String, Object> expect = (Map<String, Object>) step.get("expect");
        Map<String, List<IdempotencyEngine.ClaimResult>> byKey = new HashMap<>();
        for (int i = 0; i < results.size(); i++) byKey.computeIfAbsent(owners.get(i), k -> new ArrayList<>()).add((IdempotencyEngine.ClaimResult) results.get(i));
        for (String key : keys) {
            List<IdempotencyEngine.ClaimResult> mine = byKey.get(key);
            List<IdempotencyEngine.ClaimResult> winners = mine.stream().filter(r -> r.claimed() != null).collect(Collectors.toList());
            List<IdempotencyEngine.ClaimResult> others = mine.stream().filter(r -> r.existing() != null).collect(Collectors.toList());
            check(winners.size() + "/" + others.size(), expect.get("claimed") + "/" + expect.get("existing"), "claimed/existing of " + key);
            if (winners.size() == 1) {
                if (step.containsKey("as")) tokens.put((String) step.get("as"), winners.get(0).claimed().lockVersion());
                if (expect.containsKey("winner")) checkClaim((Map<String, Object>) expect.get("winner"), winners.get(0));
            }
            if (expect.containsKey("others")) {
                for (IdempotencyEngine.ClaimResult other : others) checkRecord((Map<String, Object>) expect.get("others"), other.existing().record(), other.existing().now());
            }
        }
    }

    private void checkClaim(Map<String, Object> want, IdempotencyEngine.ClaimResult result) {
        IdempotencyEngine.Claimed claimed = result.claimed();
        if (want.containsKey("outcome")) check(claimed != null ? "claimed" : "existing", want.get("outcome"), "outcome");
        if (claimed != null) {
            if (want.containsKey("reclaimed")) check(claimed.reclaimed(), want.get("reclaimed"), "reclaimed");
            if (want.containsKey("replacedExpired")) check(claimed.replacedExpired(), want.get("replacedExpired"), "replacedExpired");
            if (want.containsKey("lockVersion")) checkVersion((Map<String, Object>) want.get("lockVersion"), claimed.lockVersion());
        } else if (want.containsKey("record")) {
            checkRecord((Map<String, Object>) want.get("record"), result.existing().record(), result.existing().now());
        }
    }

    private void checkVersion(Map<String, Object> want, long got) {
        long plus = want.containsKey("plus") ? ((Number) want.get("plus")).longValue() : 0;
        for (Map.Entry<String, Object> entry : want.entrySet()) {
            if (entry.getKey().equals("plus")) continue;
            long base = tokens.get((String) entry.getValue()) + plus;
            String relation = entry.getKey();
            boolean ok = relation.equals("eq") ? got == base : relation.equals("gt") ? got > base : got >= base;
            if (!ok) throw new AssertionError("lockVersion: want " + entry.getKey() + " " + entry.getValue() + "(" + base + "), got " + got);
        }
    }

    private void checkRecord(Map<String, Object> want, IdempotencyEngine.Record record, Long now) {
        for (Map.Entry<String, Object> entry : want.entrySet()) {
            Object expected = entry.getValue();
            switch (entry.getKey()) {
                case "status": check(record.status(), expected, "status"); break;
                case "fingerprint": check(record.fingerprint(), fingerprint(expected), "fingerprint"); break;
                case "owner": check(record.owner(), expected, "owner"); break;
                case "lockVersion": checkVersion((Map<String, Object>) expected, record.lockVersion()); break;
                case "lockedUntil": check(record.lockedUntil(), null, "lockedUntil"); break;
                case "completed": check(record.completedAt() != null, true, "completed"); break;
                case "leaseLive": check(now != null && record.lockedUntil() != null && record.lockedUntil() > now, true, "leaseLive"); break;
                case "expired": check(now != null && record.expiresAt() <= now, expected, "expired"); break;
                case "response": {
                    IdempotencyEngine.Response got = record.response();
                    if (expected == null || got == null) {
                        check(got == null, expected == null, "response is absent");
                    } else {
                        IdempotencyEngine.Response wanted = response(expected);
                        boolean same = Objects.equals(got.statusCode(), wanted.statusCode()) && Objects.equals(got.encoding(), wanted.encoding())
                            && Objects.equals(got.headers() == null || got.headers().isEmpty() ? null : got.headers(), wanted.headers())
                            && Arrays.equals(got.body(), wanted.body());
                        if (!same) {
                            throw new AssertionError("response " + expected + ": got status " + got.statusCode() + ", encoding " + got.encoding()
                                + ", headers " + got.headers() + ", " + got.body().length + " bytes");
                        }
                    }
                    break;
                }
                default: throw new AssertionError("unknown expectation " + entry.getKey());
            }
        }
    }
}
