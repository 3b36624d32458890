// Idempotency store on MySQL 8 / MariaDB 10.5+ through database/sql (go-sql-driver/mysql — the
// driver is yours). MySQL has no INSERT ... RETURNING: a claim inserts if absent, else reads the
// record with the server's verdicts and takes it over with one compare-and-set; the new fencing
// token comes back as the statement's last-insert-id (LAST_INSERT_ID(expr)). Every time
// comparison uses UTC_TIMESTAMP(3) on the server. The table keeps the spec's columns: no owner,
// no response headers, and the body as JSON (encoding "json").
package idempotency

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"errors"
)

// MySQLStore implements Store on any *sql.DB.
type MySQLStore struct {
	DB *sql.DB
}

func mysqlRecord(row map[string]any) Record {
	record := rowRecord(row, func(column string) string { return column }, "response_body")
	if row["response_body"] != nil {
		record.Response = &Response{StatusCode: int(asInt(row["response_code"])), Encoding: "json", Body: asBytes(row["response_body"])}
	}
	return record
}

// Claim inserts, takes over an orphaned/expired record with a compare-and-set, or returns the existing one.
func (s *MySQLStore) Claim(ctx context.Context, in ClaimInput) (*Claimed, *Existing, error) {
	values := map[string]any{"key": in.Key, "scope": in.Scope, "fingerprint": in.Fingerprint, "leaseMs": in.LeaseMs, "ttlMs": in.TTLMs}
	for attempt := 0; attempt < 8; attempt++ {
		affected, version, err := execStatement(ctx, s.DB, "claimInsert", values)
		if err != nil {
			return nil, nil, err
		}
		if affected == 1 {
			// A fresh record's fencing token is the server clock in ms.
			return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: version}, nil, nil
		}
		rows, err := queryRows(ctx, s.DB, "fetch", values)
		if err != nil {
			return nil, nil, err
		}
		if len(rows) == 0 {
			continue // released or purged in between: insert again
		}
		row := rows[0]
		same := subtle.ConstantTimeCompare([]byte(asString(row["fingerprint"])), []byte(in.Fingerprint)) == 1
		orphan := asInt(row["lease_over"]) == 1 && same && in.Owner == nil
		expired := asInt(row["expired"]) == 1 && in.ReplaceExpired
		if expired || orphan {
			values["lockVersion"] = asInt(row["lock_version"])
			affected, version, err := execStatement(ctx, s.DB, "reclaim", values)
			if err != nil {
				return nil, nil, err
			}
			if affected == 1 {
				// Orphan: version + 1; expired record: max(version + 1, clock ms).
				return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: version, Reclaimed: orphan, ReplacedExpired: !orphan}, nil, nil
			}
			continue // another node won the compare-and-set
		}
		return nil, &Existing{Record: mysqlRecord(row), Now: asInt(row["db_now"])}, nil
	}
	return nil, nil, errors.New("idempotency: claim did not settle after 8 attempts")
}

func (s *MySQLStore) applied(ctx context.Context, name string, values map[string]any) (bool, error) {
	affected, _, err := execStatement(ctx, s.DB, name, values)
	return err == nil && affected == 1, err
}

func (s *MySQLStore) finish(ctx context.Context, name, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["responseCode"], values["responseBody"], values["ttlMs"] = response.StatusCode, string(response.Body), ttlMs
	return s.applied(ctx, name, values)
}

// Complete moves PROCESSING to COMPLETED, only while this holder's lock version is current.
func (s *MySQLStore) Complete(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "complete", key, scope, lockVersion, response, ttlMs)
}

// Fail moves PROCESSING to FAILED (a permanent error, replayed), fenced like Complete.
func (s *MySQLStore) Fail(ctx context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return s.finish(ctx, "fail", key, scope, lockVersion, response, ttlMs)
}

// Release deletes the claim after a transient failure (fenced).
func (s *MySQLStore) Release(ctx context.Context, key, scope string, lockVersion int64) (bool, error) {
	return s.applied(ctx, "release", fenced(key, scope, lockVersion))
}

// Extend is the heartbeat (fenced), from the server clock.
func (s *MySQLStore) Extend(ctx context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	values := fenced(key, scope, lockVersion)
	values["leaseMs"] = leaseMs
	return s.applied(ctx, "extend", values)
}

// Get reads the record as stored, expired or not; nil when absent.
func (s *MySQLStore) Get(ctx context.Context, key, scope string) (*Record, error) {
	rows, err := queryRows(ctx, s.DB, "fetch", map[string]any{"key": key, "scope": scope})
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

// PurgeExpired deletes up to batchSize expired finished records.
func (s *MySQLStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
	affected, _, err := execStatement(ctx, s.DB, "purgeExpired", map[string]any{"batchSize": batchSize})
	return affected, err
}

// ListStuck is the runbook's query: PROCESSING records whose lease ended at least olderThanMs ago.
func (s *MySQLStore) ListStuck(ctx context.Context, olderThanMs int64, limit int) ([]Record, error) {
	rows, err := queryRows(ctx, s.DB, "listStuck", map[string]any{"olderThanMs": olderThanMs, "limit": limit})
	records := make([]Record, len(rows))
	for i, row := range rows {
		records[i] = mysqlRecord(row)
	}
	return records, err
}
