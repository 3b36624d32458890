"""Idempotency engine: claim -> run -> store -> replay. Every decision about time is made by the
store from its own clock; every write after the claim is fenced by lock_version (the fencing token)."""
from __future__ import annotations

import hmac
import json
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple, Union

from .project import ACTIONS, PROBLEMS, PROJECT

KEY_PATTERN = re.compile(r"^[A-Za-z0-9_.:~-]{1,255}$")
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$")
ULID_PATTERN = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")


@dataclass(frozen=True)
class Policy:
    lease_ms: int
    ttl_ms: int


def policy_of(action: str) -> Policy:
    """An action's lock timeout (lease) and key expiry (retention), from project.json."""
    data = ACTIONS[action]
    return Policy(int(data["leaseMs"]), int(data["ttlMs"]))


@dataclass(frozen=True)
class Response:
    """A stored response: status code and allow-listed headers (None = none), what the body bytes
    are (encoding, e.g. "json") and the bytes themselves."""
    status_code: Optional[int]
    headers: Optional[Dict[str, str]]
    encoding: str
    body: bytes


@dataclass(frozen=True)
class Record:
    """A stored record; times are ms since the epoch on the store clock (None = not set)."""
    key: str
    scope: str
    owner: Optional[str]
    fingerprint: str
    status: str
    lock_version: int
    locked_until: Optional[int]
    created_at: Optional[int]
    completed_at: Optional[int]
    expires_at: int
    response: Optional[Response]


@dataclass(frozen=True)
class Claimed:
    key: str
    scope: str
    lock_version: int
    reclaimed: bool = False
    replaced_expired: bool = False


@dataclass(frozen=True)
class Existing:
    """The record that holds the key, read together with the store clock."""
    record: Record
    now: int

    @property
    def retry_after_ms(self) -> int:
        return max(0, (self.record.locked_until or 0) - self.now)


@dataclass(frozen=True)
class Answer:
    """What to send back: a fresh result, a replay or a problem. body is JSON text."""
    status_code: int
    body: str
    replayed: bool = False
    retry_after_s: Optional[int] = None
    problem_code: Optional[str] = None


class Store(Protocol):
    """The runtime's store contract: each method one atomic operation, every time comparison on the
    store clock, every write after the claim fenced by lock_version (False = lost)."""

    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]: ...
    def complete(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool: ...
    def fail(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool: ...
    def release(self, key: str, scope: str, lock_version: int) -> bool: ...
    def extend(self, key: str, scope: str, lock_version: int, lease_ms: int) -> bool: ...
    def get(self, key: str, scope: str) -> Optional[Record]: ...
    def force_release(self, key: str, scope: str) -> bool: ...
    def purge_expired(self, batch_size: int) -> int: ...
    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]: ...


def json_response(answer: "Answer") -> Response:
    """How the engine stores an answer: its status and JSON body."""
    return Response(answer.status_code, None, "json", answer.body.encode("utf-8"))


class PermanentError(Exception):
    """A failure that is stored and replayed (declined card, invalid request), never retried."""

    def __init__(self, message: str, status_code: int = 422) -> None:
        super().__init__(message)
        self.status_code = status_code


def problem(code: str, retry_after_ms: int = 0) -> Answer:
    """The runtime's problem+json answer for a refusal; its text never echoes the request."""
    spec = PROBLEMS.get(code, {"status": 500, "title": "Unexpected idempotency problem."})
    body = json.dumps({"type": PROJECT["problemTypeBase"] + code, "title": spec["title"], "status": spec["status"], "code": code},
                      separators=(",", ":"), sort_keys=True)
    # Whole seconds, rounded up and never 0: 0 invites a hot retry loop.
    retry = -(-retry_after_ms // 1000) if retry_after_ms > 0 else None
    return Answer(spec["status"], body, retry_after_s=retry, problem_code=code)


def failure_answer(error: PermanentError) -> Answer:
    """The stored answer of a permanent error (RFC 9457 about:blank with the error's text)."""
    body = json.dumps({"type": "about:blank", "title": str(error), "status": error.status_code}, separators=(",", ":"), sort_keys=True)
    return Answer(error.status_code, body, problem_code="failed")


def validate_intent(header: Optional[str]) -> Union[str, Answer]:
    """The client's Idempotency-Key: a UUID (normalised to lower case) or a ULID."""
    if not header:
        return problem("key_required")
    if UUID_PATTERN.match(header):
        return header.lower()
    if ULID_PATTERN.match(header):
        return header
    return problem("invalid_key")


def begin(store: Store, action: str, intent: str, scope: str, fingerprint: str) -> Union[Claimed, Answer]:
    """Claims the key, or answers the duplicate: replay, in progress, or fingerprint mismatch."""
    key = f"{action}_{intent}"
    if not KEY_PATTERN.match(key):
        return problem("invalid_key")
    policy = policy_of(action)
    result = store.claim(key, scope, fingerprint, policy.lease_ms, policy.ttl_ms)
    if isinstance(result, Claimed):
        return result
    record = result.record
    # Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
    if not hmac.compare_digest(record.fingerprint.encode(), fingerprint.encode()):
        return problem("fingerprint_mismatch")
    if record.status in ("COMPLETED", "FAILED") and record.response is not None:
        return Answer(record.response.status_code or 200, record.response.body.decode("utf-8"), replayed=True)
    return problem("in_progress", max(1, result.retry_after_ms))


class Heartbeat:
    """Extends the lease every lease/3 while the action runs; lost becomes True if it was taken over."""

    def __init__(self, store: Store, claim: Claimed, lease_ms: int) -> None:
        self._store, self._claim, self._lease_ms = store, claim, lease_ms
        self._stop = threading.Event()
        self.lost = False
        self._thread = threading.Thread(target=self._beat, daemon=True)

    def __enter__(self) -> "Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        while not self._stop.wait(self._lease_ms / 3000):
            try:
                claim = self._claim
                if not self._store.extend(claim.key, claim.scope, claim.lock_version, self._lease_ms):
                    self.lost = True
                    return
            except Exception:  # a failed beat is retried; the lease itself is the safety net
                continue


def run(store: Store, action: str, intent: str, scope: str, fingerprint: str, execute: Callable[[], Tuple[int, Any]]) -> Answer:
    """The whole flow for synchronous code: claim, run once, store, or answer the duplicate.
    execute returns (status, JSON-serialisable body)."""
    claimed = begin(store, action, intent, scope, fingerprint)
    if isinstance(claimed, Answer):
        return claimed
    policy = policy_of(action)
    with Heartbeat(store, claimed, policy.lease_ms) as heartbeat:
        try:
            status, result = execute()
        except PermanentError as error:
            answer = failure_answer(error)
            if not store.fail(claimed.key, claimed.scope, claimed.lock_version, json_response(answer), policy.ttl_ms):
                return problem("lease_lost", 1000)
            return answer
        except Exception:
            store.release(claimed.key, claimed.scope, claimed.lock_version)  # transient: the same key may run again at once
            raise
    body = json.dumps(result)
    if heartbeat.lost:
        # A newer attempt holds the key: never overwrite it (409, like the runtime's adapters).
        return problem("lease_lost", 1000)
    if status >= 500:
        store.release(claimed.key, claimed.scope, claimed.lock_version)
        return Answer(status, body)
    if not store.complete(claimed.key, claimed.scope, claimed.lock_version, json_response(Answer(status, body)), policy.ttl_ms):
        return problem("lease_lost", 1000)
    return Answer(status, body)


def process_message(store: Store, action: str, event_id: str, scope: str, fingerprint: str, execute: Callable[[], Any]) -> str:
    """Consumers: returns 'ack', 'retry-later' or 'dead-letter'. Ack only after the outcome is stored."""
    answer = run(store, action, event_id, scope, fingerprint, lambda: (200, execute()))
    if answer.status_code < 300:
        return "ack"
    if answer.problem_code == "fingerprint_mismatch" or (answer.replayed and answer.status_code >= 400):
        return "dead-letter"
    return "retry-later"
