// Provider keys derived from the local (scope, key[, step]) exactly as the TypeScript runtime does
// (@idempotency-builder/runtime/payments, docs/payments.md): a retry never mints a fresh provider
// reference, and a Go service and a TypeScript service send the same key for the same intent.
//
//	material    = key (scope "global") or scope:key, plus :step when a step is given
//	fit(m, max) = m when len(m) <= max and m only has [A-Za-z0-9_.:-]
//	            = safe(m)[:max-45] + "~h" + base64url(SHA-256(m)) otherwise
//
// Lengths are counted in UTF-16 code units, as JavaScript does. Never change the derivation while
// records or provider keys are alive: it would re-charge every in-flight retry.
package idempotency

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// GlobalScope is the scope whose keys are not qualified by it.
const GlobalScope = "global"

// hashSuffixLength is "~h" plus 43 base64url characters of SHA-256.
const hashSuffixLength = 45

var (
	keyCharset             = regexp.MustCompile(`^[A-Za-z0-9_.:~-]+$`)
	stepCharset            = regexp.MustCompile(`^[A-Za-z0-9.-]{1,32}$`)
	paypalNamespacePattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// ErrInvalidIntent is returned for a key, scope or step the runtime would reject.
var ErrInvalidIntent = errors.New("idempotency: invalid provider intent")

// Intent is the local intent a provider key stands for. Step "" means no step.
type Intent struct {
	Key   string
	Scope string
	// Step is a sub-operation of the intent (charge, capture, a saga step): one provider key each.
	Step string
}

func utf16Length(value string) int {
	n := 0
	for _, r := range value {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// isScopeSpace mirrors JavaScript's [\u0000-\u001f\u007f\s].
func isScopeSpace(r rune) bool {
	switch {
	case r <= 0x20, r == 0x7f, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a:
		return true
	case r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

func checkStep(step string) error {
	if !stepCharset.MatchString(step) {
		return fmt.Errorf("%w: provider step must match ^[A-Za-z0-9.-]{1,32}$; got %q", ErrInvalidIntent, step)
	}
	return nil
}

// IntentMaterial is the scope-qualified string every provider key is derived from.
func IntentMaterial(intent Intent) (string, error) {
	if intent.Key == "" || len(intent.Key) > 255 || !keyCharset.MatchString(intent.Key) {
		return "", fmt.Errorf("%w: the key must be 1-255 characters of A-Z a-z 0-9 _ . : ~ -", ErrInvalidIntent)
	}
	if intent.Scope == "" || utf16Length(intent.Scope) > 128 || strings.IndexFunc(intent.Scope, isScopeSpace) >= 0 {
		return "", fmt.Errorf("%w: the scope must be 1-128 characters without whitespace or control characters", ErrInvalidIntent)
	}
	base := intent.Scope + ":" + intent.Key
	if intent.Scope == GlobalScope {
		base = intent.Key
	}
	if intent.Step == "" {
		return base, nil
	}
	if err := checkStep(intent.Step); err != nil {
		return "", err
	}
	return base + ":" + intent.Step, nil
}

func isSafe(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == ':' || r == '-'
}

// FitProviderKey is value itself when it fits max and is plain; otherwise a readable prefix plus
// a SHA-256 of the whole value. A fitted value always contains "~", a plain one never does.
func FitProviderKey(value string, max int) (string, error) {
	if max < hashSuffixLength+1 {
		return "", fmt.Errorf("%w: a provider key limit must be at least %d", ErrInvalidIntent, hashSuffixLength+1)
	}
	if value != "" && len(value) <= max && strings.IndexFunc(value, func(r rune) bool { return !isSafe(r) }) < 0 {
		return value, nil
	}
	var prefix strings.Builder
	for _, r := range value {
		switch {
		case isSafe(r):
			prefix.WriteRune(r)
		case r > 0xFFFF:
			prefix.WriteString("--") // JavaScript replaces each half of a surrogate pair
		default:
			prefix.WriteByte('-')
		}
	}
	readable := prefix.String()
	if len(readable) > max-hashSuffixLength {
		readable = readable[:max-hashSuffixLength]
	}
	sum := sha256.Sum256([]byte(value))
	return readable + "~h" + base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// StripeIdempotencyKey is Stripe's Idempotency-Key for an intent (at most 255 characters).
func StripeIdempotencyKey(intent Intent) (string, error) {
	material, err := IntentMaterial(intent)
	if err != nil {
		return "", err
	}
	return FitProviderKey(material, Project.ProviderKeys.Stripe)
}

// AdyenIdempotencyKey is Adyen's Idempotency-Key header for an intent (at most 64 characters).
func AdyenIdempotencyKey(intent Intent) (string, error) {
	material, err := IntentMaterial(intent)
	if err != nil {
		return "", err
	}
	return FitProviderKey(material, Project.ProviderKeys.AdyenKey)
}

// AdyenReference is Adyen's merchant reference {scope:key}_{step} within 80 characters, the step
// kept readable at the end. The intent's own Step is not used.
func AdyenReference(intent Intent, step string) (string, error) {
	if err := checkStep(step); err != nil {
		return "", err
	}
	material, err := IntentMaterial(Intent{Key: intent.Key, Scope: intent.Scope})
	if err != nil {
		return "", err
	}
	fitted, err := FitProviderKey(material, Project.ProviderKeys.AdyenReference-len(step)-1)
	if err != nil {
		return "", err
	}
	return fitted + "_" + step, nil
}

// PaypalRequestID is PayPal-Request-Id = UUIDv5(namespace, material), in this service's namespace
// (project.json): fixed forever, changing it changes every PayPal-Request-Id.
func PaypalRequestID(intent Intent) (string, error) {
	return PaypalRequestIDIn(Project.PaypalNamespace, intent)
}

// PaypalRequestIDIn is PaypalRequestID in another namespace (any UUID).
func PaypalRequestIDIn(namespace string, intent Intent) (string, error) {
	if !paypalNamespacePattern.MatchString(namespace) {
		return "", fmt.Errorf("%w: PayPal namespace must be a UUID; got %q", ErrInvalidIntent, namespace)
	}
	material, err := IntentMaterial(intent)
	if err != nil {
		return "", err
	}
	space, _ := hex.DecodeString(strings.ReplaceAll(namespace, "-", ""))
	hash := sha1.New()
	hash.Write(space)
	hash.Write([]byte(material))
	sum := hash.Sum(nil)
	sum[6] = (sum[6] & 0x0f) | 0x50
	sum[8] = (sum[8] & 0x3f) | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16]), nil
}

// BraintreeOrderID is Braintree's orderId for an intent (at most 255 characters): searchable, so
// reconciliation finds the sale before a retry (Braintree keeps no idempotency key for most accounts).
func BraintreeOrderID(intent Intent) (string, error) {
	material, err := IntentMaterial(intent)
	if err != nil {
		return "", err
	}
	return FitProviderKey(material, Project.ProviderKeys.BraintreeOrderID)
}

// EndToEndID is the ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256 of the
// intent material, as the generated TypeScript derives it.
func EndToEndID(intent Intent) (string, error) {
	material, err := IntentMaterial(intent)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(material))
	return hex.EncodeToString(sum[:])[:35], nil
}
