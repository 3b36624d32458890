/**
 * Generated Python (3.9+, standard library only): the fingerprint utility, the engine
 * (claim → run → store → replay, fenced by lock_version), and provider key derivation.
 */
import type { Plan } from '../../design/plan/plan.js';
import { signatureOf } from '../typescript/core-files.js';

/**
 * `fingerprint.py`: byte-for-byte the same fingerprints as the TypeScript runtime and adapters.
 * @example fingerprintPy(plan).includes('def fingerprint(')
 */
export function fingerprintPy(plan: Plan): string {
  const entries = plan.actions
    .map((a) => {
      const { method, path } = signatureOf(a);
      return `    ${JSON.stringify(a.action.name)}: (${JSON.stringify(method)}, ${JSON.stringify(path)}, (${a.action.significantFields.map((f) => JSON.stringify(f)).join(', ')},)),`;
    })
    .join('\n');
  return `"""Fingerprint utility: SHA-256 (hex) of [method, path, 'fields', SHA-256(canonical JSON of the
significant field values)], each part typed and length-prefixed. Identical to the TypeScript
runtime's HTTP adapters, so services in several languages can share one store. Everything else in a
request (timestamps, trace ids, auth headers) is deliberately left out. Send money as integer minor
units or strings: non-integral floats in exponent form are not guaranteed to encode identically."""
from __future__ import annotations

import hashlib
import json
from typing import Any, Dict, Iterable, Optional, Tuple

SIGNIFICANT: Dict[str, Tuple[str, str, Tuple[str, ...]]] = {
${entries}
}

_MISSING = object()


def _value_at(body: Any, path: str) -> Any:
    node = body
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _normalize(value: Any) -> Any:
    # JavaScript prints 5.0 as 5: integral floats become ints so both sides agree.
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {str(k): _normalize(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_normalize(v) for v in value]
    return value


def canonical_json(value: Any) -> str:
    """RFC 8785 canonical JSON for strings, integers, booleans, null, lists and objects."""
    return json.dumps(_normalize(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _typed(part: str) -> str:
    return f"string:{len(part.encode('utf-8'))}:{part}"


def fingerprint_fields(parts: Iterable[str]) -> str:
    return hashlib.sha256("|".join(_typed(p) for p in parts).encode("utf-8")).hexdigest()


def fingerprint(action: str, body: Any, path: Optional[str] = None) -> str:
    """The fingerprint of one request; pass the concrete path when the route has parameters."""
    method, default_path, fields = SIGNIFICANT[action]
    values = [_value_at(body, field) for field in fields]
    digest = hashlib.sha256(canonical_json(values).encode("utf-8")).hexdigest()
    return fingerprint_fields([method, path or default_path, "fields", digest])


def field_value(body: Any, path: str) -> str:
    """A field as text, for server-derived keys."""
    value = _value_at(body, path)
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(_normalize(value))
`;
}

/**
 * `engine.py`: the flow, store-agnostic. Stores implement `claim/finish/release/extend`.
 * @example enginePy(plan).includes('def begin(')
 */
export function enginePy(plan: Plan): string {
  const policies = plan.actions.map((a) => `    ${JSON.stringify(a.action.name)}: Policy(lease_ms=${a.lease.leaseMs}, ttl_ms=${a.retention.ttlMs}),`).join('\n');
  return `"""Idempotency engine: claim -> run -> store -> replay. Every decision about time is made by the
store from the database clock; every write after the claim is fenced by lock_version."""
from __future__ import annotations

import hmac
import re
import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Protocol, Tuple, Union


@dataclass(frozen=True)
class Policy:
    lease_ms: int
    ttl_ms: int


# Lock timeout and key expiry per protected action (design document, sections 4 and 5).
POLICIES: Dict[str, Policy] = {
${policies}
}

KEY_PATTERN = re.compile(r"^[A-Za-z0-9_.:~-]{1,255}$")
UUID_PATTERN = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$")
ULID_PATTERN = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")


@dataclass(frozen=True)
class Claimed:
    key: str
    scope: str
    lock_version: int
    reclaimed: bool


@dataclass(frozen=True)
class Existing:
    status: str
    fingerprint: str
    response_code: Optional[int]
    response_body: Any
    retry_after_ms: int


@dataclass(frozen=True)
class Answer:
    """What to send back without running the action: a replay or a problem."""
    status_code: int
    body: Any
    replayed: bool = False
    retry_after_s: Optional[int] = None


class Store(Protocol):
    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int) -> Union[Claimed, Existing]: ...
    def finish(self, claim: Claimed, status: str, code: int, body: Any, ttl_ms: int) -> bool: ...
    def release(self, claim: Claimed) -> bool: ...
    def extend(self, claim: Claimed, lease_ms: int) -> bool: ...


class PermanentError(Exception):
    """A failure that is stored and replayed (declined card, invalid request), never retried."""

    def __init__(self, message: str, status_code: int = 422) -> None:
        super().__init__(message)
        self.status_code = status_code


def problem(status: int, code: str, detail: str, retry_after_s: Optional[int] = None) -> Answer:
    body = {"type": f"urn:idempotency:{code}", "title": code.replace("_", " "), "status": status, "code": code, "detail": detail}
    return Answer(status, body, retry_after_s=retry_after_s)


def validate_intent(header: Optional[str]) -> Union[str, Answer]:
    """The client's Idempotency-Key: a UUID (normalised to lower case) or a ULID."""
    if not header:
        return problem(400, "missing_key", "Send an Idempotency-Key header: a UUIDv4 generated once per intent.")
    if UUID_PATTERN.match(header):
        return header.lower()
    if ULID_PATTERN.match(header):
        return header
    return problem(400, "invalid_key", "The Idempotency-Key must be a UUID (v4) or a ULID.")


def begin(store: Store, action: str, intent: str, scope: str, fingerprint: str) -> Union[Claimed, Answer]:
    """Claims the key, or answers the duplicate: replay, in progress, or fingerprint mismatch."""
    key = f"{action}_{intent}"
    if not KEY_PATTERN.match(key):
        return problem(400, "invalid_key", "The idempotency key is too long or has characters outside [A-Za-z0-9_.:~-].")
    policy = POLICIES[action]
    result = store.claim(key, scope, fingerprint, policy.lease_ms, policy.ttl_ms)
    if isinstance(result, Claimed):
        return result
    # Constant-time comparison: a timing side channel must not reveal the stored fingerprint.
    if not hmac.compare_digest(result.fingerprint, fingerprint):
        return problem(409, "fingerprint_mismatch", "This idempotency key was already used with different request parameters.")
    if result.status in ("COMPLETED", "FAILED"):
        return Answer(result.response_code or 200, result.response_body, replayed=True)
    seconds = max(1, -(-result.retry_after_ms // 1000))
    return problem(409, "in_progress", "A request with this idempotency key is still being processed.", seconds)


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
                if not self._store.extend(self._claim, self._lease_ms):
                    self.lost = True
                    return
            except Exception:  # a failed beat is retried; the lease itself is the safety net
                continue


def run(store: Store, action: str, intent: str, scope: str, fingerprint: str, execute: Callable[[], Tuple[int, Any]]) -> Answer:
    """The whole flow for synchronous code: claim, run once, store, or answer the duplicate."""
    claimed = begin(store, action, intent, scope, fingerprint)
    if isinstance(claimed, Answer):
        return claimed
    policy = POLICIES[action]
    with Heartbeat(store, claimed, policy.lease_ms) as heartbeat:
        try:
            status, body = execute()
        except PermanentError as error:
            answer = problem(error.status_code, "failed", str(error))
            store.finish(claimed, "FAILED", answer.status_code, answer.body, policy.ttl_ms)
            return answer
        except Exception:
            store.release(claimed)  # transient: the same key may run again at once
            raise
    if heartbeat.lost:
        return problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1)
    if status >= 500:
        store.release(claimed)
        return Answer(status, body)
    if not store.finish(claimed, "COMPLETED", status, body, policy.ttl_ms):
        return problem(503, "lease_lost", "The request was taken over by another worker; retry with the same key.", 1)
    return Answer(status, body)


def process_message(store: Store, action: str, event_id: str, scope: str, fingerprint: str, execute: Callable[[], Any]) -> str:
    """Consumers: returns 'ack', 'retry-later' or 'dead-letter'. Ack only after the outcome is stored."""
    answer = run(store, action, event_id, scope, fingerprint, lambda: (200, execute()))
    if answer.status_code < 300:
        return "ack"
    code = answer.body.get("code") if isinstance(answer.body, dict) else None
    if code == "fingerprint_mismatch" or (answer.replayed and answer.status_code >= 400):
        return "dead-letter"
    return "retry-later"
`;
}

/**
 * `provider_keys.py`, or undefined without payment providers.
 * @example providerKeysPy(plan)?.includes('uuid.uuid5')
 */
export function providerKeysPy(plan: Plan): string | undefined {
  const providers = new Set([...plan.answers.paymentProviders, ...plan.actions.flatMap((a) => (a.action.provider ? [a.action.provider] : []))]);
  if (providers.size === 0) return undefined;
  const out = [`"""Provider-side keys derived deterministically from the local key: a retry never mints a fresh
provider reference, so the provider deduplicates the same logical request the local store does."""
import base64
import hashlib
import uuid


def full_key(scope: str, stored_key: str) -> str:
    """{scope}_{action}_{intent}: scope included, because provider keys are account-wide."""
    return f"{scope}_{stored_key}"


def _sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()
`];
  if (providers.has('stripe')) out.push(`
def stripe_idempotency_key(key: str) -> str:
    """Stripe Idempotency-Key: max 255 characters, kept by Stripe for at least 24 hours."""
    return key if len(key) <= 255 else f"sha256-{_sha256_hex(key)}"
`);
  if (providers.has('adyen')) out.push(`
def adyen_idempotency_key(key: str) -> str:
    """Adyen Idempotency-Key: max 64 characters; longer keys map to their SHA-256 hex (64 chars)."""
    return key if len(key) <= 64 else _sha256_hex(key)


def adyen_reference(key: str, step: int) -> str:
    """Adyen reference for one step: {key}_{step}, or base64url(SHA-256(key))_{step} beyond 80 chars."""
    direct = f"{key}_{step}"
    if len(direct) <= 80:
        return direct
    digest = base64.urlsafe_b64encode(hashlib.sha256(key.encode("utf-8")).digest()).rstrip(b"=").decode("ascii")
    return f"{digest}_{step}"
`);
  if (providers.has('paypal')) out.push(`
# Fixed for this service forever: changing it changes every PayPal-Request-Id.
PAYPAL_NAMESPACE = uuid.UUID("${plan.paypalNamespace}")


def paypal_request_id(key: str) -> str:
    """PayPal-Request-Id = UUIDv5(namespace, key)."""
    return str(uuid.uuid5(PAYPAL_NAMESPACE, key))
`);
  if (providers.has('bank-transfer')) out.push(`
def end_to_end_id(key: str) -> str:
    """ISO 20022 EndToEndId (max 35 chars): the first 35 hex chars of SHA-256(key)."""
    return _sha256_hex(key)[:35]
`);
  return out.join('');
}
