"""Idempotency test scenarios (design document, section 11) for the first protected action, on an
in-memory store with a controllable clock. Run with: python -m pytest <this folder>, or without
pytest: python -m <package>.test_idempotency"""
import json
import threading
from dataclasses import replace
import time
import uuid

from .engine import Claimed, Existing, Record, policy_of, run
from .fingerprint import fingerprint
from .project import PROJECT

SAMPLE = PROJECT["sample"]
ACTION = SAMPLE["action"]
POLICY = policy_of(ACTION)
BODY = SAMPLE["body"]
OTHER_BODY = SAMPLE["otherBody"]


class MemoryStore:
    """The store contract's request-flow half in memory: atomic under a lock, its own clock (ms)."""

    def __init__(self) -> None:
        self.now = 1_748_772_000_000
        self.records = {}
        self.lock = threading.Lock()

    def claim(self, key, scope, fingerprint, lease_ms, ttl_ms, owner=None, replace_expired=True):
        with self.lock:
            record = self.records.get((scope, key))
            free = record is None
            expired = not free and record.status != "PROCESSING" and record.expires_at <= self.now and replace_expired
            orphan = not free and record.status == "PROCESSING" and record.locked_until <= self.now and record.fingerprint == fingerprint
            if free or expired or orphan:
                # Fencing tokens as in the real stores: fresh = clock ms, orphan = +1, expired = max(+1, now).
                version = self.now if free else record.lock_version + 1 if orphan else max(record.lock_version + 1, self.now)
                self.records[(scope, key)] = Record(key, scope, owner, fingerprint, "PROCESSING", version, self.now + lease_ms,
                                                    self.now, None, self.now + ttl_ms, None)
                return Claimed(key, scope, version, orphan, expired)
            return Existing(record, self.now)

    def _held(self, key, scope, lock_version):
        record = self.records.get((scope, key))
        return record if record and record.status == "PROCESSING" and record.lock_version == lock_version else None

    def _finish(self, status, key, scope, lock_version, response, ttl_ms):
        with self.lock:
            record = self._held(key, scope, lock_version)
            if record is None:
                return False
            self.records[(scope, key)] = replace(record, status=status, locked_until=None, completed_at=self.now,
                                                 expires_at=self.now + ttl_ms, response=response)
            return True

    def complete(self, key, scope, lock_version, response, ttl_ms):
        return self._finish("COMPLETED", key, scope, lock_version, response, ttl_ms)

    def fail(self, key, scope, lock_version, response, ttl_ms):
        return self._finish("FAILED", key, scope, lock_version, response, ttl_ms)

    def release(self, key, scope, lock_version):
        with self.lock:
            if self._held(key, scope, lock_version) is None:
                return False
            del self.records[(scope, key)]
            return True

    def extend(self, key, scope, lock_version, lease_ms):
        with self.lock:
            record = self._held(key, scope, lock_version)
            if record is None:
                return False
            self.records[(scope, key)] = replace(record, locked_until=self.now + lease_ms)
            return True

    def get(self, key, scope):
        return self.records.get((scope, key))


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
    assert fingerprint(ACTION, BODY) == SAMPLE["fingerprint"]


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
    body = json.loads(answer.body)
    assert answer.status_code == 409 and body["code"] == "fingerprint_mismatch"
    assert body["type"] == PROJECT["problemTypeBase"] + "fingerprint_mismatch"
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
    answer = call(store, counter, intent, BODY)
    assert answer.status_code == 409 and (answer.retry_after_s or 0) >= 1
    store.now += POLICY.lease_ms + 1
    assert call(store, counter, intent, BODY).status_code == 201
    assert counter.runs == 1


if __name__ == "__main__":
    TESTS = [(name, test) for name, test in sorted(globals().items()) if name.startswith("test_") and callable(test)]
    for name, test in TESTS:
        test()
        print(f"PASS {name}")
    print(f"{len(TESTS)} passed")
