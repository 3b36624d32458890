// Idempotency store on Redis: the runtime's Lua scripts (project.json), one per operation, atomic
// on the server and timed by the server clock (TIME). The key layout is the runtime's, so every key
// of one record shares a Redis Cluster hash slot and TypeScript services can share the store. A
// PROCESSING record never gets a Redis expiry: only complete/fail set one.
package idempotency

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Doer sends one command and returns its reply ([]any for arrays, []byte or string for bulk
// strings, int64 for integers, nil for nil). With redigo: conn.Do(command, args...); with go-redis:
// rdb.Do(ctx, append([]any{command}, args...)...).Result().
type Doer func(ctx context.Context, command string, args ...any) (any, error)

// recordFields are the hash fields in the order the claim script answers them.
var recordFields = []string{"k", "sp", "o", "fp", "s", "v", "lu", "ca", "cpa", "ea", "sc", "hd", "en", "b"}

// RedisStore implements Store on Redis. Prefix defaults to project.json's keyPrefix.
type RedisStore struct {
	Do     Doer
	Prefix string
}

func (s *RedisStore) prefix() string {
	if s.Prefix == "" {
		return Project.KeyPrefix
	}
	return s.Prefix
}

// eval runs one of the runtime's scripts (EVAL: Redis caches it by its SHA-1 after the first call).
func (s *RedisStore) eval(ctx context.Context, name string, keys []string, args ...any) (any, error) {
	command := append([]any{script(name), len(keys)}, toAny(keys)...)
	return s.Do(ctx, "EVAL", append(command, args...)...)
}

func toAny(values []string) []any {
	out := make([]any, len(values))
	for i, value := range values {
		out[i] = value
	}
	return out
}

// keys are the record hash and its fence, both tagged {scope|key}: "%", "{", "}" and "|" in the
// scope are escaped so the tag stays unambiguous and inside one pair of braces.
func (s *RedisStore) keys(scope, key string) []string {
	escaped := strings.NewReplacer("%", "%25", "{", "%7B", "}", "%7D", "|", "%7C").Replace(scope)
	prefix := s.prefix()
	tag := "{" + escaped + "|" + key + "}"
	return []string{prefix + "r:" + tag, prefix + "f:" + tag}
}

func script(name string) string {
	source, ok := Project.Scripts[name]
	if !ok {
		panic(fmt.Sprintf("idempotency: project.json has no %q script", name))
	}
	return source
}

func text(value any) string {
	switch v := value.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}

func number(value any) int64 {
	n, _ := strconv.ParseInt(text(value), 10, 64)
	return n
}

func optionalNumber(value any) int64 {
	if value == nil {
		return 0
	}
	return number(value)
}

func redisRecord(values []any) *Record {
	if len(values) < len(recordFields) || values[4] == nil {
		return nil
	}
	record := &Record{Key: text(values[0]), Scope: text(values[1]), Fingerprint: text(values[3]), Status: text(values[4]),
		LockVersion: number(values[5]), LockedUntil: optionalNumber(values[6]), CreatedAt: optionalNumber(values[7]),
		CompletedAt: optionalNumber(values[8]), ExpiresAt: optionalNumber(values[9])}
	if values[2] != nil {
		owner := text(values[2])
		record.Owner = &owner
	}
	if values[12] != nil {
		response := &Response{StatusCode: int(optionalNumber(values[10])), Encoding: text(values[12]), Body: []byte(text(values[13]))}
		if values[11] != nil {
			_ = json.Unmarshal([]byte(text(values[11])), &response.Headers)
		}
		record.Response = response
	}
	return record
}

// Claim runs claim.lua: insert, take over an orphan or an expired record, or return the existing one.
func (s *RedisStore) Claim(ctx context.Context, in ClaimInput) (*Claimed, *Existing, error) {
	hasOwner, owner, replace := "0", "", "0"
	if in.Owner != nil {
		hasOwner, owner = "1", *in.Owner
	}
	if in.ReplaceExpired {
		replace = "1"
	}
	result, err := s.eval(ctx, "claim", s.keys(in.Scope, in.Key), in.Fingerprint, hasOwner, owner, in.LeaseMs, in.TTLMs, replace, in.Key, in.Scope)
	if err != nil {
		return nil, nil, err
	}
	parts, ok := result.([]any)
	if ok && len(parts) >= 4 && text(parts[0]) == "claimed" {
		return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: number(parts[1]), Reclaimed: number(parts[2]) == 1, ReplacedExpired: number(parts[3]) == 1}, nil, nil
	}
	if ok && len(parts) == 3 && text(parts[0]) == "existing" {
		fields, _ := parts[2].([]any)
		if record := redisRecord(fields); record != nil {
			return nil, &Existing{Record: *record, Now: number(parts[1])}, nil
		}
	}
	return nil, nil, fmt.Errorf("idempotency: unexpected claim reply %v", result)
}

func (s *RedisStore) applied(ctx context.Context, name string, keys []string, args ...any) (bool, error) {
	result, err := s.eval(ctx, name, keys, args...)
	return err == nil && text(result) == "applied", err
}

func (s *RedisStore) finish(ctx context.Context, name, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	code, headers := "", ""
	if response.StatusCode != 0 {
		code = strconv.Itoa(response.StatusCode)
	}
	if response.Headers != nil {
		encoded, _ := json.Marshal(response.Headers)
		headers = string(encoded)
	}
	// ARGV: lockVersion, ttlMs, keepExpiredMs, encoding, body, status code, headers.
	return s.applied(ctx, name, s.keys(scope, key)[:1], lockVersion, ttlMs, Project.KeepExpiredMs, response.Encoding, response.Body, code, headers)
}

// Complete moves PROCESSING to COMPLETED, fenced by the lock version.
func (s *RedisStore) Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "complete", key, scope, lockVersion, response, ttlMs)
}

// Fail moves PROCESSING to FAILED (a permanent error, replayed), fenced by the lock version.
func (s *RedisStore) Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "fail", key, scope, lockVersion, response, ttlMs)
}

// Release deletes the claim after a transient failure; the fence keeps its lock version.
func (s *RedisStore) Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error) {
	return s.applied(ctx, "release", s.keys(scope, key), lockVersion, Project.KeepExpiredMs)
}

// Extend is the heartbeat.
func (s *RedisStore) Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	return s.applied(ctx, "extend", s.keys(scope, key)[:1], lockVersion, leaseMs)
}

// Get reads the record as stored; nil when absent.
func (s *RedisStore) Get(ctx context.Context, key, scope string) (*Record, error) {
	result, err := s.Do(ctx, "HMGET", append([]any{s.keys(scope, key)[0]}, toAny(recordFields)...)...)
	if err != nil {
		return nil, err
	}
	values, _ := result.([]any)
	return redisRecord(values), nil
}

// ForceRelease is the runbook's manual release: ends the lease now and bumps the lock version.
func (s *RedisStore) ForceRelease(ctx context.Context, key, scope string) (bool, error) {
	return s.applied(ctx, "forceRelease", s.keys(scope, key)[:1])
}

// scan visits every record hash of this prefix (SCAN, never KEYS: it does not block the server).
func (s *RedisStore) scan(ctx context.Context, visit func(key string) (bool, error)) error {
	pattern := strings.NewReplacer("*", "\\*", "?", "\\?", "[", "\\[", "]", "\\]", "\\", "\\\\").Replace(s.prefix()) + "r:{*"
	cursor := "0"
	for {
		result, err := s.Do(ctx, "SCAN", cursor, "MATCH", pattern, "COUNT", 200)
		if err != nil {
			return err
		}
		reply, _ := result.([]any)
		if len(reply) != 2 {
			return fmt.Errorf("idempotency: unexpected SCAN reply %v", result)
		}
		keys, _ := reply[1].([]any)
		for _, key := range keys {
			if more, err := visit(text(key)); err != nil || !more {
				return err
			}
		}
		if cursor = text(reply[0]); cursor == "0" {
			return nil
		}
	}
}

// PurgeExpired deletes up to batchSize expired finished records early (purge.lua per record);
// Redis also drops them itself at expiry + keepExpiredMs.
func (s *RedisStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
	var purged int64
	err := s.scan(ctx, func(key string) (bool, error) {
		result, err := s.eval(ctx, "purge", []string{key})
		if err == nil && text(result) == "purged" {
			purged++
		}
		return purged < int64(batchSize), err
	})
	return purged, err
}

// ListStuck is the runbook's query: PROCESSING records whose lease ended at least olderThanMs ago
// on the server clock (TIME), oldest lease first.
func (s *RedisStore) ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error) {
	clock, err := s.Do(ctx, "TIME")
	if err != nil {
		return nil, err
	}
	parts, _ := clock.([]any)
	if len(parts) != 2 {
		return nil, fmt.Errorf("idempotency: unexpected TIME reply %v", clock)
	}
	now := number(parts[0])*1000 + number(parts[1])/1000
	var stuck []Record
	err = s.scan(ctx, func(key string) (bool, error) {
		result, err := s.Do(ctx, "HMGET", append([]any{key}, toAny(recordFields)...)...)
		values, _ := result.([]any)
		if record := redisRecord(values); err == nil && record != nil && record.Status == "PROCESSING" && record.LockedUntil <= now-olderThanMs {
			stuck = append(stuck, *record)
		}
		return true, err
	})
	sort.Slice(stuck, func(i, j int) bool { return stuck[i].LockedUntil < stuck[j].LockedUntil })
	if len(stuck) > limit {
		stuck = stuck[:limit]
	}
	return stuck, err
}
