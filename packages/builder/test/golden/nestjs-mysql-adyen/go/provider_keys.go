// Provider-side keys derived deterministically from the local key: a retry never mints a fresh
// provider reference, so the provider deduplicates the same logical request the local store does.
package idempotency

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

// FullKey is {scope}_{action}_{intent}: scope included, because provider keys are account-wide.
func FullKey(scope, storedKey string) string {
	return fmt.Sprintf("%s_%s", scope, storedKey)
}

// StripeIdempotencyKey: max 255 characters; Stripe keeps keys for at least 24 hours.
func StripeIdempotencyKey(key string) string {
	if len(key) <= 255 {
		return key
	}
	return "sha256-" + sha256Hex(key)
}

// AdyenIdempotencyKey: max 64 characters; longer keys map to their SHA-256 hex (exactly 64).
func AdyenIdempotencyKey(key string) string {
	if len(key) <= 64 {
		return key
	}
	return sha256Hex(key)
}

// AdyenReference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 characters.
func AdyenReference(key string, step int) string {
	direct := fmt.Sprintf("%s_%d", key, step)
	if len(direct) <= 80 {
		return direct
	}
	sum := sha256.Sum256([]byte(key))
	return fmt.Sprintf("%s_%d", base64.RawURLEncoding.EncodeToString(sum[:]), step)
}

// PaypalRequestID is UUIDv5(namespace, key) per RFC 4122. The namespace (project.json) is fixed
// for this service forever: changing it changes every PayPal-Request-Id.
func PaypalRequestID(key string) string {
	namespace, err := hex.DecodeString(strings.ReplaceAll(Project.PaypalNamespace, "-", ""))
	if err != nil || len(namespace) != 16 {
		panic("idempotency: invalid PayPal namespace")
	}
	hash := sha1.New()
	hash.Write(namespace)
	hash.Write([]byte(key))
	sum := hash.Sum(nil)
	sum[6] = (sum[6] & 0x0f) | 0x50
	sum[8] = (sum[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

// EndToEndID is the ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256(key).
func EndToEndID(key string) string {
	return sha256Hex(key)[:35]
}
