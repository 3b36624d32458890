// Idempotency test scenarios (design document, section 11) for the first protected action, on an
// in-memory store with a controllable clock: runs without a database.
package idempotency

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

type memoryStore struct {
	mu      sync.Mutex
	now     int64
	records map[string]*Record
}

func newMemoryStore() *memoryStore {
	return &memoryStore{now: 1_748_772_000_000, records: map[string]*Record{}}
}

func (m *memoryStore) Claim(_ context.Context, in ClaimInput) (*Claimed, *Existing, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := in.Scope + "\x00" + in.Key
	r := m.records[id]
	expired := r != nil && r.Status != "PROCESSING" && r.ExpiresAt <= m.now && in.ReplaceExpired
	orphan := r != nil && r.Status == "PROCESSING" && r.LockedUntil <= m.now && r.Fingerprint == in.Fingerprint
	if r == nil || expired || orphan {
		// Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
		version := m.now
		if orphan {
			version = r.LockVersion + 1
		} else if expired && r.LockVersion+1 > m.now {
			version = r.LockVersion + 1
		}
		m.records[id] = &Record{Key: in.Key, Scope: in.Scope, Status: "PROCESSING", Fingerprint: in.Fingerprint, LockVersion: version,
			LockedUntil: m.now + in.LeaseMs, CreatedAt: m.now, ExpiresAt: m.now + in.TTLMs}
		return &Claimed{Key: in.Key, Scope: in.Scope, LockVersion: version, Reclaimed: orphan, ReplacedExpired: expired}, nil, nil
	}
	return nil, &Existing{Record: *r, Now: m.now}, nil
}

func (m *memoryStore) held(key, scope string, lockVersion int64) *Record {
	r := m.records[scope+"\x00"+key]
	if r == nil || r.Status != "PROCESSING" || r.LockVersion != lockVersion {
		return nil
	}
	return r
}

func (m *memoryStore) finish(status, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.held(key, scope, lockVersion)
	if r == nil {
		return false, nil
	}
	r.Status, r.Response, r.LockedUntil, r.CompletedAt, r.ExpiresAt = status, &response, 0, m.now, m.now+ttlMs
	return true, nil
}

func (m *memoryStore) Complete(_ context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return m.finish("COMPLETED", key, scope, lockVersion, response, ttlMs)
}

func (m *memoryStore) Fail(_ context.Context, key, scope string, lockVersion int64, response Response, ttlMs int64) (bool, error) {
	return m.finish("FAILED", key, scope, lockVersion, response, ttlMs)
}

func (m *memoryStore) Release(_ context.Context, key, scope string, lockVersion int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.held(key, scope, lockVersion) == nil {
		return false, nil
	}
	delete(m.records, scope+"\x00"+key)
	return true, nil
}

func (m *memoryStore) Extend(_ context.Context, key, scope string, lockVersion int64, leaseMs int64) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := m.held(key, scope, lockVersion)
	if r == nil {
		return false, nil
	}
	r.LockedUntil = m.now + leaseMs
	return true, nil
}

func (m *memoryStore) Get(_ context.Context, key, scope string) (*Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.records[scope+"\x00"+key], nil
}

func (m *memoryStore) ForceRelease(context.Context, string, string) (bool, error) { return false, nil }

func (m *memoryStore) PurgeExpired(context.Context, int) (int64, error) { return 0, nil }

func (m *memoryStore) ListStuck(context.Context, int64, int) ([]Record, error) { return nil, nil }

func sampleBody(t *testing.T, raw json.RawMessage) map[string]any {
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

type counter struct {
	mu   sync.Mutex
	runs int
}

func (c *counter) execute(_ context.Context) (int, []byte, error) {
	c.mu.Lock()
	c.runs++
	runs := c.runs
	c.mu.Unlock()
	return 201, []byte(fmt.Sprintf(`{"id":"res-%d"}`, runs)), nil
}

func call(t *testing.T, store Store, c *counter, intent string, payload json.RawMessage, scope string) Answer {
	fp, err := Fingerprint(Project.Sample.Action, sampleBody(t, payload), "")
	if err != nil {
		t.Fatal(err)
	}
	answer, err := Run(context.Background(), store, Project.Sample.Action, intent, scope, fp, c.execute)
	if err != nil {
		t.Fatal(err)
	}
	return answer
}

func TestFingerprintMatchesTheTypeScriptRuntime(t *testing.T) {
	fp, err := Fingerprint(Project.Sample.Action, sampleBody(t, Project.Sample.Body), "")
	if err != nil || fp != Project.Sample.Fingerprint {
		t.Fatalf("fingerprint %s differs from the runtime's %s", fp, Project.Sample.Fingerprint)
	}
}

func TestSameKeySameBodyFirstRequestExecutes(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	if a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f11", Project.Sample.Body, "usr-1"); a.Status != 201 || a.Replayed || c.runs != 1 {
		t.Fatalf("got %+v after %d runs", a, c.runs)
	}
}

func TestSameKeySameBodySecondRequestReplays(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	first := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f12", Project.Sample.Body, "usr-1")
	second := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f12", Project.Sample.Body, "usr-1")
	if !second.Replayed || string(second.Body) != string(first.Body) || c.runs != 1 {
		t.Fatalf("got %+v after %d runs", second, c.runs)
	}
}

func TestSameKeyDifferentBodyIs409(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f13", Project.Sample.Body, "usr-1")
	a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f13", Project.Sample.OtherBody, "usr-1")
	if a.Status != 409 || a.ProblemCode != "fingerprint_mismatch" || c.runs != 1 {
		t.Fatalf("got %+v after %d runs", a, c.runs)
	}
	var body map[string]any
	if err := json.Unmarshal(a.Body, &body); err != nil || body["type"] != Project.ProblemTypeBase+"fingerprint_mismatch" {
		t.Fatalf("problem body %s", a.Body)
	}
}

func TestConcurrentRequestsWithSameKey(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	var wg sync.WaitGroup
	statuses := make(chan int, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f14", Project.Sample.Body, "usr-1").Status
		}()
	}
	wg.Wait()
	close(statuses)
	for status := range statuses {
		if status != 201 && status != 409 {
			t.Fatalf("unexpected status %d", status)
		}
	}
	if c.runs != 1 {
		t.Fatalf("executed %d times", c.runs)
	}
}

func TestKeyFromDifferentUserNeverReturnsTheirResponse(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	mine := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f15", Project.Sample.Body, "usr-1")
	theirs := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f15", Project.Sample.Body, "usr-2")
	if theirs.Replayed || string(theirs.Body) == string(mine.Body) {
		t.Fatalf("usr-2 received usr-1's response")
	}
}

func TestRequestAfterExpiryIsNew(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f16", Project.Sample.Body, "usr-1")
	store.now += Project.Actions[Project.Sample.Action].TTLMs + 1
	if a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f16", Project.Sample.Body, "usr-1"); a.Replayed || c.runs != 2 {
		t.Fatalf("got %+v after %d runs", a, c.runs)
	}
}

func TestCrashMidProcessingThenRetry(t *testing.T) {
	store, c := newMemoryStore(), &counter{}
	action := Project.Sample.Action
	fp, _ := Fingerprint(action, sampleBody(t, Project.Sample.Body), "")
	policy := Project.Actions[action]
	_, _, _ = store.Claim(context.Background(), ClaimInput{Key: action + "_0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", Scope: "usr-1",
		Fingerprint: fp, LeaseMs: policy.LeaseMs, TTLMs: policy.TTLMs, ReplaceExpired: true})
	if a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", Project.Sample.Body, "usr-1"); a.Status != 409 || a.RetryAfterS < 1 {
		t.Fatalf("expected 409 with Retry-After while the lease lives, got %+v", a)
	}
	store.now += policy.LeaseMs + 1
	if a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", Project.Sample.Body, "usr-1"); a.Status != 201 || c.runs != 1 {
		t.Fatalf("got %+v after %d runs", a, c.runs)
	}
}
