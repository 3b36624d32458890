package com.example.idempotency;

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
    /** Fixed for this service forever (project.json): changing it changes every PayPal-Request-Id. */
    public static final UUID PAYPAL_NAMESPACE = UUID.fromString(Project.text("paypalNamespace"));

    private ProviderKeys() {}

    /** {scope}_{action}_{intent}: scope included, because provider keys are account-wide. */
    public static String fullKey(String scope, String storedKey) {
        return scope + "_" + storedKey;
    }

    /** Stripe Idempotency-Key: max 255 characters; Stripe keeps keys for at least 24 hours. */
    public static String stripeIdempotencyKey(String key) {
        return key.length() <= 255 ? key : "sha256-" + Fingerprint.sha256Hex(key);
    }

    /** Adyen Idempotency-Key: max 64 characters; longer keys map to their SHA-256 hex (exactly 64). */
    public static String adyenIdempotencyKey(String key) {
        return key.length() <= 64 ? key : Fingerprint.sha256Hex(key);
    }

    /** Adyen reference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 characters. */
    public static String adyenReference(String key, int step) {
        String direct = key + "_" + step;
        if (direct.length() <= 80) return direct;
        byte[] digest = digest("SHA-256", key.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest) + "_" + step;
    }

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
    }

    /** ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256(key). */
    public static String endToEndId(String key) {
        return Fingerprint.sha256Hex(key).substring(0, 35);
    }

    private static byte[] digest(String algorithm, byte[] input) {
        try {
            return MessageDigest.getInstance(algorithm).digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
