package com.example.idempotency;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fingerprint utility: byte for byte the TypeScript runtime's requestFingerprint, so services in
 * several languages can share one store. SHA-256 (hex) of [method, path, kind, digest] plus, when
 * the request has a query string, ["query", SHA-256(canonical JSON of its [name, value] pairs sorted
 * by name)], each part typed and length-prefixed. kind is "fields2" (the significant fields, each
 * [1, value] when present, even as null, or [0] when missing), "json" (no fields named: the whole
 * body minus DEFAULT_EXCLUDED_PATHS), "text" (a JSON string body) or "none" (no body). Canonical
 * JSON is RFC 8785: keys sorted by UTF-16 code units, numbers printed as JavaScript prints them.
 */
public final class Fingerprint {
    private Fingerprint() {}

    /** Left out of the whole-body fingerprint: dot paths from the top of the body, as the runtime applies them. */
    public static final List<String> DEFAULT_EXCLUDED_PATHS =
        List.of("timestamp", "requestId", "request_id", "traceId", "trace_id", "nonce", "sentAt", "sent_at");
    private static final int MAX_DEPTH = 256; // the runtime's MAX_FINGERPRINT_DEPTH
    private static final double MAX_SAFE = 9007199254740991d;

    /** A body the runtime refuses to fingerprint (answer it 400, nothing claimed). */
    public static final class UnhashableInputException extends IllegalArgumentException {
        public UnhashableInputException(String reason) {
            super("The value cannot be fingerprinted (" + reason + ").");
        }
    }

    /** The fingerprint of one request without a query string; see {@link #of(String, Object, String, String)}. */
    public static String of(String action, Object body, String path) {
        return of(action, body, path, null);
    }

    /** One request's fingerprint: body as parsed (null when none was sent), path null for the route's default, the raw query or null. */
    @SuppressWarnings("unchecked")
    public static String of(String action, Object body, String path, String query) {
        Map<String, Object> signature = Project.action(action);
        return request((String) signature.get("method"), path == null ? (String) signature.get("path") : path,
            (List<String>) signature.get("fields"), body, query);
    }

    /** The runtime's requestFingerprint for a parsed body: no fields means the whole body. */
    public static String request(String method, String path, List<String> fields, Object body, String query) {
        List<String> parts = new ArrayList<>(List.of(method, path));
        if (body == null) {
            parts.addAll(List.of("none", ""));
        } else if (body instanceof String) {
            String text = (String) body;
            quote(text); // refuses lone surrogates, as the runtime does
            parts.addAll(List.of("text", sha256Hex(text)));
        } else if (!fields.isEmpty()) {
            List<Object> values = new ArrayList<>();
            for (String field : fields) values.add(fieldAt(body, field));
            parts.addAll(List.of("fields2", json(values, List.of())));
        } else {
            parts.addAll(List.of("json", json(body, DEFAULT_EXCLUDED_PATHS)));
        }
        if (query != null && !query.isEmpty()) parts.addAll(List.of("query", json(queryPairs(query), List.of())));
        return parts(parts.toArray(String[]::new));
    }

    public static String parts(String... parts) {
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < parts.length; i++) {
            if (i > 0) joined.append('|');
            joined.append("string:").append(parts[i].getBytes(StandardCharsets.UTF_8).length).append(':').append(parts[i]);
        }
        return sha256Hex(joined.toString());
    }

    /** The runtime's fingerprintJson: SHA-256 hex of the canonical JSON minus the excluded dot paths. */
    public static String json(Object value, List<String> exclude) {
        for (String path : exclude) value = omitPath(value, Arrays.asList(path.split("\\.", -1)));
        return sha256Hex(canonicalJson(value));
    }

    /** [1, value] when the path exists (even as null), [0] when it does not: they must differ. */
    @SuppressWarnings("unchecked")
    private static List<Object> fieldAt(Object body, String path) {
        Object node = body;
        for (String part : path.split("\\.", -1)) {
            if (node instanceof Map<?, ?>) {
                Map<?, ?> map = (Map<?, ?>) node;
                if (!map.containsKey(part)) return List.of(0);
                node = map.get(part);
            } else if (node instanceof List<?>) {
                List<?> list = (List<?>) node;
                // A JavaScript array's own properties: its indexes ("0", not "00") and length.
                if (part.equals("length")) {
                    node = (long) list.size();
                } else if (part.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(part) < list.size()) {
                    node = list.get(Integer.parseInt(part));
                } else {
                    return List.of(0);
                }
            } else {
                return List.of(0);
            }
        }
        return Arrays.asList(1, node);
    }

    @SuppressWarnings("unchecked")
    private static Object omitPath(Object value, List<String> path) {
        if (path.isEmpty() || !(value instanceof Map<?, ?>) || !((Map<?, ?>) value).containsKey(path.get(0))) return value;
        Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) value);
        if (path.size() == 1) copy.remove(path.get(0));
        else copy.put(path.get(0), omitPath(copy.get(path.get(0)), path.subList(1, path.size())));
        return copy;
    }

    /** RFC 8785 canonical JSON for strings, numbers, booleans, null, lists and maps (the runtime's canonicalize). */
    public static String canonicalJson(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            out.append(quote((String) value));
        } else if (value instanceof Boolean) {
            out.append((Boolean) value);
        } else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte || value instanceof BigInteger) {
            BigInteger integer = new BigInteger(value.toString());
            if (integer.abs().compareTo(BigInteger.valueOf((long) MAX_SAFE)) > 0) throw new UnhashableInputException("unsafe_integer");
            out.append(integer);
        } else if (value instanceof Number) {
            out.append(number(((Number) value).doubleValue()));
        } else if (value instanceof Map<?, ?> || value instanceof Collection<?>) {
            if (depth >= MAX_DEPTH) throw new UnhashableInputException("too_deep");
            if (value instanceof Collection<?>) {
                Collection<?> list = (Collection<?>) value;
                out.append('[');
                int i = 0;
                for (Object element : list) {
                    if (i++ > 0) out.append(',');
                    write(out, element, depth + 1);
                }
                out.append(']');
            } else {
                // TreeMap's String order is UTF-16 code-unit order, as RFC 8785 sorts.
                TreeMap<String, Object> sorted = new TreeMap<>();
                ((Map<?, ?>) value).forEach((k, v) -> sorted.put(String.valueOf(k), v));
                out.append('{');
                int i = 0;
                for (Map.Entry<String, Object> entry : sorted.entrySet()) {
                    if (i++ > 0) out.append(',');
                    out.append(quote(entry.getKey())).append(':');
                    write(out, entry.getValue(), depth + 1);
                }
                out.append('}');
            }
        } else {
            throw new UnhashableInputException("unsupported_value");
        }
    }

    /** A double as JavaScript's Number#toString prints it: the shortest digits that read back, closest first. */
    static String number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) throw new UnhashableInputException("non_finite_number");
        if (value == Math.rint(value) && Math.abs(value) > MAX_SAFE) throw new UnhashableInputException("unsafe_integer");
        if (value == 0) return "0";
        String sign = value < 0 ? "-" : "";
        double magnitude = Math.abs(value);
        BigDecimal exact = new BigDecimal(magnitude), shortest = exact;
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == magnitude) {
                shortest = candidate;
                break;
            }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length(), n = k - shortest.scale();
        if (k <= n && n <= 21) return sign + digits + "0".repeat(n - k);
        if (0 < n && n <= 21) return sign + digits.substring(0, n) + "." + digits.substring(n);
        if (-6 < n && n <= 0) return sign + "0." + "0".repeat(-n) + digits;
        String mantissa = digits.charAt(0) + (k > 1 ? "." + digits.substring(1) : "");
        return sign + mantissa + "e" + (n - 1 >= 0 ? "+" : "-") + Math.abs(n - 1);
    }

    private static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
                if (!paired) throw new UnhashableInputException("lone_surrogate");
                out.append(c).append(text.charAt(++i));
                continue;
            }
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** The query as URLSearchParams reads it, sorted by name (stable: repeated names keep their order). */
    private static List<List<String>> queryPairs(String query) {
        List<List<String>> pairs = new ArrayList<>();
        for (String segment : query.split("&", -1)) {
            if (segment.isEmpty()) continue;
            int equals = segment.indexOf('=');
            String name = equals < 0 ? segment : segment.substring(0, equals);
            String value = equals < 0 ? "" : segment.substring(equals + 1);
            pairs.add(List.of(formDecode(name), formDecode(value)));
        }
        pairs.sort(Comparator.comparing(pair -> pair.get(0)));
        return pairs;
    }

    /** "+" is a space, %XX a byte (a malformed escape stays as is), then UTF-8 with U+FFFD for bad bytes. */
    private static String formDecode(String text) {
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length);
        for (int i = 0; i < raw.length; i++) {
            byte b = raw[i];
            if (b == '+') {
                b = ' ';
            } else if (b == '%' && i + 2 < raw.length && Character.digit(raw[i + 1], 16) >= 0 && Character.digit(raw[i + 2], 16) >= 0) {
                b = (byte) (Character.digit(raw[i + 1], 16) << 4 | Character.digit(raw[i + 2], 16));
                i += 2;
            }
            out.write(b);
        }
        return new String(out.toByteArray(), StandardCharsets.UTF_8);
    }

    /** Lower-case hex of bytes (java.util.HexFormat is Java 17; this package compiles at 11). */
    static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        return out.toString();
    }

    static String sha256Hex(String text) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            return hex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
