/**
 * Generated Go: the engine (claim → run → store → replay) with a heartbeat, and the net/http
 * middleware (plus a Gin variant behind the `gin` build tag).
 */
import type { Plan } from '../../design/plan/plan.js';

/**
 * `engine.go`.
 * @example engineGo(plan).includes('func Run(')
 */
export function engineGo(plan: Plan): string {
  const width = Math.max(...plan.actions.map((a) => JSON.stringify(a.action.name).length + 1));
  // gofmt aligns the values of consecutive map entries.
  const policies = plan.actions.map((a) => `\t${`${JSON.stringify(a.action.name)}:`.padEnd(width)} {LeaseMs: ${a.lease.leaseMs}, TTLMs: ${a.retention.ttlMs}},`).join('\n');
  return `// Idempotency engine: claim -> run -> store -> replay. The store decides every time question with
// the database clock; every write after the claim is fenced by the lock version.
package idempotency

import (
\t"context"
\t"crypto/subtle"
\t"errors"
\t"fmt"
\t"regexp"
\t"strings"
\t"time"
)

// Policy is an action's lock timeout (lease) and key expiry (retention).
type Policy struct {
\tLeaseMs int64
\tTTLMs   int64
}

// Policies per protected action (design document, sections 4 and 5).
var Policies = map[string]Policy{
${policies}
}

// Claimed: this caller holds the key until its lease ends (extended by the heartbeat).
type Claimed struct {
\tKey         string
\tScope       string
\tLockVersion int64
\tReclaimed   bool
}

// Existing: someone else's record for the key.
type Existing struct {
\tStatus       string
\tFingerprint  string
\tResponseCode int
\tResponseBody []byte
\tRetryAfterMs int64
}

// Answer is what goes back to the caller: a fresh result, a replay, or a problem.
type Answer struct {
\tStatus      int
\tBody        []byte
\tReplayed    bool
\tRetryAfterS int64
\tProblemCode string
}

// Store is the idempotency store contract: each method one atomic operation.
type Store interface {
\tClaim(ctx context.Context, key, scope, fingerprint string, leaseMs, ttlMs int64) (*Claimed, *Existing, error)
\tFinish(ctx context.Context, claim Claimed, status string, code int, body []byte, ttlMs int64) (bool, error)
\tRelease(ctx context.Context, claim Claimed) (bool, error)
\tExtend(ctx context.Context, claim Claimed, leaseMs int64) (bool, error)
}

// PermanentError is stored and replayed (declined card, invalid request), never retried.
type PermanentError struct {
\tStatus  int
\tMessage string
}

func (e *PermanentError) Error() string { return e.Message }

var (
\tkeyPattern  = regexp.MustCompile(\`^[A-Za-z0-9_.:~-]{1,255}$\`)
\tuuidPattern = regexp.MustCompile(\`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$\`)
\tulidPattern = regexp.MustCompile(\`^[0-7][0-9A-HJKMNP-TV-Z]{25}$\`)
)

// Problem builds an application/problem+json answer. A 409 never echoes the original request.
func Problem(status int, code, detail string, retryAfterS int64) Answer {
\tbody := fmt.Sprintf(\`{"type":"urn:idempotency:%s","title":%q,"status":%d,"code":%q,"detail":%q}\`,
\t\tcode, strings.ReplaceAll(code, "_", " "), status, code, detail)
\treturn Answer{Status: status, Body: []byte(body), RetryAfterS: retryAfterS, ProblemCode: code}
}

// ValidateIntent accepts the client's Idempotency-Key: a UUID (lower-cased) or a ULID.
func ValidateIntent(header string) (string, *Answer) {
\tswitch {
\tcase header == "":
\t\tanswer := Problem(400, "missing_key", "Send an Idempotency-Key header: a UUIDv4 generated once per intent.", 0)
\t\treturn "", &answer
\tcase uuidPattern.MatchString(header):
\t\treturn strings.ToLower(header), nil
\tcase ulidPattern.MatchString(header):
\t\treturn header, nil
\t}
\tanswer := Problem(400, "invalid_key", "The Idempotency-Key must be a UUID (v4) or a ULID.", 0)
\treturn "", &answer
}

// Begin claims the key or answers the duplicate (replay, in progress, fingerprint mismatch).
func Begin(ctx context.Context, store Store, action, intent, scope, fingerprint string) (*Claimed, *Answer, error) {
\tkey := action + "_" + intent
\tif !keyPattern.MatchString(key) {
\t\tanswer := Problem(400, "invalid_key", "The idempotency key is too long or has characters outside [A-Za-z0-9_.:~-].", 0)
\t\treturn nil, &answer, nil
\t}
\tpolicy, ok := Policies[action]
\tif !ok {
\t\treturn nil, nil, fmt.Errorf("idempotency: unknown action %q", action)
\t}
\tclaimed, existing, err := store.Claim(ctx, key, scope, fingerprint, policy.LeaseMs, policy.TTLMs)
\tif err != nil || claimed != nil {
\t\treturn claimed, nil, err
\t}
\t// Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
\tif subtle.ConstantTimeCompare([]byte(existing.Fingerprint), []byte(fingerprint)) != 1 {
\t\tanswer := Problem(409, "fingerprint_mismatch", "This idempotency key was already used with different request parameters.", 0)
\t\treturn nil, &answer, nil
\t}
\tif existing.Status == "COMPLETED" || existing.Status == "FAILED" {
\t\treturn nil, &Answer{Status: existing.ResponseCode, Body: existing.ResponseBody, Replayed: true}, nil
\t}
\tseconds := (existing.RetryAfterMs + 999) / 1000
\tif seconds < 1 {
\t\tseconds = 1
\t}
\tanswer := Problem(409, "in_progress", "A request with this idempotency key is still being processed.", seconds)
\treturn nil, &answer, nil
}

// heartbeat extends the lease every lease/3 and cancels ctx when the lease is lost.
func heartbeat(ctx context.Context, cancel context.CancelFunc, store Store, claim Claimed, leaseMs int64, lost *bool) {
\tticker := time.NewTicker(time.Duration(leaseMs/3) * time.Millisecond)
\tdefer ticker.Stop()
\tfor {
\t\tselect {
\t\tcase <-ctx.Done():
\t\t\treturn
\t\tcase <-ticker.C:
\t\t\tif ok, err := store.Extend(ctx, claim, leaseMs); err == nil && !ok {
\t\t\t\t*lost = true
\t\t\t\tcancel()
\t\t\t\treturn
\t\t\t}
\t\t}
\t}
}

// Run is the whole flow: claim, run execute once (its ctx is cancelled if the lease is lost), store, replay.
func Run(ctx context.Context, store Store, action, intent, scope, fingerprint string,
\texecute func(ctx context.Context) (int, []byte, error)) (Answer, error) {
\tclaimed, answer, err := Begin(ctx, store, action, intent, scope, fingerprint)
\tif err != nil || answer != nil {
\t\tif answer != nil {
\t\t\treturn *answer, err
\t\t}
\t\treturn Answer{}, err
\t}
\tpolicy := Policies[action]
\trunCtx, cancel := context.WithCancel(ctx)
\tlost := false
\tdone := make(chan struct{})
\tgo func() {
\t\theartbeat(runCtx, cancel, store, *claimed, policy.LeaseMs, &lost)
\t\tclose(done)
\t}()
\tstatus, body, runErr := execute(runCtx)
\tcancel()
\t<-done
\tif lost {
\t\treturn Problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1), nil
\t}
\tvar permanent *PermanentError
\tif errors.As(runErr, &permanent) {
\t\tfailed := Problem(permanent.Status, "failed", permanent.Message, 0)
\t\t_, err := store.Finish(ctx, *claimed, "FAILED", failed.Status, failed.Body, policy.TTLMs)
\t\treturn failed, err
\t}
\tif runErr != nil || status >= 500 {
\t\t// Transient: release so the same key can run again at once.
\t\tif _, err := store.Release(ctx, *claimed); err != nil {
\t\t\treturn Answer{}, err
\t\t}
\t\treturn Answer{Status: status, Body: body}, runErr
\t}
\tapplied, err := store.Finish(ctx, *claimed, "COMPLETED", status, body, policy.TTLMs)
\tif err != nil {
\t\treturn Answer{}, err
\t}
\tif !applied {
\t\treturn Problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1), nil
\t}
\treturn Answer{Status: status, Body: body}, nil
}

// ProcessMessage runs a consumer action: "ack" after the outcome is stored, "retry-later" while
// another worker holds it (never drop it), "dead-letter" for a reused event id or a stored failure.
func ProcessMessage(ctx context.Context, store Store, action, eventID, scope, fingerprint string,
\texecute func(ctx context.Context) error) (string, error) {
\tanswer, err := Run(ctx, store, action, eventID, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
\t\treturn 200, []byte("null"), execute(ctx)
\t})
\tswitch {
\tcase err != nil:
\t\treturn "retry-later", err
\tcase answer.Status < 300:
\t\treturn "ack", nil
\tcase answer.ProblemCode == "fingerprint_mismatch" || (answer.Replayed && answer.Status >= 400):
\t\treturn "dead-letter", nil
\t}
\treturn "retry-later", nil
}
`;
}
