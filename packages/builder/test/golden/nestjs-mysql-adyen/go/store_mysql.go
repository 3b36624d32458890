// Idempotency store on MySQL 8 / MariaDB 10.11 through database/sql (go-sql-driver/mysql — the
// driver is yours). The table and statements are the runtime's own (project.json, from
// @idempotency-builder/runtime/contract), so TypeScript services can share the table. The claim is
// one atomic upsert (INSERT ... ON DUPLICATE KEY UPDATE with the takeover conditions inside) that
// stamps a random nonce into claim_token when it wins, then a locking read-back of the row: the
// caller holds the key exactly when the row carries its nonce. Every time is UTC_TIMESTAMP(3) on
// the server; durations are bound in microseconds.
package idempotency

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
)

// MySQLStore implements Store on any *sql.DB.
type MySQLStore struct {
	DB *sql.DB
}

func mysqlRecord(row map[string]any) Record {
	return rowRecord(row, func(column string) string { return column + "_ms" }, "response_bytes")
}

// Claim inserts, takes over an orphaned (same fingerprint and owner) or expired record, or returns
// the existing one. The read-back finds no row only when a holder released the key in between.
func (s *MySQLStore) Claim(ctx context.Context, in ClaimInput) (*Claimed, *Existing, error) {
	replace := 0
	if in.ReplaceExpired {
		replace = 1
	}
	for attempt := 0; attempt < 8; attempt++ {
		raw := make([]byte, 16)
		if _, err := rand.Read(raw); err != nil {
			return nil, nil, err
		}
		nonce := hex.EncodeToString(raw)
		values := map[string]any{"key": in.Key, "scope": in.Scope, "owner": nullable(in.Owner), "fingerprint": in.Fingerprint,
			"leaseUs": in.LeaseMs * 1000, "ttlUs": in.TTLMs * 1000, "nonce": nonce, "replaceExpired": replace}
		if _, _, err := execStatement(ctx, s.DB, "claimUpsert", values); err != nil {
			return nil, nil, err
		}
		rows, err := queryRows(ctx, s.DB, "claimRead", values)
		if err != nil {
			return nil, nil, err
		}
		if len(rows) == 0 {
			continue
		}
		row := rows[0]
		record := mysqlRecord(row)
		token := asString(row["claim_token"])
		if len(token) == 33 && strings.HasPrefix(token, nonce) {
			// N: new record, R: orphan reclaimed (+1), E: expired record replaced.
			kind := token[32]
			return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: record.LockVersion, Reclaimed: kind == 'R', ReplacedExpired: kind == 'E'}, nil, nil
		}
		return nil, &Existing{Record: record, Now: asInt(row["now_ms"])}, nil
	}
	return nil, nil, errors.New("idempotency: claim did not settle after 8 attempts")
}

func (s *MySQLStore) applied(ctx context.Context, name string, values map[string]any) (bool, error) {
	affected, _, err := execStatement(ctx, s.DB, name, values)
	return err == nil && affected == 1, err
}

func (s *MySQLStore) finish(ctx context.Context, status, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["status"], values["ttlUs"], values["code"], values["headers"] = status, ttlMs*1000, nil, nil
	if response.StatusCode != 0 {
		values["code"] = response.StatusCode
	}
	if response.Headers != nil {
		headers, _ := json.Marshal(response.Headers)
		values["headers"] = string(headers)
	}
	values["encoding"], values["bytes"] = response.Encoding, append([]byte{}, response.Body...)
	return s.applied(ctx, "finish", values)
}

// Complete moves PROCESSING to COMPLETED, only while this holder's lock version is current.
func (s *MySQLStore) Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "COMPLETED", key, scope, lockVersion, response, ttlMs)
}

// Fail moves PROCESSING to FAILED (a permanent error, replayed), fenced like Complete.
func (s *MySQLStore) Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "FAILED", key, scope, lockVersion, response, ttlMs)
}

// Release deletes the claim after a transient failure (fenced).
func (s *MySQLStore) Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error) {
	return s.applied(ctx, "release", fenced(key, scope, lockVersion))
}

// Extend is the heartbeat (fenced), from the server clock.
func (s *MySQLStore) Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["leaseUs"] = leaseMs * 1000
	return s.applied(ctx, "extend", values)
}

// Get reads the record as stored, expired or not; nil when absent.
func (s *MySQLStore) Get(ctx context.Context, key, scope string) (*Record, error) {
	rows, err := queryRows(ctx, s.DB, "get", map[string]any{"key": key, "scope": scope})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	record := mysqlRecord(rows[0])
	return &record, nil
}

// ForceRelease is the runbook's manual release: ends the lease and bumps the lock version.
func (s *MySQLStore) ForceRelease(ctx context.Context, key, scope string) (bool, error) {
	return s.applied(ctx, "forceRelease", map[string]any{"key": key, "scope": scope})
}

// PurgeExpired deletes up to batchSize expired finished records: a plain (lock-free) read of the
// candidates along the purge_at index, then one primary-key DELETE each that re-checks expiry, so
// a claim that replaced a candidate meanwhile keeps its row and claims never wait for a range lock.
func (s *MySQLStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
	rows, err := queryRows(ctx, s.DB, "purgeCandidates", map[string]any{"limit": batchSize})
	if err != nil {
		return 0, err
	}
	var purged int64
	for _, row := range rows {
		affected, _, err := execStatement(ctx, s.DB, "purgeDelete", map[string]any{"key0": asString(row["idempotency_key"]), "scope0": asString(row["user_id"])})
		if err != nil {
			return purged, err
		}
		purged += affected
	}
	return purged, nil
}

// ListStuck is the runbook's query: PROCESSING records whose lease ended at least olderThanMs ago.
func (s *MySQLStore) ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error) {
	rows, err := queryRows(ctx, s.DB, "listStuck", map[string]any{"olderUs": olderThanMs * 1000, "limit": limit})
	records := make([]Record, len(rows))
	for i, row := range rows {
		records[i] = mysqlRecord(row)
	}
	return records, err
}
