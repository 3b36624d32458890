/**
 * Generated Go (1.19+, standard library only): fingerprint utility, engine with heartbeat,
 * provider keys. Drivers are the user's: database/sql for SQL stores, a one-method Eval port for Redis.
 */
import type { Plan } from '../../design/plan/plan.js';
import { signatureOf } from '../typescript/core-files.js';

const goString = (value: string) => JSON.stringify(value);

/**
 * `fingerprint.go`: the same bytes as the TypeScript runtime's fingerprints.
 * @example fingerprintGo(plan).includes('func Fingerprint(')
 */
export function fingerprintGo(plan: Plan): string {
  const width = Math.max(...plan.actions.map((a) => goString(a.action.name).length + 1));
  const entries = plan.actions
    .map((a) => {
      const { method, path } = signatureOf(a);
      return `\t${`${goString(a.action.name)}:`.padEnd(width)} {Method: ${goString(method)}, Path: ${goString(path)}, Fields: []string{${a.action.significantFields.map(goString).join(', ')}}},`;
    })
    .join('\n');
  return `// Fingerprint utility: SHA-256 (hex) of [method, path, "fields", SHA-256(canonical JSON of the
// significant field values)], each part typed and length-prefixed — byte for byte what the
// TypeScript runtime's HTTP adapters compute, so services in several languages can share a store.
// Timestamps, trace ids and auth headers are deliberately left out.
package idempotency

import (
\t"bytes"
\t"crypto/sha256"
\t"encoding/hex"
\t"encoding/json"
\t"fmt"
\t"strings"
)

// Signature is what an action's fingerprint covers.
type Signature struct {
\tMethod string
\tPath   string
\tFields []string
}

// Significant lists each protected action's semantically significant fields.
var Significant = map[string]Signature{
${entries}
}

func valueAt(body map[string]any, path string) any {
\tvar node any = body
\tfor _, part := range strings.Split(path, ".") {
\t\tobject, ok := node.(map[string]any)
\t\tif !ok {
\t\t\treturn nil
\t\t}
\t\tnode = object[part]
\t}
\treturn node
}

// CanonicalJSON encodes like RFC 8785 for JSON-decoded values: sorted keys, no spaces, no HTML escaping,
// numbers formatted the way JavaScript prints them.
func CanonicalJSON(value any) (string, error) {
\tvar buffer bytes.Buffer
\tencoder := json.NewEncoder(&buffer)
\tencoder.SetEscapeHTML(false)
\tif err := encoder.Encode(value); err != nil {
\t\treturn "", err
\t}
\treturn strings.TrimSuffix(buffer.String(), "\\n"), nil
}

func sha256Hex(text string) string {
\tsum := sha256.Sum256([]byte(text))
\treturn hex.EncodeToString(sum[:])
}

// FingerprintParts hashes string parts, each typed and length-prefixed.
func FingerprintParts(parts ...string) string {
\tencoded := make([]string, len(parts))
\tfor i, part := range parts {
\t\tencoded[i] = fmt.Sprintf("string:%d:%s", len(part), part)
\t}
\treturn sha256Hex(strings.Join(encoded, "|"))
}

// Fingerprint of one request; pass the concrete request path (routes with parameters), or "" for the default.
func Fingerprint(action string, body map[string]any, path string) (string, error) {
\tsignature, ok := Significant[action]
\tif !ok {
\t\treturn "", fmt.Errorf("idempotency: unknown action %q", action)
\t}
\tvalues := make([]any, len(signature.Fields))
\tfor i, field := range signature.Fields {
\t\tvalues[i] = valueAt(body, field)
\t}
\tcanonical, err := CanonicalJSON(values)
\tif err != nil {
\t\treturn "", err
\t}
\tif path == "" {
\t\tpath = signature.Path
\t}
\treturn FingerprintParts(signature.Method, path, "fields", sha256Hex(canonical)), nil
}
`;
}

/**
 * `provider_keys.go`, or undefined without payment providers.
 * @example providerKeysGo(plan)?.includes('func PaypalRequestID(')
 */
export function providerKeysGo(plan: Plan): string | undefined {
  const providers = new Set([...plan.answers.paymentProviders, ...plan.actions.flatMap((a) => (a.action.provider ? [a.action.provider] : []))]);
  if (providers.size === 0) return undefined;
  const imports = new Set<string>(['fmt']);
  if (providers.has('adyen')) ['crypto/sha256', 'encoding/base64'].forEach((name) => imports.add(name));
  if (providers.has('paypal')) ['crypto/sha1', 'encoding/hex', 'strings'].forEach((name) => imports.add(name));
  const importBlock = [...imports].sort().map((name) => `\t"${name}"`).join('\n');
  const out: string[] = [`// Provider-side keys derived deterministically from the local key: a retry never mints a fresh
// provider reference, so the provider deduplicates the same logical request the local store does.
package idempotency

import (
${importBlock}
)

// FullKey is {scope}_{action}_{intent}: scope included, because provider keys are account-wide.
func FullKey(scope, storedKey string) string {
\treturn fmt.Sprintf("%s_%s", scope, storedKey)
}
`];
  if (providers.has('stripe')) out.push(`
// StripeIdempotencyKey: max 255 characters; Stripe keeps keys for at least 24 hours.
func StripeIdempotencyKey(key string) string {
\tif len(key) <= 255 {
\t\treturn key
\t}
\treturn "sha256-" + sha256Hex(key)
}
`);
  if (providers.has('adyen')) out.push(`
// AdyenIdempotencyKey: max 64 characters; longer keys map to their SHA-256 hex (exactly 64).
func AdyenIdempotencyKey(key string) string {
\tif len(key) <= 64 {
\t\treturn key
\t}
\treturn sha256Hex(key)
}

// AdyenReference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 characters.
func AdyenReference(key string, step int) string {
\tdirect := fmt.Sprintf("%s_%d", key, step)
\tif len(direct) <= 80 {
\t\treturn direct
\t}
\tsum := sha256.Sum256([]byte(key))
\treturn fmt.Sprintf("%s_%d", base64.RawURLEncoding.EncodeToString(sum[:]), step)
}
`);
  if (providers.has('paypal')) out.push(`
// PaypalNamespace is fixed for this service forever: changing it changes every PayPal-Request-Id.
const PaypalNamespace = "${plan.paypalNamespace}"

// PaypalRequestID is UUIDv5(namespace, key) per RFC 4122.
func PaypalRequestID(key string) string {
\tnamespace, err := hex.DecodeString(strings.ReplaceAll(PaypalNamespace, "-", ""))
\tif err != nil || len(namespace) != 16 {
\t\tpanic("idempotency: invalid PayPal namespace")
\t}
\thash := sha1.New()
\thash.Write(namespace)
\thash.Write([]byte(key))
\tsum := hash.Sum(nil)
\tsum[6] = (sum[6] & 0x0f) | 0x50
\tsum[8] = (sum[8] & 0x3f) | 0x80
\treturn fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}
`);
  if (providers.has('bank-transfer')) out.push(`
// EndToEndID is the ISO 20022 EndToEndId (max 35): the first 35 hex chars of SHA-256(key).
func EndToEndID(key string) string {
\treturn sha256Hex(key)[:35]
}
`);
  return out.join('');
}
