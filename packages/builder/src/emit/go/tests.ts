/**
 * Generated Go test suite (`go test`) for the section 11 scenarios on an in-memory store, plus the
 * cleanup loop.
 */
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { sampleBodies } from '../../design/plan/samples.js';
import { expectedFingerprint } from '../../design/plan/expected-fingerprint.js';

/**
 * `cleanup.go`.
 * @example cleanupGo(plan).includes('func RunCleanup(')
 */
export function cleanupGo(plan: Plan): string {
  if (plan.stack.store === 'redis') {
    return `// Cleanup on Redis: records expire by PEXPIREAT on their own, so there is nothing to purge. Count
// records for the store_size gauge with SCAN (on a replica), never KEYS.
package idempotency
`;
  }
  return `// Cleanup job: deletes expired COMPLETED/FAILED records in bounded batches; PROCESSING records are
// never touched. Safe to run on every instance at once.
package idempotency

import (
\t"context"
\t"log"
\t"time"
)

// RunCleanup purges every interval until ctx ends: go idempotency.RunCleanup(ctx, store, time.Minute, 1000).
func RunCleanup(ctx context.Context, store *SQLStore, every time.Duration, batchSize int) {
\tticker := time.NewTicker(every)
\tdefer ticker.Stop()
\tfor {
\t\tselect {
\t\tcase <-ctx.Done():
\t\t\treturn
\t\tcase <-ticker.C:
\t\t\tfor batch := 0; batch < 500; batch++ {
\t\t\t\tdeleted, err := store.PurgeExpired(ctx, batchSize)
\t\t\t\tif err != nil {
\t\t\t\t\tlog.Printf("idempotency cleanup failed: %v", err)
\t\t\t\t\tbreak
\t\t\t\t}
\t\t\t\tif deleted < int64(batchSize) {
\t\t\t\t\tbreak
\t\t\t\t}
\t\t\t}
\t\t}
\t}
}
`;
}

/**
 * `idempotency_test.go`.
 * @example goTests(plan).includes('func TestConcurrentRequestsWithSameKey(')
 */
export function goTests(plan: Plan): string {
  const target = (plan.actions.find((a) => a.action.kind === 'http') ?? plan.actions[0]) as ActionPlan;
  const { same, different } = sampleBodies(target.action);
  const expected = expectedFingerprint(target, same);
  return `// Idempotency test scenarios (design document, section 11) for ${target.action.name}, on an in-memory store.
package idempotency

import (
\t"context"
\t"encoding/json"
\t"fmt"
\t"sync"
\t"testing"
)

const testAction = ${JSON.stringify(target.action.name)}

type memoryStore struct {
\tmu      sync.Mutex
\tnow     int64
\trecords map[string]*memoryRecord
}

type memoryRecord struct {
\tstatus, fingerprint  string
\tversion, lockedUntil int64
\texpiresAt            int64
\tcode                 int
\tbody                 []byte
}

func newMemoryStore() *memoryStore {
\treturn &memoryStore{now: 1_748_772_000_000, records: map[string]*memoryRecord{}}
}

func (m *memoryStore) Claim(_ context.Context, key, scope, fp string, leaseMs, ttlMs int64) (*Claimed, *Existing, error) {
\tm.mu.Lock()
\tdefer m.mu.Unlock()
\tid := scope + "\\x00" + key
\tr := m.records[id]
\tif r == nil || (r.status != "PROCESSING" && r.expiresAt <= m.now) || (r.status == "PROCESSING" && r.lockedUntil <= m.now && r.fingerprint == fp) {
\t\t// Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
\t\tversion := m.now
\t\tif r != nil && r.status == "PROCESSING" {
\t\t\tversion = r.version + 1
\t\t} else if r != nil && r.version+1 > m.now {
\t\t\tversion = r.version + 1
\t\t}
\t\tm.records[id] = &memoryRecord{status: "PROCESSING", fingerprint: fp, version: version, lockedUntil: m.now + leaseMs, expiresAt: m.now + ttlMs}
\t\treturn &Claimed{Key: key, Scope: scope, LockVersion: version, Reclaimed: r != nil}, nil, nil
\t}
\treturn nil, &Existing{Status: r.status, Fingerprint: r.fingerprint, ResponseCode: r.code, ResponseBody: r.body, RetryAfterMs: r.lockedUntil - m.now}, nil
}

func (m *memoryStore) held(c Claimed) *memoryRecord {
\tr := m.records[c.Scope+"\\x00"+c.Key]
\tif r == nil || r.status != "PROCESSING" || r.version != c.LockVersion {
\t\treturn nil
\t}
\treturn r
}

func (m *memoryStore) Finish(_ context.Context, c Claimed, status string, code int, body []byte, ttlMs int64) (bool, error) {
\tm.mu.Lock()
\tdefer m.mu.Unlock()
\tr := m.held(c)
\tif r == nil {
\t\treturn false, nil
\t}
\tr.status, r.code, r.body, r.expiresAt = status, code, body, m.now+ttlMs
\treturn true, nil
}

func (m *memoryStore) Release(_ context.Context, c Claimed) (bool, error) {
\tm.mu.Lock()
\tdefer m.mu.Unlock()
\tif m.held(c) == nil {
\t\treturn false, nil
\t}
\tdelete(m.records, c.Scope+"\\x00"+c.Key)
\treturn true, nil
}

func (m *memoryStore) Extend(_ context.Context, c Claimed, leaseMs int64) (bool, error) {
\tm.mu.Lock()
\tdefer m.mu.Unlock()
\tr := m.held(c)
\tif r == nil {
\t\treturn false, nil
\t}
\tr.lockedUntil = m.now + leaseMs
\treturn true, nil
}

func body(t *testing.T, text string) map[string]any {
\tvar out map[string]any
\tif err := json.Unmarshal([]byte(text), &out); err != nil {
\t\tt.Fatal(err)
\t}
\treturn out
}

type counter struct {
\tmu   sync.Mutex
\truns int
}

func (c *counter) execute(_ context.Context) (int, []byte, error) {
\tc.mu.Lock()
\tc.runs++
\truns := c.runs
\tc.mu.Unlock()
\treturn 201, []byte(fmt.Sprintf(\`{"id":"res-%d"}\`, runs)), nil
}

func call(t *testing.T, store Store, c *counter, intent, payload, scope string) Answer {
\tfp, err := Fingerprint(testAction, body(t, payload), "")
\tif err != nil {
\t\tt.Fatal(err)
\t}
\tanswer, err := Run(context.Background(), store, testAction, intent, scope, fp, c.execute)
\tif err != nil {
\t\tt.Fatal(err)
\t}
\treturn answer
}

const sameBody = ${JSON.stringify(JSON.stringify(same))}
const otherBody = ${JSON.stringify(JSON.stringify(different))}

func TestFingerprintMatchesTheTypeScriptRuntime(t *testing.T) {
\tfp, err := Fingerprint(testAction, body(t, sameBody), "")
\tif err != nil || fp != ${JSON.stringify(expected)} {
\t\tt.Fatalf("fingerprint %s differs from the runtime's", fp)
\t}
}

func TestSameKeySameBodyFirstRequestExecutes(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tif a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f11", sameBody, "usr-1"); a.Status != 201 || a.Replayed || c.runs != 1 {
\t\tt.Fatalf("got %+v after %d runs", a, c.runs)
\t}
}

func TestSameKeySameBodySecondRequestReplays(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tfirst := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f12", sameBody, "usr-1")
\tsecond := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f12", sameBody, "usr-1")
\tif !second.Replayed || string(second.Body) != string(first.Body) || c.runs != 1 {
\t\tt.Fatalf("got %+v after %d runs", second, c.runs)
\t}
}

func TestSameKeyDifferentBodyIs409(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tcall(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f13", sameBody, "usr-1")
\tif a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f13", otherBody, "usr-1"); a.Status != 409 || a.ProblemCode != "fingerprint_mismatch" || c.runs != 1 {
\t\tt.Fatalf("got %+v after %d runs", a, c.runs)
\t}
}

func TestConcurrentRequestsWithSameKey(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tvar wg sync.WaitGroup
\tstatuses := make(chan int, 20)
\tfor i := 0; i < 20; i++ {
\t\twg.Add(1)
\t\tgo func() {
\t\t\tdefer wg.Done()
\t\t\tstatuses <- call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f14", sameBody, "usr-1").Status
\t\t}()
\t}
\twg.Wait()
\tclose(statuses)
\tfor status := range statuses {
\t\tif status != 201 && status != 409 {
\t\t\tt.Fatalf("unexpected status %d", status)
\t\t}
\t}
\tif c.runs != 1 {
\t\tt.Fatalf("executed %d times", c.runs)
\t}
}

func TestKeyFromDifferentUserNeverReturnsTheirResponse(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tmine := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f15", sameBody, "usr-1")
\ttheirs := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f15", sameBody, "usr-2")
\tif theirs.Replayed || string(theirs.Body) == string(mine.Body) {
\t\tt.Fatalf("usr-2 received usr-1's response")
\t}
}

func TestRequestAfterExpiryIsNew(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tcall(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f16", sameBody, "usr-1")
\tstore.now += Policies[testAction].TTLMs + 1
\tif a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f16", sameBody, "usr-1"); a.Replayed || c.runs != 2 {
\t\tt.Fatalf("got %+v after %d runs", a, c.runs)
\t}
}

func TestCrashMidProcessingThenRetry(t *testing.T) {
\tstore, c := newMemoryStore(), &counter{}
\tfp, _ := Fingerprint(testAction, body(t, sameBody), "")
\tpolicy := Policies[testAction]
\tstore.Claim(context.Background(), testAction+"_0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", "usr-1", fp, policy.LeaseMs, policy.TTLMs)
\tif a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", sameBody, "usr-1"); a.Status != 409 {
\t\tt.Fatalf("expected 409 while the lease lives, got %d", a.Status)
\t}
\tstore.now += policy.LeaseMs + 1
\tif a := call(t, store, c, "0b6e3c3e-8a0f-4a43-9d43-5a8b8a9c6f17", sameBody, "usr-1"); a.Status != 201 || c.runs != 1 {
\t\tt.Fatalf("got %+v after %d runs", a, c.runs)
\t}
}
`;
}
