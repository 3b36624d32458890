/**
 * Generated Python test suite (pytest) for the section 11 scenarios, against the generated engine
 * with an in-memory store and a controllable clock — runnable without a database.
 */
import { expectedFingerprint } from '../../design/plan/expected-fingerprint.js';
import type { ActionPlan, Plan } from '../../design/plan/plan.js';
import { sampleBodies } from '../../design/plan/samples.js';

const py = (value: unknown): string => JSON.stringify(value).replace(/\bnull\b/g, 'None').replace(/\btrue\b/g, 'True').replace(/\bfalse\b/g, 'False');

/**
 * `tests/test_idempotency.py`.
 * @example pythonTests(plan).includes('def test_concurrent_requests_with_same_key')
 */
export function pythonTests(plan: Plan): string {
  const target = (plan.actions.find((a) => a.action.kind === 'http') ?? plan.actions[0]) as ActionPlan;
  const { same, different } = sampleBodies(target.action);
  const saga = plan.actions.some((a) => a.saga)
    ? `

@pytest.mark.skip(reason="wire to your saga runner: fail step 2 once, retry, assert step 1 ran once")
def test_saga_step_2_fails_retry_resumes_from_step_2():
    pass
`
    : '';
  return `"""Idempotency test scenarios (design document, section 11) for ${target.action.name}, on an in-memory
store with a controllable clock. Run with: python -m pytest <this folder>"""
import threading
import time
import uuid

import pytest

from .engine import POLICIES, Claimed, Existing, run
from .fingerprint import fingerprint

ACTION = ${JSON.stringify(target.action.name)}
POLICY = POLICIES[ACTION]
BODY = ${py(same)}
OTHER_BODY = ${py(different)}


class MemoryStore:
    """The store contract in memory: atomic under a lock, its own clock (ms)."""

    def __init__(self) -> None:
        self.now = 1_748_772_000_000
        self.records = {}
        self.lock = threading.Lock()

    def claim(self, key, scope, fingerprint, lease_ms, ttl_ms):
        with self.lock:
            record = self.records.get((scope, key))
            free = record is None
            expired = not free and record["status"] != "PROCESSING" and record["expires_at"] <= self.now
            orphan = not free and record["status"] == "PROCESSING" and record["locked_until"] <= self.now and record["fingerprint"] == fingerprint
            if free or expired or orphan:
                # Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
                version = self.now if free else record["lock_version"] + 1 if orphan else max(record["lock_version"] + 1, self.now)
                self.records[(scope, key)] = {"status": "PROCESSING", "fingerprint": fingerprint, "lock_version": version,
                                              "locked_until": self.now + lease_ms, "expires_at": self.now + ttl_ms, "code": None, "body": None}
                return Claimed(key, scope, version, not free)
            return Existing(record["status"], record["fingerprint"], record["code"], record["body"],
                            max(0, (record["locked_until"] or 0) - self.now))

    def _held(self, claim):
        record = self.records.get((claim.scope, claim.key))
        return record if record and record["status"] == "PROCESSING" and record["lock_version"] == claim.lock_version else None

    def finish(self, claim, status, code, body, ttl_ms):
        with self.lock:
            record = self._held(claim)
            if record is None:
                return False
            record.update(status=status, code=code, body=body, locked_until=None, expires_at=self.now + ttl_ms)
            return True

    def release(self, claim):
        with self.lock:
            if self._held(claim) is None:
                return False
            del self.records[(claim.scope, claim.key)]
            return True

    def extend(self, claim, lease_ms):
        with self.lock:
            record = self._held(claim)
            if record is None:
                return False
            record["locked_until"] = self.now + lease_ms
            return True


class Counter:
    def __init__(self) -> None:
        self.runs = 0
        self.lock = threading.Lock()

    def __call__(self):
        with self.lock:
            self.runs += 1
            runs = self.runs
        time.sleep(0.02)
        return 201, {"id": f"res-{runs}"}


def call(store, counter, intent, body, scope="usr-1"):
    return run(store, ACTION, intent, scope, fingerprint(ACTION, body), counter)


def test_fingerprint_matches_the_typescript_runtime():
    assert fingerprint(ACTION, BODY) == ${JSON.stringify(expectedFingerprint(target, same))}


def test_same_key_same_body_first_request_executes():
    store, counter = MemoryStore(), Counter()
    answer = call(store, counter, str(uuid.uuid4()), BODY)
    assert answer.status_code == 201 and not answer.replayed
    assert counter.runs == 1


def test_same_key_same_body_second_request_replays_without_running():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    first = call(store, counter, intent, BODY)
    second = call(store, counter, intent, BODY)
    assert second.replayed and second.body == first.body
    assert counter.runs == 1


def test_same_key_different_body_is_409():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    call(store, counter, intent, BODY)
    answer = call(store, counter, intent, OTHER_BODY)
    assert answer.status_code == 409 and answer.body["code"] == "fingerprint_mismatch"
    assert "fingerprint" not in answer.body["detail"].lower()
    assert counter.runs == 1


def test_concurrent_requests_with_same_key_execute_once():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    answers = []
    barrier = threading.Barrier(20)

    def worker():
        barrier.wait()
        answers.append(call(store, counter, intent, BODY))

    threads = [threading.Thread(target=worker) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter.runs == 1
    assert all(answer.status_code in (201, 409) for answer in answers)


def test_key_from_a_different_user_never_returns_their_response():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    mine = call(store, counter, intent, BODY, scope="usr-1")
    theirs = call(store, counter, intent, BODY, scope="usr-2")
    assert not theirs.replayed and theirs.body != mine.body


def test_request_after_expiry_is_a_new_request():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    call(store, counter, intent, BODY)
    store.now += POLICY.ttl_ms + 1
    assert not call(store, counter, intent, BODY).replayed
    assert counter.runs == 2


def test_crash_mid_processing_then_retry_after_the_lease():
    store, counter = MemoryStore(), Counter()
    intent = str(uuid.uuid4())
    store.claim(f"{ACTION}_{intent}", "usr-1", fingerprint(ACTION, BODY), POLICY.lease_ms, POLICY.ttl_ms)  # the worker died
    assert call(store, counter, intent, BODY).status_code == 409
    store.now += POLICY.lease_ms + 1
    assert call(store, counter, intent, BODY).status_code == 201
    assert counter.runs == 1
${saga}`;
}

/**
 * `cleanup.py`: the scheduled purge (or, on Redis, the TTL audit).
 * @example cleanupPy(plan).includes('def purge_expired')
 */
export function cleanupPy(plan: Plan): string {
  if (plan.stack.store === 'redis') {
    return `"""Cleanup on Redis: records expire by PEXPIREAT on their own. This job only audits: it counts
records (the store_size gauge) and gives a TTL to any record that lost it."""
from typing import Any


def audit(client: Any, prefix: str = "idem", default_ttl_ms: int = ${plan.maxTtlMs}) -> int:
    count = 0
    for key in client.scan_iter(match=f"{prefix}:*", count=1000):
        count += 1
        if client.pttl(key) == -1:
            client.pexpire(key, default_ttl_ms)
    return count
`;
  }
  return `"""Cleanup job: deletes expired COMPLETED/FAILED records in bounded batches; PROCESSING records are
never touched. Safe to run on every instance at once. Schedule run_forever() in a worker, or call
purge_expired() from cron / Celery beat every minute."""
import logging
import time

from .store import SqlStore

log = logging.getLogger("idempotency.cleanup")


def purge_expired(store: SqlStore, batch_size: int = 1000, max_batches: int = 500) -> int:
    total = 0
    for _ in range(max_batches):
        deleted = store.purge_expired(batch_size)
        total += deleted
        if deleted < batch_size:
            break
    return total


def run_forever(store: SqlStore, every_s: float = 60.0) -> None:
    while True:
        try:
            log.info("idempotency cleanup purged %d records", purge_expired(store))
        except Exception:  # the next round retries; the table only grows meanwhile
            log.exception("idempotency cleanup failed")
        time.sleep(every_s)
`;
}
