// net/http middleware: runs the wrapped handler once per idempotency key, stores its status and
// JSON body, and replays them to duplicates. scopeOf returns the authenticated user id.
package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
)

type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(status int)      { r.status = status }

func writeAnswer(w http.ResponseWriter, answer Answer) {
	if answer.ProblemCode != "" {
		w.Header().Set("Content-Type", "application/problem+json")
		// A refusal is about this moment (a lease, a conflict): no cache may keep it.
		w.Header().Set("Cache-Control", "no-store")
	} else {
		w.Header().Set("Content-Type", "application/json")
	}
	if answer.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	if answer.RetryAfterS > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(answer.RetryAfterS, 10))
	}
	w.WriteHeader(answer.Status)
	_, _ = w.Write(answer.Body)
}

// Middleware protects one action: mux.Handle("/payments", idempotency.Middleware(store, "createPayment", userID)(handler)).
func Middleware(store Store, action string, scopeOf func(*http.Request) string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			intent, problem := ValidateIntent(r.Header.Get("Idempotency-Key"))
			if problem != nil {
				writeAnswer(w, *problem)
				return
			}
			scope := scopeOf(r)
			if scope == "" {
				writeAnswer(w, Problem("unauthenticated", 0))
				return
			}
			raw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			var body any // nil when no body was sent: fingerprinted as "none", not as {}
			if err != nil || (len(raw) > 0 && json.Unmarshal(raw, &body) != nil) {
				// A body the fingerprint cannot read: answered 400, nothing claimed.
				writeAnswer(w, Problem("invalid_body", 0))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(raw))
			fingerprint, err := FingerprintRequest(action, body, r.URL.Path, r.URL.RawQuery)
			if err == ErrUnhashable {
				writeAnswer(w, Problem("invalid_body", 0))
				return
			}
			if err != nil {
				writeAnswer(w, Problem("invalid_options", 0))
				return
			}
			answer, err := Run(r.Context(), store, action, intent, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
				rec := &recorder{header: w.Header(), status: http.StatusOK}
				next.ServeHTTP(rec, r.WithContext(ctx))
				if !json.Valid(rec.body.Bytes()) {
					quoted, _ := json.Marshal(rec.body.String())
					return rec.status, quoted, nil
				}
				return rec.status, rec.body.Bytes(), nil
			})
			if err != nil && answer.Status == 0 {
				writeAnswer(w, Problem("store_unavailable", 1000))
				return
			}
			writeAnswer(w, answer)
		})
	}
}
