//go:build gin

// Gin glue (build with -tags gin): handlers return (status, body, error) and run once per key.
package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"

	"github.com/gin-gonic/gin"
)

// Gin protects one action: router.POST("/payments", idempotency.Gin(store, "createPayment", userID, createPayment)).
func Gin(store Store, action string, scopeOf func(*gin.Context) string, handle func(*gin.Context) (int, any, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		intent, problem := ValidateIntent(c.GetHeader("Idempotency-Key"))
		if problem != nil {
			sendGin(c, *problem)
			return
		}
		scope := scopeOf(c)
		if scope == "" {
			sendGin(c, Problem("unauthenticated", 0))
			return
		}
		raw, _ := c.GetRawData()
		// GetRawData drains the body: put it back so the handler can still bind it (c.ShouldBindJSON).
		c.Request.Body = io.NopCloser(bytes.NewReader(raw))
		var body any
		if len(raw) > 0 && json.Unmarshal(raw, &body) != nil {
			sendGin(c, Problem("invalid_body", 0))
			return
		}
		fingerprint, err := FingerprintRequest(action, body, c.Request.URL.Path, c.Request.URL.RawQuery)
		if err == ErrUnhashable {
			sendGin(c, Problem("invalid_body", 0))
			return
		}
		if err != nil {
			sendGin(c, Problem("invalid_options", 0))
			return
		}
		answer, err := Run(c.Request.Context(), store, action, intent, scope, fingerprint, func(ctx context.Context) (int, []byte, error) {
			status, result, err := handle(c)
			if err != nil {
				return status, nil, err
			}
			encoded, err := json.Marshal(result)
			return status, encoded, err
		})
		if err != nil && answer.Status == 0 {
			sendGin(c, Problem("store_unavailable", 1000))
			return
		}
		sendGin(c, answer)
	}
}

func sendGin(c *gin.Context, answer Answer) {
	if answer.Replayed {
		c.Header("Idempotent-Replayed", "true")
	}
	if answer.RetryAfterS > 0 {
		c.Header("Retry-After", strconv.FormatInt(answer.RetryAfterS, 10))
	}
	contentType := "application/json"
	if answer.ProblemCode != "" {
		contentType = "application/problem+json"
		c.Header("Cache-Control", "no-store")
	}
	c.Data(answer.Status, contentType, answer.Body)
}
