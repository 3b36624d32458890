package com.example.idempotency;

import java.util.List;
import java.util.Map;

/**
 * Per-project data: actions, policies, problem types and the store's statements, parsed once from
 * ProjectData.JSON (the builder renders project.json there), so no other class differs between
 * projects.
 */
@SuppressWarnings("unchecked")
public final class Project {
    /** project.json as parsed maps. */
    public static final Map<String, Object> DATA = (Map<String, Object>) Json.parse(ProjectData.JSON);

    private Project() {}

    public static Map<String, Object> section(String name) {
        return (Map<String, Object>) DATA.get(name);
    }

    public static String text(String name) {
        return (String) DATA.get(name);
    }

    public static long number(String name) {
        return ((Number) DATA.get(name)).longValue();
    }

    /** One action's entry: method, path, fields, leaseMs, ttlMs. */
    public static Map<String, Object> action(String name) {
        Map<String, Object> action = (Map<String, Object>) section("actions").get(name);
        if (action == null) throw new IllegalArgumentException("unknown action " + name);
        return action;
    }

    /** One SQL statement: its text and the value name bound to each placeholder. */
    public static final class Statement {
        private final String text;
        private final List<String> params;

        public Statement(String text, List<String> params) {
            this.text = text;
            this.params = params;
        }

        public String text() { return text; }
        public List<String> params() { return params; }
    }

    public static Statement statement(String name) {
        Map<String, Object> statement = (Map<String, Object>) section("statements").get(name);
        if (statement == null) throw new IllegalStateException("project.json has no statement " + name);
        return new Statement((String) statement.get("text"), (List<String>) statement.get("params"));
    }

    public static String script(String name) {
        String script = (String) section("scripts").get(name);
        if (script == null) throw new IllegalStateException("project.json has no script " + name);
        return script;
    }
}
