package com.example.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Provider keys derived from the local (scope, key[, step]) exactly as the TypeScript runtime does
 * (@idempotency-builder/runtime/payments, docs/payments.md): a retry never mints a fresh provider
 * reference, and a Java service and a TypeScript service send the same key for the same intent.
 * <pre>
 *   material    = key (scope "global") or scope:key, plus :step when a step is given
 *   fit(m, max) = m when m.length() &lt;= max and m only has [A-Za-z0-9_.:-]
 *               = safe(m)[0, max-45) + "~h" + base64url(SHA-256(m)) otherwise
 * </pre>
 * Never change the derivation while records or provider keys are alive: it would re-charge every
 * in-flight retry. Invalid keys, scopes or steps throw IllegalArgumentException, as the runtime throws.
 */
public final class ProviderKeys {
    public static final String GLOBAL_SCOPE = "global";
    /** Fixed for this service forever (project.json): changing it changes every PayPal-Request-Id. */
    public static final String PAYPAL_NAMESPACE = Project.text("paypalNamespace");

    /** "~h" plus 43 base64url characters of SHA-256. */
    private static final int HASH_SUFFIX_LENGTH = 45;
    private static final Map<String, Object> LIMITS = Project.section("providerKeyLimits");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.:~-]+");
    private static final Pattern STEP = Pattern.compile("[A-Za-z0-9.-]{1,32}");
    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private ProviderKeys() {}

    /** The scope-qualified string every provider key is derived from; step may be null. */
    public static String intentMaterial(String key, String scope, String step) {
        if (key == null || key.isEmpty() || key.length() > 255 || !KEY.matcher(key).matches()) {
            throw new IllegalArgumentException("The key must be 1-255 characters of A-Z a-z 0-9 _ . : ~ -");
        }
        if (scope == null || scope.isEmpty() || scope.length() > 128 || scope.chars().anyMatch(ProviderKeys::isScopeSpace)) {
            throw new IllegalArgumentException("The scope must be 1-128 characters without whitespace or control characters.");
        }
        if (step != null) checkStep(step);
        String base = GLOBAL_SCOPE.equals(scope) ? key : scope + ":" + key;
        return step == null ? base : base + ":" + step;
    }

    /** Value itself when it fits max and is plain; otherwise a readable prefix plus SHA-256 of the whole value. */
    public static String fitProviderKey(String value, int max) {
        if (max < HASH_SUFFIX_LENGTH + 1) throw new IllegalArgumentException("A provider key limit must be at least " + (HASH_SUFFIX_LENGTH + 1) + ".");
        boolean plain = !value.isEmpty() && value.chars().allMatch(ProviderKeys::isSafe);
        if (plain && value.length() <= max) return value;
        // Per UTF-16 char, as JavaScript does (java.util.regex would take a surrogate pair as one).
        StringBuilder readable = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) readable.append(isSafe(value.charAt(i)) ? value.charAt(i) : '-');
        byte[] digest = digest("SHA-256", value.getBytes(StandardCharsets.UTF_8));
        String prefix = readable.length() > max - HASH_SUFFIX_LENGTH ? readable.substring(0, max - HASH_SUFFIX_LENGTH) : readable.toString();
        return prefix + "~h" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }

    /** Stripe Idempotency-Key for an intent (at most 255 characters). */
    public static String stripeIdempotencyKey(String key, String scope) {
        return stripeIdempotencyKey(key, scope, null);
    }

    public static String stripeIdempotencyKey(String key, String scope, String step) {
        return fitProviderKey(intentMaterial(key, scope, step), limit("stripe"));
    }

    /** Adyen Idempotency-Key header for an intent (at most 64 characters). */
    public static String adyenIdempotencyKey(String key, String scope) {
        return adyenIdempotencyKey(key, scope, null);
    }

    public static String adyenIdempotencyKey(String key, String scope, String step) {
        return fitProviderKey(intentMaterial(key, scope, step), limit("adyenKey"));
    }

    /** Adyen merchant reference {scope:key}_{step} within 80 characters, the step readable at the end. */
    public static String adyenReference(String key, String scope, String step) {
        checkStep(step);
        return fitProviderKey(intentMaterial(key, scope, null), limit("adyenReference") - step.length() - 1) + "_" + step;
    }

    /** PayPal-Request-Id = UUIDv5(PAYPAL_NAMESPACE, material). */
    public static String paypalRequestId(String key, String scope) {
        return paypalRequestIdIn(PAYPAL_NAMESPACE, key, scope, null);
    }

    public static String paypalRequestId(String key, String scope, String step) {
        return paypalRequestIdIn(PAYPAL_NAMESPACE, key, scope, step);
    }

    /** PayPal-Request-Id in another namespace (any UUID); UUID.nameUUIDFromBytes is v3, not v5. */
    public static String paypalRequestIdIn(String namespace, String key, String scope, String step) {
        if (namespace == null || !UUID_TEXT.matcher(namespace).matches()) throw new IllegalArgumentException("PayPal namespace must be a UUID; got " + namespace);
        UUID space = UUID.fromString(namespace);
        byte[] name = intentMaterial(key, scope, step).getBytes(StandardCharsets.UTF_8);
        ByteBuffer input = ByteBuffer.allocate(16 + name.length);
        input.putLong(space.getMostSignificantBits()).putLong(space.getLeastSignificantBits()).put(name);
        byte[] hash = digest("SHA-1", input.array());
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        ByteBuffer bits = ByteBuffer.wrap(hash, 0, 16);
        return new UUID(bits.getLong(), bits.getLong()).toString();
    }

    /**
     * Braintree orderId for an intent (at most 255 characters): searchable, so reconciliation finds
     * the sale before a retry (Braintree keeps no idempotency key for most accounts).
     */
    public static String braintreeOrderId(String key, String scope, String step) {
        return fitProviderKey(intentMaterial(key, scope, step), limit("braintreeOrderId"));
    }

    /** ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256 of the intent material. */
    public static String endToEndId(String key, String scope, String step) {
        byte[] hash = digest("SHA-256", intentMaterial(key, scope, step).getBytes(StandardCharsets.UTF_8));
        return Fingerprint.hex(hash).substring(0, 35);
    }

    private static void checkStep(String step) {
        if (step == null || !STEP.matcher(step).matches()) throw new IllegalArgumentException("Provider step must match ^[A-Za-z0-9.-]{1,32}$; got " + step);
    }

    private static boolean isSafe(int c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '-';
    }

    /** JavaScript's control characters, DEL and \s (the scope check), per UTF-16 char. */
    private static boolean isScopeSpace(int c) {
        return c <= 0x20 || c == 0x7f || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a)
            || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
    }

    private static int limit(String name) {
        return ((Number) LIMITS.get(name)).intValue();
    }

    private static byte[] digest(String algorithm, byte[] input) {
        try {
            return MessageDigest.getInstance(algorithm).digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
