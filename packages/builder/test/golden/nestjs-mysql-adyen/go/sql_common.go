// What the database/sql stores share: running one statement of project.json with named values,
// and reading driver values (which differ between drivers) back as Go types.
package idempotency

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// querier is *sql.DB, *sql.Conn or *sql.Tx.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func statementFor(name string) StatementData {
	st, ok := Project.Statements[name]
	if !ok {
		panic(fmt.Sprintf("idempotency: project.json has no %q statement", name))
	}
	return st
}

func bind(st StatementData, values map[string]any) []any {
	args := make([]any, len(st.Params))
	for i, name := range st.Params {
		args[i] = values[name]
	}
	return args
}

// queryRows runs a statement that answers rows (SELECT or RETURNING), each as column -> value.
func queryRows(ctx context.Context, db querier, name string, values map[string]any) ([]map[string]any, error) {
	st := statementFor(name)
	rows, err := db.QueryContext(ctx, st.Text, bind(st, values)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	columns, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for rows.Next() {
		cells := make([]any, len(columns))
		pointers := make([]any, len(columns))
		for i := range cells {
			pointers[i] = &cells[i]
		}
		if err := rows.Scan(pointers...); err != nil {
			return nil, err
		}
		row := make(map[string]any, len(columns))
		for i, column := range columns {
			row[column] = cells[i]
		}
		out = append(out, row)
	}
	return out, rows.Err()
}

// execStatement runs a statement without rows: affected rows, and the last-insert-id where the driver has one.
func execStatement(ctx context.Context, db querier, name string, values map[string]any) (int64, int64, error) {
	st := statementFor(name)
	result, err := db.ExecContext(ctx, st.Text, bind(st, values)...)
	if err != nil {
		return 0, 0, err
	}
	affected, err := result.RowsAffected()
	if err != nil {
		return 0, 0, err
	}
	id, _ := result.LastInsertId()
	return affected, id, nil
}

// fenced holds the values every fenced write binds: the record and the holder's lock version.
func fenced(key, scope string, lockVersion int64) map[string]any {
	return map[string]any{"key": key, "scope": scope, "lockVersion": lockVersion}
}

// responseValues are a response's columns: status code and headers NULL when absent.
func responseValues(values map[string]any, response Response) map[string]any {
	values["responseCode"], values["responseHeaders"] = nil, nil
	if response.StatusCode != 0 {
		values["responseCode"] = response.StatusCode
	}
	if response.Headers != nil {
		headers, _ := json.Marshal(response.Headers)
		values["responseHeaders"] = string(headers)
	}
	values["responseEncoding"], values["responseBytes"] = response.Encoding, append([]byte{}, response.Body...)
	return values
}

// rowRecord reads the runtime's record columns; times come as ms columns (named by timeColumn).
func rowRecord(row map[string]any, timeColumn func(string) string, bodyColumn string) Record {
	record := Record{
		Key:         asString(row["idempotency_key"]),
		Scope:       asString(row["user_id"]),
		Fingerprint: asString(row["fingerprint"]),
		Status:      asString(row["status"]),
		LockVersion: asInt(row["lock_version"]),
		LockedUntil: asInt(row[timeColumn("locked_until")]),
		CreatedAt:   asInt(row[timeColumn("created_at")]),
		CompletedAt: asInt(row[timeColumn("completed_at")]),
		ExpiresAt:   asInt(row[timeColumn("expires_at")]),
	}
	if owner, ok := row["owner_id"]; ok && owner != nil {
		text := asString(owner)
		record.Owner = &text
	}
	if encoding := row["response_encoding"]; encoding != nil {
		response := &Response{StatusCode: int(asInt(row["response_code"])), Encoding: asString(encoding), Body: asBytes(row[bodyColumn])}
		if headers := asBytes(row["response_headers"]); headers != nil {
			_ = json.Unmarshal(headers, &response.Headers)
		}
		if response.Body == nil {
			response.Body = []byte{}
		}
		record.Response = response
	}
	return record
}

func nullable(owner *string) any {
	if owner == nil {
		return nil
	}
	return *owner
}

func asString(value any) string {
	switch v := value.(type) {
	case []byte:
		return string(v)
	case string:
		return v
	}
	return ""
}

func asBytes(value any) []byte {
	switch v := value.(type) {
	case []byte:
		return append([]byte(nil), v...)
	case string:
		return []byte(v)
	}
	return nil
}

func asInt(value any) int64 {
	switch v := value.(type) {
	case int64:
		return v
	case int32:
		return int64(v)
	case int:
		return int64(v)
	case float64:
		// Times arrive as float ms with a microsecond fraction: whole ms, rounded down.
		return int64(v)
	case bool:
		if v {
			return 1
		}
		return 0
	case []byte:
		return parseNumber(string(v))
	case string:
		return parseNumber(v)
	case time.Time:
		return v.UnixMilli()
	}
	return 0
}

func parseNumber(text string) int64 {
	if n, err := strconv.ParseInt(text, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		return int64(f)
	}
	// DATETIME(3) as text (MySQL without parseTime): UTC, as the statements write it.
	if t, err := time.Parse("2006-01-02 15:04:05.999999", text); err == nil {
		return t.UnixMilli()
	}
	return 0
}
