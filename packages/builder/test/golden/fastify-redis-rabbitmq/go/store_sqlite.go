// Idempotency store on SQLite through database/sql (mattn/go-sqlite3 or modernc.org/sqlite — the
// driver is yours). The statements and the table are the runtime's (project.json): the claim reads
// the record and the store clock, then runs one compare-and-set upsert, both inside BEGIN IMMEDIATE
// so no other connection in any process writes in between. Times are integer ms on SQLite's clock.
package idempotency

import (
	"context"
	"database/sql"
	"errors"
)

// SQLiteStore implements Store on any *sql.DB (open it with a busy timeout).
type SQLiteStore struct {
	DB *sql.DB
}

func sqliteRecord(row map[string]any) Record {
	return rowRecord(row, func(column string) string { return column }, "response_body")
}

// Claim inserts, takes over an orphaned/expired record, or returns the existing one — atomically.
func (s *SQLiteStore) Claim(ctx context.Context, in ClaimInput) (claimed *Claimed, existing *Existing, err error) {
	conn, err := s.DB.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	if _, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, nil, err
	}
	defer func() {
		if err != nil {
			_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
			return
		}
		_, err = conn.ExecContext(ctx, "COMMIT")
	}()
	read, err := queryRows(ctx, conn, "claimRead", map[string]any{"key": in.Key, "scope": in.Scope})
	if err != nil {
		return nil, nil, err
	}
	if len(read) != 1 {
		return nil, nil, errors.New("idempotency: the claim read answered no clock row")
	}
	row := read[0]
	now := asInt(row["now"])
	replace := 0
	if in.ReplaceExpired {
		replace = 1
	}
	won, err := queryRows(ctx, conn, "claimUpsert", map[string]any{"key": in.Key, "scope": in.Scope, "fingerprint": in.Fingerprint,
		"owner": nullable(in.Owner), "now": now, "leaseMs": in.LeaseMs, "ttlMs": in.TTLMs, "replaceExpired": replace})
	if err != nil {
		return nil, nil, err
	}
	status := asString(row["status"])
	if len(won) == 1 {
		return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: asInt(won[0]["lock_version"]),
			Reclaimed: status == "PROCESSING", ReplacedExpired: status == "COMPLETED" || status == "FAILED"}, nil, nil
	}
	if row["status"] == nil {
		return nil, nil, errors.New("idempotency: the claim neither inserted nor found the record")
	}
	return nil, &Existing{Record: sqliteRecord(row), Now: now}, nil
}

func (s *SQLiteStore) applied(ctx context.Context, name string, values map[string]any) (bool, error) {
	affected, _, err := execStatement(ctx, s.DB, name, values)
	return err == nil && affected == 1, err
}

func (s *SQLiteStore) finish(ctx context.Context, status, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	values := responseValues(fenced(key, scope, lockVersion), response)
	values["status"], values["ttlMs"], values["responseBody"] = status, ttlMs, values["responseBytes"]
	return s.applied(ctx, "finish", values)
}

// Complete moves PROCESSING to COMPLETED, only while this holder's lock version is current.
func (s *SQLiteStore) Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "COMPLETED", key, scope, lockVersion, response, ttlMs)
}

// Fail moves PROCESSING to FAILED (a permanent error, replayed), fenced like Complete.
func (s *SQLiteStore) Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "FAILED", key, scope, lockVersion, response, ttlMs)
}

// Release deletes the claim after a transient failure (fenced).
func (s *SQLiteStore) Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error) {
	return s.applied(ctx, "release", fenced(key, scope, lockVersion))
}

// Extend is the heartbeat (fenced), from SQLite's clock.
func (s *SQLiteStore) Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["leaseMs"] = leaseMs
	return s.applied(ctx, "extend", values)
}

// Get reads the record as stored, expired or not; nil when absent.
func (s *SQLiteStore) Get(ctx context.Context, key, scope string) (*Record, error) {
	rows, err := queryRows(ctx, s.DB, "get", map[string]any{"key": key, "scope": scope})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	record := sqliteRecord(rows[0])
	return &record, nil
}

// ForceRelease is the runbook's manual release: ends the lease and bumps the lock version.
func (s *SQLiteStore) ForceRelease(ctx context.Context, key, scope string) (bool, error) {
	return s.applied(ctx, "forceRelease", map[string]any{"key": key, "scope": scope})
}

// PurgeExpired deletes up to batchSize expired finished records.
func (s *SQLiteStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
	affected, _, err := execStatement(ctx, s.DB, "purgeExpired", map[string]any{"batchSize": batchSize})
	return affected, err
}

// ListStuck is the runbook's query: PROCESSING records whose lease ended at least olderThanMs ago.
func (s *SQLiteStore) ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error) {
	rows, err := queryRows(ctx, s.DB, "listStuck", map[string]any{"olderThanMs": olderThanMs, "limit": limit})
	records := make([]Record, len(rows))
	for i, row := range rows {
		records[i] = sqliteRecord(row)
	}
	return records, err
}
