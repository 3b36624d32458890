/**
 * Generated Go stores: database/sql (PostgreSQL, MySQL/MariaDB, SQLite — the driver is yours) with
 * the queries file's statements, and Redis through a one-function Eval port with the Lua scripts.
 */
import type { Plan } from '../../design/plan/plan.js';
import { redisScripts } from '../ddl/redis.js';
import { sqlStatementsFor } from '../ddl/index.js';
import { toDollar, toQuestion } from '../sql/statements.js';

const raw = (text: string) => `\`${text.replace(/`/g, '` + "`" + `')}\``;
const camel = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The store file for the plan's database.
 * @example storeGo(plan).includes('type SQLStore struct')
 */
export function storeGo(plan: Plan): { file: string; content: string } {
  if (plan.stack.store === 'redis') return { file: 'store_redis.go', content: redisGo() };
  return { file: 'store_sql.go', content: sqlGo(plan) };
}

/** MySQL/MariaDB have no RETURNING: an applied claim's new lock_version is its last-insert-id. */
const LAST_ID_GO = `\t\tif err != nil || affected != 1 {
\t\t\treturn nil, affected, err
\t\t}
\t\tid, err := result.LastInsertId()
\t\treturn []map[string]any{{"lock_version": id}}, affected, err
`;

function sqlGo(plan: Plan): string {
  const store = plan.stack.store === 'mysql' || plan.stack.store === 'sqlite' ? plan.stack.store : 'postgresql';
  const render = store === 'postgresql' ? toDollar : toQuestion;
  const statements = sqlStatementsFor(store, plan.table, false).filter((s) => s.name !== 'claim');
  const vars = statements
    .map((s) => {
      const rendered = render(s.sql);
      const returns = /\bRETURNING\b/.test(s.sql) || /^\s*SELECT/i.test(s.sql);
      return `\t// ${s.purpose}\n\tstmt${camel(`_${s.name}`)} = statement{returns: ${returns}, params: []string{${rendered.params.map((p) => JSON.stringify(p)).join(', ')}}, text: ${raw(rendered.text)}}`;
    })
    .join('\n');
  return `// Idempotency store on ${plan.stack.storeName} through database/sql. Bring the driver (${store === 'postgresql' ? 'pgx/stdlib or lib/pq' : store === 'mysql' ? 'go-sql-driver/mysql with parseTime=true' : 'modernc.org/sqlite or mattn/go-sqlite3'}).
// The statements are the queries file's; every time comparison happens in the database.
package idempotency

import (
\t"context"
\t"crypto/subtle"
\t"database/sql"
\t"errors"
\t"strconv"
\t"time"
)

type statement struct {
\treturns bool
\tparams  []string
\ttext    string
}

var (
${vars}
)

// SQLStore implements Store on any *sql.DB.
type SQLStore struct {
\tDB *sql.DB
}

${store === 'mysql' ? `// run executes one statement. A write without RETURNING that applied answers one row holding its
// last-insert-id as lock_version: the claim statements hand the new fencing token back through
// LAST_INSERT_ID(expr).
` : ''}func (s *SQLStore) run(ctx context.Context, st statement, values map[string]any) ([]map[string]any, int64, error) {
\targs := make([]any, len(st.params))
\tfor i, name := range st.params {
\t\targs[i] = values[name]
\t}
\tif !st.returns {
\t\tresult, err := s.DB.ExecContext(ctx, st.text, args...)
\t\tif err != nil {
\t\t\treturn nil, 0, err
\t\t}
\t\taffected, err := result.RowsAffected()
${store === 'mysql' ? LAST_ID_GO : '\t\treturn nil, affected, err\n'}\t}
\trows, err := s.DB.QueryContext(ctx, st.text, args...)
\tif err != nil {
\t\treturn nil, 0, err
\t}
\tdefer rows.Close()
\tcolumns, err := rows.Columns()
\tif err != nil {
\t\treturn nil, 0, err
\t}
\tvar out []map[string]any
\tfor rows.Next() {
\t\tcells := make([]any, len(columns))
\t\tpointers := make([]any, len(columns))
\t\tfor i := range cells {
\t\t\tpointers[i] = &cells[i]
\t\t}
\t\tif err := rows.Scan(pointers...); err != nil {
\t\t\treturn nil, 0, err
\t\t}
\t\trow := make(map[string]any, len(columns))
\t\tfor i, name := range columns {
\t\t\trow[name] = cells[i]
\t\t}
\t\tout = append(out, row)
\t}
\treturn out, int64(len(out)), rows.Err()
}

func applied(st statement, rows []map[string]any, affected int64) bool {
\tif st.returns {
\t\treturn len(rows) > 0
\t}
\treturn affected == 1
}

func asString(value any) string {
\tswitch v := value.(type) {
\tcase []byte:
\t\treturn string(v)
\tcase string:
\t\treturn v
\tcase nil:
\t\treturn ""
\t}
\treturn ""
}

func asInt(value any) int64 {
\tswitch v := value.(type) {
\tcase int64:
\t\treturn v
\tcase int32:
\t\treturn int64(v)
\tcase float64:
\t\treturn int64(v)
\tcase bool:
\t\tif v {
\t\t\treturn 1
\t\t}
\t\treturn 0
\tcase []byte:
\t\tn, _ := strconv.ParseInt(string(v), 10, 64)
\t\treturn n
\t}
\treturn 0
}

func asMillis(value any) int64 {
\tswitch v := value.(type) {
\tcase time.Time:
\t\treturn v.UnixMilli()
\tcase []byte:
\t\tif t, err := time.Parse("2006-01-02 15:04:05.999", string(v)); err == nil {
\t\t\treturn t.UnixMilli()
\t\t}
\t}
\treturn asInt(value)
}

// Claim inserts, takes over an orphaned/expired record with a compare-and-set, or returns the existing one.
func (s *SQLStore) Claim(ctx context.Context, key, scope, fingerprint string, leaseMs, ttlMs int64) (*Claimed, *Existing, error) {
\tvalues := map[string]any{"key": key, "scope": scope, "fingerprint": fingerprint, "lease_ms": leaseMs, "ttl_ms": ttlMs}
\tfor attempt := 0; attempt < 8; attempt++ {
\t\trows, affected, err := s.run(ctx, stmtClaimInsert, values)
\t\tif err != nil {
\t\t\treturn nil, nil, err
\t\t}
\t\tif applied(stmtClaimInsert, rows, affected) {
\t\t\t// A fresh record's fencing token is the database clock in ms, handed back by the insert.
\t\t\treturn &Claimed{Key: key, Scope: scope, LockVersion: asInt(rows[0]["lock_version"])}, nil, nil
\t\t}
\t\tfound, _, err := s.run(ctx, stmtFetch, values)
\t\tif err != nil {
\t\t\treturn nil, nil, err
\t\t}
\t\tif len(found) == 0 {
\t\t\tcontinue // released or purged in between: insert again
\t\t}
\t\trecord := found[0]
\t\tsame := subtle.ConstantTimeCompare([]byte(asString(record["fingerprint"])), []byte(fingerprint)) == 1
\t\tif asInt(record["expired"]) == 1 || (asInt(record["lease_over"]) == 1 && same) {
\t\t\tversion := asInt(record["lock_version"])
\t\t\tvalues["lock_version"] = version
\t\t\trows, affected, err := s.run(ctx, stmtReclaim, values)
\t\t\tif err != nil {
\t\t\t\treturn nil, nil, err
\t\t\t}
\t\t\tif applied(stmtReclaim, rows, affected) {
\t\t\t\t// Orphan: version + 1; expired record: max(version + 1, clock ms) — the statement says which.
\t\t\t\treturn &Claimed{Key: key, Scope: scope, LockVersion: asInt(rows[0]["lock_version"]), Reclaimed: asInt(record["lease_over"]) == 1}, nil, nil
\t\t\t}
\t\t\tcontinue // another node won the compare-and-set
\t\t}
\t\tretry := asMillis(record["locked_until"]) - asMillis(record["db_now"])
\t\tif retry < 0 {
\t\t\tretry = 0
\t\t}
\t\treturn nil, &Existing{
\t\t\tStatus:       asString(record["status"]),
\t\t\tFingerprint:  asString(record["fingerprint"]),
\t\t\tResponseCode: int(asInt(record["response_code"])),
\t\t\tResponseBody: []byte(asString(record["response_body"])),
\t\t\tRetryAfterMs: retry,
\t\t}, nil
\t}
\treturn nil, nil, errors.New("idempotency: claim did not settle after 8 attempts")
}

func (s *SQLStore) fenced(ctx context.Context, st statement, claim Claimed, extra map[string]any) (bool, error) {
\tvalues := map[string]any{"key": claim.Key, "scope": claim.Scope, "lock_version": claim.LockVersion}
\tfor name, value := range extra {
\t\tvalues[name] = value
\t}
\trows, affected, err := s.run(ctx, st, values)
\treturn err == nil && applied(st, rows, affected), err
}

// Finish moves PROCESSING to COMPLETED or FAILED, only while this holder's lock version is current.
func (s *SQLStore) Finish(ctx context.Context, claim Claimed, status string, code int, body []byte, ttlMs int64) (bool, error) {
\tst := stmtComplete
\tif status == "FAILED" {
\t\tst = stmtFail
\t}
\treturn s.fenced(ctx, st, claim, map[string]any{"response_code": code, "response_body": string(body), "ttl_ms": ttlMs})
}

// Release deletes the claim after a transient failure.
func (s *SQLStore) Release(ctx context.Context, claim Claimed) (bool, error) {
\treturn s.fenced(ctx, stmtRelease, claim, nil)
}

// Extend is the heartbeat.
func (s *SQLStore) Extend(ctx context.Context, claim Claimed, leaseMs int64) (bool, error) {
\treturn s.fenced(ctx, stmtExtend, claim, map[string]any{"lease_ms": leaseMs})
}

// PurgeExpired deletes up to batchSize expired finished records.
func (s *SQLStore) PurgeExpired(ctx context.Context, batchSize int) (int64, error) {
\t_, affected, err := s.run(ctx, statement{returns: false, params: stmtPurgeExpired.params, text: stmtPurgeExpired.text}, map[string]any{"batch_size": batchSize})
\treturn affected, err
}
`;
}

function redisGo(): string {
  const scripts = redisScripts();
  const source = (name: string) => raw(scripts.find((s) => s.name === name)?.source ?? '');
  return `// Idempotency store on Redis: one Lua script per operation, atomic on the server and timed by the
// server clock (TIME). One key per record, so it works on Redis Cluster.
package idempotency

import (
\t"context"
\t"fmt"
\t"strconv"
)

// Evaler runs a script; with go-redis: func(ctx context.Context, script string, keys []string, args ...any) (any, error) {
// return rdb.Eval(ctx, script, keys, args...).Result() } (or redis.NewScript(...).Run for EVALSHA).
type Evaler func(ctx context.Context, script string, keys []string, args ...any) (any, error)

const (
\tscriptClaim = ${source('claim')}
\tscriptFinish = ${source('finish')}
\tscriptRelease = ${source('release')}
\tscriptExtend = ${source('extend')}
\tscriptForceRelease = ${source('force_release')}
)

// RedisStore implements Store on Redis.
type RedisStore struct {
\tEval   Evaler
\tPrefix string
}

func (s *RedisStore) key(scope, key string) string {
\t// The scope's length keeps "a:b"+"c" and "a"+"b:c" apart.
\treturn fmt.Sprintf("%s:%d:%s:%s", s.Prefix, len(scope), scope, key)
}

func text(value any) string {
\tswitch v := value.(type) {
\tcase string:
\t\treturn v
\tcase []byte:
\t\treturn string(v)
\tcase int64:
\t\treturn strconv.FormatInt(v, 10)
\t}
\treturn ""
}

func number(value any) int64 {
\tn, _ := strconv.ParseInt(text(value), 10, 64)
\treturn n
}

// Claim runs claim.lua: insert, take over an orphaned/expired record, or return the existing one.
func (s *RedisStore) Claim(ctx context.Context, key, scope, fingerprint string, leaseMs, ttlMs int64) (*Claimed, *Existing, error) {
\tresult, err := s.Eval(ctx, scriptClaim, []string{s.key(scope, key)}, fingerprint, leaseMs, ttlMs)
\tif err != nil {
\t\treturn nil, nil, err
\t}
\tparts, ok := result.([]any)
\tif !ok || len(parts) < 3 {
\t\treturn nil, nil, fmt.Errorf("idempotency: unexpected claim reply %v", result)
\t}
\tif text(parts[0]) == "claimed" && len(parts) >= 4 {
\t\treturn &Claimed{Key: key, Scope: scope, LockVersion: number(parts[1]), Reclaimed: number(parts[3]) == 1}, nil, nil
\t}
\tif len(parts) < 9 {
\t\treturn nil, nil, fmt.Errorf("idempotency: unexpected claim reply %v", result)
\t}
\tretry := number(parts[3]) - number(parts[8])
\tif retry < 0 {
\t\tretry = 0
\t}
\treturn nil, &Existing{Status: text(parts[1]), Fingerprint: text(parts[5]), ResponseCode: int(number(parts[6])),
\t\tResponseBody: []byte(text(parts[7])), RetryAfterMs: retry}, nil
}

func (s *RedisStore) fenced(ctx context.Context, script string, claim Claimed, args ...any) (bool, error) {
\tresult, err := s.Eval(ctx, script, []string{s.key(claim.Scope, claim.Key)}, append([]any{claim.LockVersion}, args...)...)
\tif err != nil {
\t\treturn false, err
\t}
\treturn number(result) > 0, nil
}

// Finish moves PROCESSING to COMPLETED or FAILED, fenced by the lock version.
func (s *RedisStore) Finish(ctx context.Context, claim Claimed, status string, code int, body []byte, ttlMs int64) (bool, error) {
\treturn s.fenced(ctx, scriptFinish, claim, status, code, string(body), ttlMs)
}

// Release deletes the claim after a transient failure.
func (s *RedisStore) Release(ctx context.Context, claim Claimed) (bool, error) {
\treturn s.fenced(ctx, scriptRelease, claim)
}

// Extend is the heartbeat.
func (s *RedisStore) Extend(ctx context.Context, claim Claimed, leaseMs int64) (bool, error) {
\treturn s.fenced(ctx, scriptExtend, claim, leaseMs)
}

// ForceRelease is the runbook's manual release: ends the lease and bumps the lock version.
func (s *RedisStore) ForceRelease(ctx context.Context, scope, key string) (bool, error) {
\tresult, err := s.Eval(ctx, scriptForceRelease, []string{s.key(scope, key)})
\treturn err == nil && number(result) > 0, err
}
`;
}
