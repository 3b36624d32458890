// Fingerprint utility: SHA-256 (hex) of [method, path, "fields", SHA-256(canonical JSON of the
// significant field values)], each part typed and length-prefixed — byte for byte what the
// TypeScript runtime's HTTP adapters compute, so services in several languages can share a store.
// Timestamps, trace ids and auth headers are deliberately left out.
package idempotency

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

func valueAt(body map[string]any, path string) any {
	var node any = body
	for _, part := range strings.Split(path, ".") {
		object, ok := node.(map[string]any)
		if !ok {
			return nil
		}
		node = object[part]
	}
	return node
}

// CanonicalJSON encodes like RFC 8785 for JSON-decoded values: sorted keys, no spaces, no HTML escaping,
// numbers formatted the way JavaScript prints them.
func CanonicalJSON(value any) (string, error) {
	var buffer bytes.Buffer
	encoder := json.NewEncoder(&buffer)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buffer.String(), "\n"), nil
}

func sha256Hex(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// FingerprintParts hashes string parts, each typed and length-prefixed.
func FingerprintParts(parts ...string) string {
	encoded := make([]string, len(parts))
	for i, part := range parts {
		encoded[i] = fmt.Sprintf("string:%d:%s", len(part), part)
	}
	return sha256Hex(strings.Join(encoded, "|"))
}

// Fingerprint of one request; pass the concrete request path (routes with parameters), or "" for the default.
func Fingerprint(action string, body map[string]any, path string) (string, error) {
	signature, ok := Project.Actions[action]
	if !ok {
		return "", fmt.Errorf("idempotency: unknown action %q", action)
	}
	values := make([]any, len(signature.Fields))
	for i, field := range signature.Fields {
		values[i] = valueAt(body, field)
	}
	canonical, err := CanonicalJSON(values)
	if err != nil {
		return "", err
	}
	if path == "" {
		path = signature.Path
	}
	return FingerprintParts(signature.Method, path, "fields", sha256Hex(canonical)), nil
}
