package com.example.idempotency;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fingerprint utility: SHA-256 (hex) of [method, path, "fields", SHA-256(canonical JSON of the
 * significant field values)], each part typed and length-prefixed — byte for byte what the
 * TypeScript runtime computes, so services in several languages can share one store. Timestamps,
 * trace ids and auth headers are deliberately left out. Send money as integer minor units.
 */
public final class Fingerprint {
    private Fingerprint() {}

    /** The fingerprint of one request body (as parsed by Jackson); path null means the route's default. */
    @SuppressWarnings("unchecked")
    public static String of(String action, Map<String, Object> body, String path) {
        Map<String, Object> signature = Project.action(action);
        List<Object> values = new ArrayList<>();
        for (String field : (List<String>) signature.get("fields")) values.add(valueAt(body, field));
        String digest = sha256Hex(canonicalJson(values));
        return parts((String) signature.get("method"), path == null ? (String) signature.get("path") : path, "fields", digest);
    }

    public static String parts(String... parts) {
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) joined.append('|');
            joined.append("string:").append(parts[i].getBytes(StandardCharsets.UTF_8).length).append(':').append(parts[i]);
        }
        return sha256Hex(joined.toString());
    }

    @SuppressWarnings("unchecked")
    private static Object valueAt(Map<String, Object> body, String path) {
        Object node = body;
        for (String part : path.split("\\.")) {
            if (!(node instanceof Map)) return null;
            node = ((Map<String, Object>) node).get(part);
        }
        return node;
    }

    /** RFC 8785 canonical JSON for strings, integers, booleans, null, lists and maps. */
    @SuppressWarnings("unchecked")
    public static String canonicalJson(Object value) {
        if (value == null) return "null";
        if (value instanceof String text) return quote(text);
        if (value instanceof Boolean flag) return flag.toString();
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof BigInteger) return value.toString();
        if (value instanceof Number number) {
            BigDecimal decimal = new BigDecimal(number.toString()).stripTrailingZeros();
            return decimal.scale() <= 0 ? decimal.toBigInteger().toString() : decimal.toPlainString();
        }
        if (value instanceof Map<?, ?> map) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            map.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            StringBuilder out = new StringBuilder("{");
            sorted.forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append(quote(k)).append(':').append(canonicalJson(v)));
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder out = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) out.append(i > 0 ? "," : "").append(canonicalJson(list.get(i)));
            return out.append(']').toString();
        }
        throw new IllegalArgumentException("not JSON: " + value.getClass());
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        return out.append('"').toString();
    }

    static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
