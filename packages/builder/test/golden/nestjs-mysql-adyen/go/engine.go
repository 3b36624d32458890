// Idempotency engine: claim -> run -> store -> replay. The store decides every time question with
// its own clock; every write after the claim is fenced by the lock version (the fencing token).
package idempotency

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Response is a stored response: status code (0 = none), allow-listed headers (nil = none), what
// the body bytes are (encoding, e.g. "json") and the bytes themselves.
type Response struct {
	StatusCode int
	Headers    map[string]string
	Encoding   string
	Body       []byte
}

// Record is a stored record; times are ms since the epoch on the store clock (0 = not set).
type Record struct {
	Key         string
	Scope       string
	Owner       *string
	Fingerprint string
	Status      string
	LockVersion int64
	LockedUntil int64
	CreatedAt   int64
	CompletedAt int64
	ExpiresAt   int64
	Response    *Response
}

// ClaimInput is one claim: Owner (nil = none) is who may take over an orphan; ReplaceExpired lets
// the claim replace an expired COMPLETED/FAILED record instead of answering it.
type ClaimInput struct {
	Key            string
	Scope          string
	Fingerprint    string
	Owner          *string
	LeaseMs        int64
	TTLMs          int64
	ReplaceExpired bool
}

// Claimed: this caller holds the key until its lease ends (extended by the heartbeat).
type Claimed struct {
	Key             string
	Scope           string
	LockVersion     int64
	Reclaimed       bool
	ReplacedExpired bool
}

// Existing: the record that holds the key, read with the store clock at the same instant.
type Existing struct {
	Record Record
	Now    int64
}

// RetryAfterMs is how long the current lease still runs.
func (e *Existing) RetryAfterMs() int64 {
	if e.Record.LockedUntil <= e.Now {
		return 0
	}
	return e.Record.LockedUntil - e.Now
}

// Store is the runtime's store contract: each method one atomic operation, every time comparison
// on the store clock, every write after the claim fenced by the lock version ("lost" = false).
type Store interface {
	Claim(ctx context.Context, in ClaimInput) (*Claimed, *Existing, error)
	Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error)
	Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error)
	Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error)
	Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error)
	Get(ctx context.Context, key, scope string) (*Record, error)
	ForceRelease(ctx context.Context, key, scope string) (bool, error)
	PurgeExpired(ctx context.Context, batchSize int) (int64, error)
	ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error)
}

// Answer is what goes back to the caller: a fresh result, a replay, or a problem.
type Answer struct {
	Status      int
	Body        []byte
	Replayed    bool
	RetryAfterS int64
	ProblemCode string
}

// PermanentError is stored and replayed (declined card, invalid request), never retried.
type PermanentError struct {
	Status  int
	Message string
}

func (e *PermanentError) Error() string { return e.Message }

var (
	keyPattern  = regexp.MustCompile(`^[A-Za-z0-9_.:~-]{1,255}$`)
	uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$`)
	ulidPattern = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)
)

// Problem builds the runtime's application/problem+json answer for a refusal code. Its text is
// fixed per code: a problem never echoes the request, the key or a fingerprint.
func Problem(code string, retryAfterMs int64) Answer {
	spec, ok := Project.Problems[code]
	if !ok {
		spec = ProblemData{Status: 500, Title: "Unexpected idempotency problem."}
	}
	body, _ := CanonicalJSON(map[string]any{"type": Project.ProblemTypeBase + code, "title": spec.Title, "status": spec.Status, "code": code})
	answer := Answer{Status: spec.Status, Body: []byte(body), ProblemCode: code}
	if retryAfterMs > 0 {
		// Whole seconds, rounded up and never 0: 0 invites a hot retry loop.
		answer.RetryAfterS = (retryAfterMs + 999) / 1000
	}
	return answer
}

// failure is the stored answer of a permanent error (RFC 9457 about:blank with the error's text).
func failure(err *PermanentError) Answer {
	body, _ := CanonicalJSON(map[string]any{"type": "about:blank", "title": err.Message, "status": err.Status})
	return Answer{Status: err.Status, Body: []byte(body), ProblemCode: "failed"}
}

// ValidateIntent accepts the client's Idempotency-Key: a UUID (lower-cased) or a ULID.
func ValidateIntent(header string) (string, *Answer) {
	switch {
	case header == "":
		answer := Problem("key_required", 0)
		return "", &answer
	case uuidPattern.MatchString(header):
		return strings.ToLower(header), nil
	case ulidPattern.MatchString(header):
		return header, nil
	}
	answer := Problem("invalid_key", 0)
	return "", &answer
}

// Begin claims the key or answers the duplicate (replay, in progress, fingerprint mismatch).
func Begin(ctx context.Context, store Store, action, intent, scope, fingerprint string) (*Claimed, *Answer, error) {
	key := action + "_" + intent
	if !keyPattern.MatchString(key) {
		answer := Problem("invalid_key", 0)
		return nil, &answer, nil
	}
	policy, ok := Project.Actions[action]
	if !ok {
		return nil, nil, fmt.Errorf("idempotency: unknown action %q", action)
	}
	claimed, existing, err := store.Claim(ctx, ClaimInput{Key: key, Scope: scope, Fingerprint: fingerprint,
		LeaseMs: policy.LeaseMs, TTLMs: policy.TTLMs, ReplaceExpired: true})
	if err != nil || claimed != nil {
		return claimed, nil, err
	}
	// Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
	record := existing.Record
	if subtle.ConstantTimeCompare([]byte(record.Fingerprint), []byte(fingerprint)) != 1 {
		answer := Problem("fingerprint_mismatch", 0)
		return nil, &answer, nil
	}
	if (record.Status == "COMPLETED" || record.Status == "FAILED") && record.Response != nil {
		return nil, &Answer{Status: record.Response.StatusCode, Body: record.Response.Body, Replayed: true}, nil
	}
	answer := Problem("in_progress", maxInt64(existing.RetryAfterMs(), 1))
	return nil, &answer, nil
}

// jsonResponse is how the engine stores an answer: its status and JSON body.
func jsonResponse(answer Answer) Response {
	return Response{StatusCode: answer.Status, Encoding: "json", Body: answer.Body}
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// heartbeat extends the lease every lease/3 and cancels ctx when the lease is lost.
func heartbeat(ctx context.Context, cancel context.CancelFunc, store Store, claim Claimed, leaseMs int64, lost *bool) {
	ticker := time.NewTicker(time.Duration(maxInt64(leaseMs/3, 1)) * time.Millisecond)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			if ok, err := store.Extend(ctx, claim.Key, claim.Scope, claim.LockVersion, leaseMs); err == nil && !ok {
				*lost = true
				cancel()
				return
			}
		}
	}
}

// Run is the whole flow: claim, run execute once (its ctx is cancelled if the lease is lost), store, replay.
func Run(ctx context.Context, store Store, action, intent, scope, fingerprint string,
	execute func(ctx context.Context) (int, []byte, error)) (Answer, error) {
	claimed, answer, err := Begin(ctx, store, action, intent, scope, fingerprint)
	if err != nil || answer != nil {
		if answer != nil {
			return *answer, err
		}
		return Answer{}, err
	}
	policy := Project.Actions[action]
	runCtx, cancel := context.WithCancel(ctx)
	lost := false
	done := make(chan struct{})
	go func() {
		heartbeat(runCtx, cancel, store, *claimed, policy.LeaseMs, &lost)
		close(done)
	}()
	status, body, runErr := execute(runCtx)
	cancel()
	<-done
	if lost {
		// A newer attempt holds the key: never overwrite it (409, like the runtime's adapters).
		return Problem("lease_lost", 1000), nil
	}
	var permanent *PermanentError
	if errors.As(runErr, &permanent) {
		failed := failure(permanent)
		applied, err := store.Fail(ctx, claimed.Key, claimed.Scope, claimed.LockVersion, jsonResponse(failed), policy.TTLMs)
		if err == nil && !applied {
			return Problem("lease_lost", 1000), nil
		}
		return failed, err
	}
	if runErr != nil || status >= 500 {
		// Transient: release so the same key can run again at once.
		if _, err := store.Release(ctx, claimed.Key, claimed.Scope, claimed.LockVersion); err != nil {
			return Answer{}, err
		}
		return Answer{Status: status, Body: body}, runErr
	}
	applied, err := store.Complete(ctx, claimed.Key, claimed.Scope, claimed.LockVersion, jsonResponse(Answer{Status: status, Body: body}), policy.TTLMs)
	if err != nil {
		return Answer{}, err
	}
	if !applied {
		return Problem("lease_lost", 1000), nil
	}
	return Answer{Status: status, Body: body}, nil
}

// ProcessMessage runs a consumer action: "ack" after the outcome is stored, "retry-later" while
// another worker holds it (never drop it), "dead-letter" for a reused event id or a stored failure.
func ProcessMessage(ctx context.Context, store Store, action, eventID, scope, fingerprint string,
	execute func(ctx context.Context) error) (string, error) {
	answer, err := Run(ctx, store, action, eventID, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
		return 200, []byte("null"), execute(ctx)
	})
	switch {
	case err != nil:
		return "retry-later", err
	case answer.Status < 300:
		return "ack", nil
	case answer.ProblemCode == "fingerprint_mismatch" || (answer.Replayed && answer.Status >= 400):
		return "dead-letter", nil
	}
	return "retry-later", nil
}
