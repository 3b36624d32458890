/**
 * Generated Go web glue: net/http middleware (stdlib) and a Gin handler wrapper behind the `gin`
 * build tag, so the package builds without Gin installed.
 */

/**
 * `middleware.go`: net/http.
 * @example middlewareGo().includes('func Middleware(')
 */
export function middlewareGo(): string {
  return `// net/http middleware: runs the wrapped handler once per idempotency key, stores its status and
// JSON body, and replays them to duplicates. scopeOf returns the authenticated user id.
package idempotency

import (
\t"bytes"
\t"encoding/json"
\t"io"
\t"net/http"
\t"strconv"
)

type recorder struct {
\theader http.Header
\tstatus int
\tbody   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(status int)      { r.status = status }

func writeAnswer(w http.ResponseWriter, answer Answer) {
\tif answer.ProblemCode != "" {
\t\tw.Header().Set("Content-Type", "application/problem+json")
\t} else {
\t\tw.Header().Set("Content-Type", "application/json")
\t}
\tif answer.Replayed {
\t\tw.Header().Set("Idempotent-Replayed", "true")
\t}
\tif answer.RetryAfterS > 0 {
\t\tw.Header().Set("Retry-After", strconv.FormatInt(answer.RetryAfterS, 10))
\t}
\tw.WriteHeader(answer.Status)
\t_, _ = w.Write(answer.Body)
}

// Middleware protects one action: mux.Handle("/payments", idempotency.Middleware(store, "createPayment", userID)(handler)).
func Middleware(store Store, action string, scopeOf func(*http.Request) string) func(http.Handler) http.Handler {
\treturn func(next http.Handler) http.Handler {
\t\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
\t\t\tintent, problem := ValidateIntent(r.Header.Get("Idempotency-Key"))
\t\t\tif problem != nil {
\t\t\t\twriteAnswer(w, *problem)
\t\t\t\treturn
\t\t\t}
\t\t\tscope := scopeOf(r)
\t\t\tif scope == "" {
\t\t\t\twriteAnswer(w, Problem(401, "unauthenticated", "Idempotent requests need an authenticated caller.", 0))
\t\t\t\treturn
\t\t\t}
\t\t\traw, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
\t\t\tif err != nil {
\t\t\t\twriteAnswer(w, Problem(400, "invalid_body", "The request body could not be read.", 0))
\t\t\t\treturn
\t\t\t}
\t\t\tr.Body = io.NopCloser(bytes.NewReader(raw))
\t\t\tvar body map[string]any
\t\t\t_ = json.Unmarshal(raw, &body)
\t\t\tfingerprint, err := Fingerprint(action, body, r.URL.Path)
\t\t\tif err != nil {
\t\t\t\thttp.Error(w, err.Error(), http.StatusInternalServerError)
\t\t\t\treturn
\t\t\t}
\t\t\tanswer, err := Run(r.Context(), store, action, intent, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
\t\t\t\trec := &recorder{header: w.Header(), status: http.StatusOK}
\t\t\t\tnext.ServeHTTP(rec, r.WithContext(ctx))
\t\t\t\tif !json.Valid(rec.body.Bytes()) {
\t\t\t\t\tquoted, _ := json.Marshal(rec.body.String())
\t\t\t\t\treturn rec.status, quoted, nil
\t\t\t\t}
\t\t\t\treturn rec.status, rec.body.Bytes(), nil
\t\t\t})
\t\t\tif err != nil && answer.Status == 0 {
\t\t\t\twriteAnswer(w, Problem(503, "store_unavailable", "The request could not be protected right now; retry with the same key.", 1))
\t\t\t\treturn
\t\t\t}
\t\t\twriteAnswer(w, answer)
\t\t})
\t}
}
`.replace('import (\n\t"bytes"', 'import (\n\t"bytes"\n\t"context"');
}

/**
 * `gin.go`: compiled only with `-tags gin`.
 * @example ginGo().includes('//go:build gin')
 */
export function ginGo(): string {
  return `//go:build gin

// Gin glue (build with -tags gin): handlers return (status, body, error) and run once per key.
package idempotency

import (
\t"context"
\t"encoding/json"
\t"strconv"

\t"github.com/gin-gonic/gin"
)

// Gin protects one action: router.POST("/payments", idempotency.Gin(store, "createPayment", userID, createPayment)).
func Gin(store Store, action string, scopeOf func(*gin.Context) string, handle func(*gin.Context) (int, any, error)) gin.HandlerFunc {
\treturn func(c *gin.Context) {
\t\tintent, problem := ValidateIntent(c.GetHeader("Idempotency-Key"))
\t\tif problem != nil {
\t\t\tsendGin(c, *problem)
\t\t\treturn
\t\t}
\t\tscope := scopeOf(c)
\t\tif scope == "" {
\t\t\tsendGin(c, Problem(401, "unauthenticated", "Idempotent requests need an authenticated caller.", 0))
\t\t\treturn
\t\t}
\t\traw, _ := c.GetRawData()
\t\tvar body map[string]any
\t\t_ = json.Unmarshal(raw, &body)
\t\tfingerprint, err := Fingerprint(action, body, c.Request.URL.Path)
\t\tif err != nil {
\t\t\t_ = c.AbortWithError(500, err)
\t\t\treturn
\t\t}
\t\tanswer, err := Run(c.Request.Context(), store, action, intent, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
\t\t\tstatus, result, err := handle(c)
\t\t\tif err != nil {
\t\t\t\treturn status, nil, err
\t\t\t}
\t\t\tencoded, err := json.Marshal(result)
\t\t\treturn status, encoded, err
\t\t})
\t\tif err != nil && answer.Status == 0 {
\t\t\tsendGin(c, Problem(503, "store_unavailable", "The request could not be protected right now; retry with the same key.", 1))
\t\t\treturn
\t\t}
\t\tsendGin(c, answer)
\t}
}

func sendGin(c *gin.Context, answer Answer) {
\tif answer.Replayed {
\t\tc.Header("Idempotent-Replayed", "true")
\t}
\tif answer.RetryAfterS > 0 {
\t\tc.Header("Retry-After", strconv.FormatInt(answer.RetryAfterS, 10))
\t}
\tcontentType := "application/json"
\tif answer.ProblemCode != "" {
\t\tcontentType = "application/problem+json"
\t}
\tc.Data(answer.Status, contentType, answer.Body)
}
`;
}
