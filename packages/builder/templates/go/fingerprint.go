// Fingerprint utility: byte for byte the TypeScript runtime's requestFingerprint, so services in
// several languages can share a store. SHA-256 (hex) of [method, path, kind, digest] plus, when the
// request has a query string, ["query", SHA-256(canonical JSON of its [name, value] pairs sorted by
// name)], each part typed and length-prefixed. kind is "fields2" (the significant fields, each
// [1, value] when present, even as null, or [0] when missing), "json" (no fields named: the whole
// body minus DefaultExcludedPaths), "text" (a JSON string body) or "none" (no body). Canonical JSON
// is RFC 8785: keys sorted by UTF-16 code units, numbers printed as JavaScript prints them.
package idempotency

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultExcludedPaths are left out of the whole-body fingerprint: they vary between retries of
// one intent. Dot paths from the top of the body, as the runtime's fingerprintJson applies them.
var DefaultExcludedPaths = []string{"timestamp", "requestId", "request_id", "traceId", "trace_id", "nonce", "sentAt", "sent_at"}

// maxFingerprintDepth is the runtime's MAX_FINGERPRINT_DEPTH.
const maxFingerprintDepth = 256

// ErrUnhashable is a body the runtime refuses to fingerprint (answered 400, nothing claimed).
var ErrUnhashable = errors.New("idempotency: the value cannot be fingerprinted")

// arrayIndex reads a JavaScript array index ("0", "12"; not "01"), as Object.hasOwn sees one.
func arrayIndex(part string, length int) (int, bool) {
	index, err := strconv.Atoi(part)
	if err != nil || index < 0 || index >= length || strconv.Itoa(index) != part {
		return 0, false
	}
	return index, true
}

// fieldAt is [1, value] when the path exists (even as null), [0] when it does not: they must differ.
func fieldAt(body any, path string) []any {
	node := body
	for _, part := range strings.Split(path, ".") {
		switch object := node.(type) {
		case map[string]any:
			value, ok := object[part]
			if !ok {
				return []any{0}
			}
			node = value
		case []any:
			if part == "length" { // an own property of every JavaScript array
				node = float64(len(object))
			} else if index, ok := arrayIndex(part, len(object)); ok {
				node = object[index]
			} else {
				return []any{0}
			}
		default:
			return []any{0}
		}
	}
	return []any{1, node}
}

// omitPath drops one dot path from objects only, copying what it changes (core/fingerprint.ts).
func omitPath(value any, path []string) any {
	object, ok := value.(map[string]any)
	if len(path) == 0 || !ok {
		return value
	}
	inner, ok := object[path[0]]
	if !ok {
		return value
	}
	copied := make(map[string]any, len(object))
	for name, element := range object {
		copied[name] = element
	}
	if len(path) == 1 {
		delete(copied, path[0])
	} else {
		copied[path[0]] = omitPath(inner, path[1:])
	}
	return copied
}

// formatNumber prints a float64 as JavaScript's Number#toString does (RFC 8785 section 3.2.2.3).
func formatNumber(number float64) (string, error) {
	if math.IsNaN(number) || math.IsInf(number, 0) {
		return "", ErrUnhashable
	}
	if number == math.Trunc(number) && math.Abs(number) > 1<<53-1 {
		return "", ErrUnhashable // digits already lost when the JSON was parsed
	}
	if number == 0 {
		return "0", nil
	}
	sign := ""
	if number < 0 {
		sign, number = "-", -number
	}
	mantissa, exponent, _ := strings.Cut(strconv.FormatFloat(number, 'e', -1, 64), "e")
	digits := strings.Replace(mantissa, ".", "", 1)
	power, _ := strconv.Atoi(exponent)
	k, n := len(digits), power+1
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k), nil
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:], nil
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits, nil
	}
	text := digits[:1]
	if k > 1 {
		text += "." + digits[1:]
	}
	if n-1 >= 0 {
		return sign + text + "e+" + strconv.Itoa(n-1), nil
	}
	return sign + text + "e-" + strconv.Itoa(1-n), nil
}

// quote escapes a string as JSON.stringify does.
func quote(out *strings.Builder, text string) error {
	if !utf8.ValidString(text) {
		return ErrUnhashable
	}
	out.WriteByte('"')
	for _, r := range text {
		switch r {
		case '"':
			out.WriteString(`\"`)
		case '\\':
			out.WriteString(`\\`)
		case '\b':
			out.WriteString(`\b`)
		case '\f':
			out.WriteString(`\f`)
		case '\n':
			out.WriteString(`\n`)
		case '\r':
			out.WriteString(`\r`)
		case '\t':
			out.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(out, `\u%04x`, r)
			} else {
				out.WriteRune(r)
			}
		}
	}
	out.WriteByte('"')
	return nil
}

// utf16Less orders strings by UTF-16 code units, as JavaScript's sort and < do.
func utf16Less(a, b string) bool {
	x, y := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i] != y[i] {
			return x[i] < y[i]
		}
	}
	return len(x) < len(y)
}

func writeCanonical(out *strings.Builder, value any, depth int) error {
	switch v := value.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case string:
		return quote(out, v)
	case float64:
		text, err := formatNumber(v)
		out.WriteString(text)
		return err
	case int:
		return writeCanonical(out, float64(v), depth)
	case int64:
		return writeCanonical(out, float64(v), depth)
	case json.Number:
		number, err := v.Float64()
		if err != nil {
			return ErrUnhashable
		}
		return writeCanonical(out, number, depth)
	case []any:
		if depth >= maxFingerprintDepth {
			return ErrUnhashable
		}
		out.WriteByte('[')
		for i, element := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := writeCanonical(out, element, depth+1); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case map[string]any:
		if depth >= maxFingerprintDepth {
			return ErrUnhashable
		}
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		sort.Slice(names, func(i, j int) bool { return utf16Less(names[i], names[j]) })
		out.WriteByte('{')
		for i, name := range names {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := quote(out, name); err != nil {
				return err
			}
			out.WriteByte(':')
			if err := writeCanonical(out, v[name], depth+1); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	default:
		return ErrUnhashable
	}
	return nil
}

// CanonicalJSON encodes JSON-decoded values as RFC 8785 does (the runtime's canonicalize).
func CanonicalJSON(value any) (string, error) {
	var out strings.Builder
	if err := writeCanonical(&out, value, 0); err != nil {
		return "", err
	}
	return out.String(), nil
}

// FingerprintJSON is the runtime's fingerprintJson: SHA-256 hex of the canonical JSON of value
// minus the excluded dot paths.
func FingerprintJSON(value any, exclude []string) (string, error) {
	for _, path := range exclude {
		value = omitPath(value, strings.Split(path, "."))
	}
	canonical, err := CanonicalJSON(value)
	if err != nil {
		return "", err
	}
	return sha256Hex(canonical), nil
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

// bodyPart is the body's share, tagged by kind.
func bodyPart(body any, fields []string) (string, string, error) {
	switch v := body.(type) {
	case nil:
		return "none", "", nil
	case map[string]any:
		if v == nil { // no body was sent: not the same as {}
			return "none", "", nil
		}
	case string:
		if !utf8.ValidString(v) {
			return "", "", ErrUnhashable
		}
		return "text", sha256Hex(v), nil
	}
	if len(fields) > 0 {
		values := make([]any, len(fields))
		for i, field := range fields {
			values[i] = fieldAt(body, field)
		}
		digest, err := FingerprintJSON(values, nil)
		return "fields2", digest, err
	}
	digest, err := FingerprintJSON(body, DefaultExcludedPaths)
	return "json", digest, err
}

// RequestFingerprint is the runtime's requestFingerprint for a parsed body: fields empty means the
// whole body; query is the raw query string without "?" ("" when there is none).
func RequestFingerprint(method, path string, fields []string, body any, query string) (string, error) {
	kind, digest, err := bodyPart(body, fields)
	if err != nil {
		return "", err
	}
	parts := []string{method, path, kind, digest}
	if query != "" {
		pairs := parseQuery(query)
		sort.SliceStable(pairs, func(i, j int) bool { return utf16Less(pairs[i].([]any)[0].(string), pairs[j].([]any)[0].(string)) })
		digest, err := FingerprintJSON(pairs, nil)
		if err != nil {
			return "", err
		}
		parts = append(parts, "query", digest)
	}
	return FingerprintParts(parts...), nil
}

// Fingerprint of one request without a query string; see FingerprintRequest.
func Fingerprint(action string, body any, path string) (string, error) {
	return FingerprintRequest(action, body, path, "")
}

// FingerprintRequest is one request's fingerprint: pass the concrete request path (routes with
// parameters), or "" for the default, and the raw query string (r.URL.RawQuery).
func FingerprintRequest(action string, body any, path, query string) (string, error) {
	signature, ok := Project.Actions[action]
	if !ok {
		return "", fmt.Errorf("idempotency: unknown action %q", action)
	}
	if path == "" {
		path = signature.Path
	}
	return RequestFingerprint(signature.Method, path, signature.Fields, body, query)
}

// parseQuery reads a query string as URLSearchParams does (application/x-www-form-urlencoded).
func parseQuery(query string) []any {
	pairs := []any{}
	for _, segment := range strings.Split(query, "&") {
		if segment == "" {
			continue
		}
		name, value, _ := strings.Cut(segment, "=")
		pairs = append(pairs, []any{formDecode(name), formDecode(value)})
	}
	return pairs
}

func hexValue(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// formDecode: "+" is a space, %XX a byte (a malformed escape stays as is), then UTF-8 decoded.
func formDecode(text string) string {
	raw := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '+' {
			c = ' '
		} else if c == '%' && i+2 < len(text) {
			high, ok1 := hexValue(text[i+1])
			low, ok2 := hexValue(text[i+2])
			if ok1 && ok2 {
				c = high<<4 | low
				i += 2
			}
		}
		raw = append(raw, c)
	}
	return decodeUTF8(raw)
}

// decodeUTF8 replaces each maximal invalid subpart with U+FFFD, as the WHATWG decoder does.
func decodeUTF8(raw []byte) string {
	var out strings.Builder
	needed, seen, point := 0, 0, rune(0)
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(raw); {
		c := raw[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out.WriteByte(c)
			case 0xC2 <= c && c <= 0xDF:
				needed, point = 1, rune(c&0x1F)
			case 0xE0 <= c && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				} else if c == 0xED {
					upper = 0x9F
				}
				needed, point = 2, rune(c&0x0F)
			case 0xF0 <= c && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				} else if c == 0xF4 {
					upper = 0x8F
				}
				needed, point = 3, rune(c&0x07)
			default:
				out.WriteRune(utf8.RuneError)
			}
			i++
			continue
		}
		if c < lower || c > upper {
			needed, seen, point = 0, 0, 0
			lower, upper = 0x80, 0xBF
			out.WriteRune(utf8.RuneError)
			continue // the byte starts over
		}
		lower, upper = 0x80, 0xBF
		point = point<<6 | rune(c&0x3F)
		seen++
		i++
		if seen == needed {
			out.WriteRune(point)
			needed, seen, point = 0, 0, 0
		}
	}
	if needed != 0 {
		out.WriteRune(utf8.RuneError)
	}
	return out.String()
}
