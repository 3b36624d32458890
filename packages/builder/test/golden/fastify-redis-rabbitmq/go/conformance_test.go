// The runtime's shared store conformance scenarios (packages/runtime/conformance/scenarios.json),
// run against this package's store on a real server. Set IDEMPOTENCY_SCENARIOS to the file and
// the store's target (see conformance_<store>_test.go); without them the test is skipped.
package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

type scenarioFile struct {
	Defaults     map[string]any             `json:"defaults"`
	Fingerprints map[string]string          `json:"fingerprints"`
	Responses    map[string]json.RawMessage `json:"responses"`
	Scenarios    []struct {
		Name  string           `json:"name"`
		Steps []map[string]any `json:"steps"`
	} `json:"scenarios"`
}

type scenarioRun struct {
	file    scenarioFile
	store   Store
	prefix  string
	tokens  map[string]int64
	mu      sync.Mutex
	leaseMs int64
}

func TestConformanceScenarios(t *testing.T) {
	path := os.Getenv("IDEMPOTENCY_SCENARIOS")
	if path == "" {
		t.Skip("IDEMPOTENCY_SCENARIOS is not set: no scenario file to run")
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file scenarioFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	runID := fmt.Sprintf("go%d", time.Now().UnixNano()%1_000_000_000)
	failed := 0
	for index, scenario := range file.Scenarios {
		store, closeStore := openConformanceStore(t, index)
		run := &scenarioRun{file: file, store: store, prefix: runID + "_" + scenario.Name + "_", tokens: map[string]int64{},
			leaseMs: int64(file.Defaults["leaseMs"].(float64))}
		err := run.steps(scenario.Steps)
		closeStore()
		if err != nil {
			failed++
			fmt.Printf("FAIL %s: %v\n", scenario.Name, err)
		} else {
			fmt.Printf("PASS %s\n", scenario.Name)
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d scenarios failed", failed, len(file.Scenarios))
	}
}

func (r *scenarioRun) steps(steps []map[string]any) error {
	for i, step := range steps {
		if err := r.step(step); err != nil {
			return fmt.Errorf("step %d (%s): %w", i+1, step["op"], err)
		}
	}
	return nil
}

// value is a step's input, else the file's default.
func (r *scenarioRun) value(step map[string]any, name string) any {
	if v, ok := step[name]; ok {
		return v
	}
	return r.file.Defaults[name]
}

func (r *scenarioRun) int(step map[string]any, name string) int64 {
	n, _ := r.value(step, name).(float64)
	return int64(n)
}

func (r *scenarioRun) key(step map[string]any, name string) string { return r.prefix + name }

func (r *scenarioRun) scope(step map[string]any) string { return r.value(step, "scope").(string) }

func (r *scenarioRun) token(name any) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tokens[fmt.Sprint(name)]
}

func (r *scenarioRun) remember(name any, version int64) {
	if name == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tokens[fmt.Sprint(name)] = version
}

func (r *scenarioRun) response(name string) (Response, error) {
	var spec struct {
		StatusCode *int              `json:"statusCode"`
		Headers    map[string]string `json:"headers"`
		Encoding   string            `json:"encoding"`
		Body       struct {
			Pattern *int    `json:"pattern"`
			Text    *string `json:"text"`
		} `json:"body"`
	}
	raw, ok := r.file.Responses[name]
	if !ok {
		return Response{}, fmt.Errorf("unknown response %q", name)
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		return Response{}, err
	}
	response := Response{Headers: spec.Headers, Encoding: spec.Encoding, Body: []byte{}}
	if spec.StatusCode != nil {
		response.StatusCode = *spec.StatusCode
	}
	if spec.Body.Pattern != nil {
		response.Body = make([]byte, *spec.Body.Pattern)
		for i := range response.Body {
			response.Body[i] = byte(i % 256)
		}
	} else if spec.Body.Text != nil {
		response.Body = []byte(*spec.Body.Text)
	}
	return response, nil
}

func (r *scenarioRun) claimInput(step map[string]any, key string) ClaimInput {
	in := ClaimInput{Key: r.key(step, key), Scope: r.scope(step), Fingerprint: r.file.Fingerprints[r.value(step, "fingerprint").(string)],
		LeaseMs: r.int(step, "leaseMs"), TTLMs: r.int(step, "ttlMs"), ReplaceExpired: r.value(step, "replaceExpired") == true}
	if owner, ok := r.value(step, "owner").(string); ok {
		in.Owner = &owner
	}
	return in
}

func (r *scenarioRun) step(step map[string]any) error {
	ctx := context.Background()
	expect := step["expect"]
	key, _ := step["key"].(string)
	switch step["op"] {
	case "sleep":
		ms := r.int(step, "ms")
		if step["plusLease"] == true {
			ms += r.leaseMs
		}
		time.Sleep(time.Duration(ms) * time.Millisecond)
		return nil
	case "parallel":
		subs, _ := step["steps"].([]any)
		errs := make(chan error, len(subs))
		var wg sync.WaitGroup
		for _, sub := range subs {
			wg.Add(1)
			go func(sub map[string]any) {
				defer wg.Done()
				errs <- r.step(sub)
			}(sub.(map[string]any))
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	case "claim":
		if n, ok := step["concurrency"].(float64); ok {
			return r.concurrentClaims(ctx, step, int(n))
		}
		claimed, existing, err := r.store.Claim(ctx, r.claimInput(step, key))
		if err != nil {
			return err
		}
		if claimed != nil {
			r.remember(step["as"], claimed.LockVersion)
		}
		return r.checkClaim(expect.(map[string]any), claimed, existing)
	case "complete", "fail":
		response, err := r.response(step["response"].(string))
		if err != nil {
			return err
		}
		finish := r.store.Complete
		if step["op"] == "fail" {
			finish = r.store.Fail
		}
		applied, err := finish(ctx, r.key(step, key), r.scope(step), r.token(step["lockVersion"]), response, r.int(step, "ttlMs"))
		return checkApplied(expect, applied, err)
	case "release":
		applied, err := r.store.Release(ctx, r.key(step, key), r.scope(step), r.token(step["lockVersion"]))
		return checkApplied(expect, applied, err)
	case "extend":
		applied, err := r.store.Extend(ctx, r.key(step, key), r.scope(step), r.token(step["lockVersion"]), r.int(step, "leaseMs"))
		return checkApplied(expect, applied, err)
	case "get":
		record, err := r.store.Get(ctx, r.key(step, key), r.scope(step))
		if err != nil {
			return err
		}
		want := expect.(map[string]any)["record"]
		if want == nil || record == nil {
			if (want == nil) != (record == nil) {
				return fmt.Errorf("record: want %v, got %+v", want, record)
			}
			return nil
		}
		return r.checkRecord(want.(map[string]any), *record, nil)
	case "forceRelease":
		released, err := r.store.ForceRelease(ctx, r.key(step, key), r.scope(step))
		if err != nil || released != expect.(bool) {
			return fmt.Errorf("forceRelease: want %v, got %v (%v)", expect, released, err)
		}
		return nil
	case "purgeExpired":
		purged, err := r.store.PurgeExpired(ctx, int(r.int(step, "batchSize")))
		if err != nil || purged != int64(expect.(float64)) {
			return fmt.Errorf("purgeExpired: want %v, got %d (%v)", expect, purged, err)
		}
		return nil
	case "listStuck":
		records, err := r.store.ListStuck(ctx, r.int(step, "olderThanMs"), int(r.int(step, "limit")))
		if err != nil {
			return err
		}
		want := expect.(map[string]any)
		if count, ok := want["count"].(float64); ok && len(records) != int(count) {
			return fmt.Errorf("listStuck: want %v records, got %d", count, len(records))
		}
		if keys, ok := want["keys"].([]any); ok {
			var got, wanted []string
			for _, record := range records {
				got = append(got, record.Key)
			}
			for _, k := range keys {
				wanted = append(wanted, r.prefix+k.(string))
			}
			sort.Strings(got)
			sort.Strings(wanted)
			if !reflect.DeepEqual(got, wanted) {
				return fmt.Errorf("listStuck: want %v, got %v", wanted, got)
			}
		}
		return nil
	}
	return fmt.Errorf("unknown op %v", step["op"])
}

func checkApplied(expect any, applied bool, err error) error {
	if err != nil {
		return err
	}
	if got := map[bool]string{true: "applied", false: "lost"}[applied]; got != expect {
		return fmt.Errorf("want %v, got %s", expect, got)
	}
	return nil
}

type claimResult struct {
	claimed  *Claimed
	existing *Existing
	err      error
}

func (r *scenarioRun) concurrentClaims(ctx context.Context, step map[string]any, n int) error {
	keys := []string{}
	if key, ok := step["key"].(string); ok {
		keys = append(keys, key)
	}
	if list, ok := step["keys"].([]any); ok {
		for _, key := range list {
			keys = append(keys, key.(string))
		}
	}
	results := make(map[string][]claimResult, len(keys))
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, key := range keys {
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(key string) {
				defer wg.Done()
				<-start
				claimed, existing, err := r.store.Claim(ctx, r.claimInput(step, key))
				mu.Lock()
				results[key] = append(results[key], claimResult{claimed, existing, err})
				mu.Unlock()
			}(key)
		}
	}
	close(start)
	wg.Wait()
	expect := step["expect"].(map[string]any)
	for _, key := range keys {
		var winners []claimResult
		var others []claimResult
		for _, result := range results[key] {
			if result.err != nil {
				return fmt.Errorf("claim %s: %w", key, result.err)
			}
			if result.claimed != nil {
				winners = append(winners, result)
			} else {
				others = append(others, result)
			}
		}
		if len(winners) != int(expect["claimed"].(float64)) || len(others) != int(expect["existing"].(float64)) {
			return fmt.Errorf("key %s: %d claimed, %d existing; want %v and %v", key, len(winners), len(others), expect["claimed"], expect["existing"])
		}
		if len(winners) == 1 {
			r.remember(step["as"], winners[0].claimed.LockVersion)
			if want, ok := expect["winner"].(map[string]any); ok {
				if err := r.checkClaim(want, winners[0].claimed, nil); err != nil {
					return err
				}
			}
		}
		if want, ok := expect["others"].(map[string]any); ok {
			for _, other := range others {
				if err := r.checkRecord(want, other.existing.Record, &other.existing.Now); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *scenarioRun) checkClaim(want map[string]any, claimed *Claimed, existing *Existing) error {
	outcome := "existing"
	if claimed != nil {
		outcome = "claimed"
	}
	if expected, ok := want["outcome"]; ok && expected != outcome {
		return fmt.Errorf("outcome: want %v, got %s", expected, outcome)
	}
	if claimed != nil {
		if expected, ok := want["reclaimed"]; ok && expected != claimed.Reclaimed {
			return fmt.Errorf("reclaimed: want %v, got %v", expected, claimed.Reclaimed)
		}
		if expected, ok := want["replacedExpired"]; ok && expected != claimed.ReplacedExpired {
			return fmt.Errorf("replacedExpired: want %v, got %v", expected, claimed.ReplacedExpired)
		}
		if expected, ok := want["lockVersion"].(map[string]any); ok {
			return r.checkVersion(expected, claimed.LockVersion)
		}
		return nil
	}
	if expected, ok := want["record"].(map[string]any); ok {
		return r.checkRecord(expected, existing.Record, &existing.Now)
	}
	return nil
}

func (r *scenarioRun) checkVersion(want map[string]any, got int64) error {
	plus, _ := want["plus"].(float64)
	for op, name := range want {
		if op == "plus" {
			continue
		}
		base := r.token(name) + int64(plus)
		ok := map[string]bool{"eq": got == base, "gt": got > base, "gte": got >= base}[op]
		if !ok {
			return fmt.Errorf("lockVersion: want %s %s(%d), got %d", op, name, base, got)
		}
	}
	return nil
}

func (r *scenarioRun) checkRecord(want map[string]any, record Record, now *int64) error {
	for field, expected := range want {
		var err error
		switch field {
		case "status":
			if record.Status != expected {
				err = fmt.Errorf("want %v, got %s", expected, record.Status)
			}
		case "fingerprint":
			if record.Fingerprint != r.file.Fingerprints[expected.(string)] {
				err = fmt.Errorf("want %v, got %s", expected, record.Fingerprint)
			}
		case "owner":
			if (record.Owner == nil && expected != nil) || (record.Owner != nil && *record.Owner != expected) {
				err = fmt.Errorf("want %v, got %v", expected, record.Owner)
			}
		case "lockVersion":
			err = r.checkVersion(expected.(map[string]any), record.LockVersion)
		case "lockedUntil":
			if record.LockedUntil != 0 {
				err = fmt.Errorf("want none, got %d", record.LockedUntil)
			}
		case "completed":
			if record.CompletedAt == 0 {
				err = fmt.Errorf("want a completion time")
			}
		case "leaseLive":
			if now == nil || record.LockedUntil <= *now {
				err = fmt.Errorf("want a live lease, got lockedUntil %d", record.LockedUntil)
			}
		case "expired":
			if now == nil || (record.ExpiresAt <= *now) != expected {
				err = fmt.Errorf("want expired=%v, got expiresAt %d", expected, record.ExpiresAt)
			}
		case "response":
			err = r.checkResponse(expected, record.Response)
		default:
			err = fmt.Errorf("unknown expectation")
		}
		if err != nil {
			return fmt.Errorf("record.%s: %w", field, err)
		}
	}
	return nil
}

func (r *scenarioRun) checkResponse(expected any, got *Response) error {
	if expected == nil || got == nil {
		if (expected == nil) != (got == nil) {
			return fmt.Errorf("want %v, got %+v", expected, got)
		}
		return nil
	}
	want, err := r.response(expected.(string))
	if err != nil {
		return err
	}
	if want.StatusCode != got.StatusCode || want.Encoding != got.Encoding || !bytes.Equal(want.Body, got.Body) ||
		len(want.Headers) != len(got.Headers) || (len(want.Headers) > 0 && !reflect.DeepEqual(want.Headers, got.Headers)) {
		return fmt.Errorf("want %s, got status %d encoding %q headers %v body of %d bytes", expected, got.StatusCode, got.Encoding, got.Headers, len(got.Body))
	}
	return nil
}

// target is the store's connection string for scenario n: "{n}" stands for the scenario's index,
// so every scenario runs on a fresh, empty store (its own schema, database, file or prefix).
func target(t *testing.T, name string, index int) string {
	value := os.Getenv(name)
	if value == "" {
		t.Skipf("%s is not set: no store to run the scenarios against", name)
	}
	return strings.ReplaceAll(value, "{n}", fmt.Sprint(index))
}
