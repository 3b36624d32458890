/**
 * Generated Java 17 (JDK only): the fingerprint utility, the engine with heartbeat, and provider
 * key derivation. Spring glue lives in spring.ts.
 */
import type { Plan } from '../../design/plan/plan.js';
import { signatureOf } from '../typescript/core-files.js';

export const JAVA_PACKAGE = 'com.example.idempotency';
const q = (value: string) => JSON.stringify(value);

/**
 * `Fingerprint.java`.
 * @example fingerprintJava(plan).includes('public static String of(')
 */
export function fingerprintJava(plan: Plan): string {
  const entries = plan.actions
    .map((a) => {
      const { method, path } = signatureOf(a);
      return `        Map.entry(${q(a.action.name)}, new Signature(${q(method)}, ${q(path)}, List.of(${a.action.significantFields.map(q).join(', ')})))`;
    })
    .join(',\n');
  return `package ${JAVA_PACKAGE};

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
    public record Signature(String method, String path, List<String> fields) {}

    public static final Map<String, Signature> SIGNIFICANT = Map.ofEntries(
${entries});

    private Fingerprint() {}

    /** The fingerprint of one request body (as parsed by Jackson); path null means the route's default. */
    public static String of(String action, Map<String, Object> body, String path) {
        Signature signature = SIGNIFICANT.get(action);
        if (signature == null) throw new IllegalArgumentException("unknown action " + action);
        List<Object> values = new ArrayList<>();
        for (String field : signature.fields()) values.add(valueAt(body, field));
        String digest = sha256Hex(canonicalJson(values));
        return parts(signature.method(), path == null ? signature.path() : path, "fields", digest);
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
        for (String part : path.split("\\\\.")) {
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
        StringBuilder out = new StringBuilder("\\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\\\\"");
                case '\\\\' -> out.append("\\\\\\\\");
                case '\\b' -> out.append("\\\\b");
                case '\\f' -> out.append("\\\\f");
                case '\\n' -> out.append("\\\\n");
                case '\\r' -> out.append("\\\\r");
                case '\\t' -> out.append("\\\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\\\u%04x", (int) c));
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
`;
}

/**
 * `ProviderKeys.java`, or undefined without payment providers.
 * @example providerKeysJava(plan)?.includes('paypalRequestId')
 */
export function providerKeysJava(plan: Plan): string | undefined {
  const providers = new Set([...plan.answers.paymentProviders, ...plan.actions.flatMap((a) => (a.action.provider ? [a.action.provider] : []))]);
  if (providers.size === 0) return undefined;
  const methods: string[] = [];
  if (providers.has('stripe')) methods.push(`    /** Stripe Idempotency-Key: max 255 characters; Stripe keeps keys for at least 24 hours. */
    public static String stripeIdempotencyKey(String key) {
        return key.length() <= 255 ? key : "sha256-" + Fingerprint.sha256Hex(key);
    }`);
  if (providers.has('adyen')) methods.push(`    /** Adyen Idempotency-Key: max 64 characters; longer keys map to their SHA-256 hex (exactly 64). */
    public static String adyenIdempotencyKey(String key) {
        return key.length() <= 64 ? key : Fingerprint.sha256Hex(key);
    }

    /** Adyen reference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 characters. */
    public static String adyenReference(String key, int step) {
        String direct = key + "_" + step;
        if (direct.length() <= 80) return direct;
        byte[] digest = digest("SHA-256", key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest) + "_" + step;
    }`);
  if (providers.has('paypal')) methods.push(`    /** Fixed for this service forever: changing it changes every PayPal-Request-Id. */
    public static final UUID PAYPAL_NAMESPACE = UUID.fromString("${plan.paypalNamespace}");

    /** PayPal-Request-Id = UUIDv5(namespace, key) per RFC 4122 (UUID.nameUUIDFromBytes is v3, not v5). */
    public static String paypalRequestId(String key) {
        ByteBuffer input = ByteBuffer.allocate(16 + key.getBytes(StandardCharsets.UTF_8).length);
        input.putLong(PAYPAL_NAMESPACE.getMostSignificantBits()).putLong(PAYPAL_NAMESPACE.getLeastSignificantBits());
        input.put(key.getBytes(StandardCharsets.UTF_8));
        byte[] hash = digest("SHA-1", input.array());
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        ByteBuffer bits = ByteBuffer.wrap(hash, 0, 16);
        return new UUID(bits.getLong(), bits.getLong()).toString();
    }`);
  if (providers.has('bank-transfer')) methods.push(`    /** ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256(key). */
    public static String endToEndId(String key) {
        return Fingerprint.sha256Hex(key).substring(0, 35);
    }`);
  return `package ${JAVA_PACKAGE};

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.UUID;

/**
 * Provider-side keys derived deterministically from the local key: a retry never mints a fresh
 * provider reference, so the provider deduplicates the same logical request the local store does.
 */
public final class ProviderKeys {
    private ProviderKeys() {}

    /** {scope}_{action}_{intent}: scope included, because provider keys are account-wide. */
    public static String fullKey(String scope, String storedKey) {
        return scope + "_" + storedKey;
    }

${methods.join('\n\n')}

    private static byte[] digest(String algorithm, byte[] input) {
        try {
            return MessageDigest.getInstance(algorithm).digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
`;
}
