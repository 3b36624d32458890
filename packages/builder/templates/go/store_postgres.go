// Idempotency store on PostgreSQL through database/sql (lib/pq or pgx/stdlib — the driver is
// yours). The statements are the runtime's own (project.json): one statement per operation, the
// clock is clock_timestamp(), and the table is the runtime's, so TypeScript services can share it.
package idempotency

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
)

// PostgresStore implements Store on any *sql.DB. The table name in the statements is unqualified:
// the connection's search_path picks the schema.
type PostgresStore struct {
	DB *sql.DB
}

func pgRecord(row map[string]any) Record {
	return rowRecord(row, func(column string) string { return column + "_ms" }, "response_bytes")
}

// Claim is the runtime's one-statement claim: insert, take over an orphan (lease over, same
// fingerprint and owner) or an expired record, or answer the record. No row means a concurrent
// claim committed after the statement's snapshot: a new statement sees it.
func (s *PostgresStore) Claim(ctx context.Context, in ClaimInput) (*Claimed, *Existing, error) {
	values := map[string]any{"key": in.Key, "scope": in.Scope, "fingerprint": in.Fingerprint, "owner": nullable(in.Owner),
		"leaseMs": in.LeaseMs, "ttlMs": in.TTLMs, "replaceExpired": in.ReplaceExpired}
	for attempt := 0; attempt < 8; attempt++ {
		rows, err := queryRows(ctx, s.DB, "claim", values)
		if err != nil {
			return nil, nil, err
		}
		if len(rows) == 0 {
			continue
		}
		row := rows[0]
		if asString(row["outcome"]) == "claimed" {
			return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: asInt(row["lock_version"]),
				Reclaimed: asInt(row["reclaimed"]) == 1, ReplacedExpired: asInt(row["replaced"]) == 1}, nil, nil
		}
		return nil, &Existing{Record: pgRecord(row), Now: asInt(row["now_ms"])}, nil
	}
	return nil, nil, errors.New("idempotency: claim did not settle after 8 attempts")
}

func (s *PostgresStore) applied(ctx context.Context, name string, values map[string]any) (bool, error) {
	rows, err := queryRows(ctx, s.DB, name, values)
	return err == nil && len(rows) == 1, err
}

func (s *PostgresStore) finish(ctx context.Context, status, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	values := responseValues(fenced(key, scope, lockVersion), response)
	values["status"], values["ttlMs"], values["responseBody"] = status, ttlMs, nil
	if response.Encoding == "json" && json.Valid(response.Body) && !strings.ContainsRune(string(response.Body), 0) {
		values["responseBody"] = string(response.Body) // the spec's readable JSONB copy
	}
	return s.applied(ctx, "finish", values)
}

// Complete moves PROCESSING to COMPLETED, only while this holder's lock version is current.
func (s *PostgresStore) Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "COMPLETED", key, scope, lockVersion, response, ttlMs)
}

// Fail moves PROCESSING to FAILED (a permanent error, replayed), fenced like Complete.
func (s *PostgresStore) Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "FAILED", key, scope, lockVersion, response, ttlMs)
}

// Release deletes the claim after a transient failure (fenced).
func (s *PostgresStore) Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error) {
	return s.applied(ctx, "release", fenced(key, scope, lockVersion))
}

// Extend is the heartbeat (fenced), from the database clock.
func (s *PostgresStore) Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["leaseMs"] = leaseMs
	return s.applied(ctx, "extend", values)
}

// Get reads the record as stored, expired or not; nil when absent.
func (s *PostgresStore) Get(ctx context.Context, key, scope string) (*Record, error) {
	rows, err := queryRows(ctx, s.DB, "get", map[string]any{"key": key, "scope": scope})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	record := pgRecord(rows[0])
	return &record, nil
}

// ForceRelease is the runbook's manual release: ends the lease and bumps the lock version.
func (s *PostgresStore) ForceRelease(ctx context.Context, key, scope string) (bool, error) {
	return s.applied(ctx, "forceRelease", map[string]any{"key": key, "scope": scope})
}

// PurgeExpired deletes up to batchSize expired finished records.
func (s *PostgresStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
	rows, err := queryRows(ctx, s.DB, "purgeExpired", map[string]any{"batchSize": batchSize})
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	return asInt(rows[0]["purged"]), nil
}

// ListStuck is the runbook's query: PROCESSING records whose lease ended at least olderThanMs ago.
func (s *PostgresStore) ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error) {
	rows, err := queryRows(ctx, s.DB, "listStuck", map[string]any{"olderThanMs": olderThanMs, "limit": limit})
	records := make([]Record, len(rows))
	for i, row := range rows {
		records[i] = pgRecord(row)
	}
	return records, err
}
