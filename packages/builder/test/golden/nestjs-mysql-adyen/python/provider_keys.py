"""Provider keys derived from the local (scope, key[, step]) exactly as the TypeScript runtime does
(@idempotency-builder/runtime/payments, docs/payments.md): a retry never mints a fresh provider
reference, and a Python service and a TypeScript service send the same key for the same intent.

    material    = key (scope "global") or scope:key, plus :step when a step is given
    fit(m, max) = m when len(m) <= max and m only has [A-Za-z0-9_.:-]
                = safe(m)[:max-45] + "~h" + base64url(SHA-256(m)) otherwise

Lengths are counted in UTF-16 code units, as JavaScript does. Never change the derivation while
records or provider keys are alive: it would re-charge every in-flight retry."""
import base64
import hashlib
import re
import uuid
from typing import Optional

from .project import PROJECT

GLOBAL_SCOPE = "global"
# "~h" plus 43 base64url characters of SHA-256.
_HASH_SUFFIX_LENGTH = 45
_LIMITS = PROJECT["providerKeyLimits"]
_KEY = re.compile(r"[A-Za-z0-9_.:~-]+")
_STEP = re.compile(r"[A-Za-z0-9.-]{1,32}")
_SAFE = re.compile(r"[A-Za-z0-9_.:-]+")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.:-]")
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
# JavaScript's [\u0000-\u001f\u007f\s].
_SCOPE_SPACE = re.compile("[\u0000-\u0020\u007f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]")

# Fixed for this service forever (project.json): changing it changes every PayPal-Request-Id.
PAYPAL_NAMESPACE = PROJECT["paypalNamespace"]


def _utf16_length(value: str) -> int:
    return sum(2 if ord(char) > 0xFFFF else 1 for char in value)


def _check_step(step: str) -> None:
    if not isinstance(step, str) or not _STEP.fullmatch(step):
        raise ValueError(f"Provider step must match ^[A-Za-z0-9.-]{{1,32}}$; got {step!r}.")


def intent_material(key: str, scope: str, step: Optional[str] = None) -> str:
    """The scope-qualified string every provider key is derived from."""
    if not isinstance(key, str) or not key or len(key) > 255 or not _KEY.fullmatch(key):
        raise ValueError("The key must be 1-255 characters of A-Z a-z 0-9 _ . : ~ -")
    if not isinstance(scope, str) or not scope or _utf16_length(scope) > 128 or _SCOPE_SPACE.search(scope):
        raise ValueError("The scope must be 1-128 characters without whitespace or control characters.")
    if step is not None:
        _check_step(step)
    base = key if scope == GLOBAL_SCOPE else f"{scope}:{key}"
    return base if step is None else f"{base}:{step}"


def fit_provider_key(value: str, max_length: int) -> str:
    """value itself when it fits and is plain; otherwise a readable prefix plus SHA-256 of the whole."""
    if max_length < _HASH_SUFFIX_LENGTH + 1:
        raise ValueError(f"A provider key limit must be at least {_HASH_SUFFIX_LENGTH + 1}.")
    if len(value) <= max_length and _SAFE.fullmatch(value):
        return value
    digest = base64.urlsafe_b64encode(hashlib.sha256(value.encode("utf-8")).digest()).rstrip(b"=").decode("ascii")
    # JavaScript replaces each UTF-16 code unit: a character beyond U+FFFF becomes "--".
    readable = _UNSAFE.sub(lambda m: "--" if ord(m.group(0)) > 0xFFFF else "-", value)
    return f"{readable[:max_length - _HASH_SUFFIX_LENGTH]}~h{digest}"


def stripe_idempotency_key(key: str, scope: str, step: Optional[str] = None) -> str:
    """Stripe Idempotency-Key for an intent (at most 255 characters)."""
    return fit_provider_key(intent_material(key, scope, step), _LIMITS["stripe"])


def adyen_idempotency_key(key: str, scope: str, step: Optional[str] = None) -> str:
    """Adyen Idempotency-Key header for an intent (at most 64 characters)."""
    return fit_provider_key(intent_material(key, scope, step), _LIMITS["adyenKey"])


def adyen_reference(key: str, scope: str, step: str) -> str:
    """Adyen merchant reference {scope:key}_{step} within 80 characters, the step readable at the end."""
    _check_step(step)
    fitted = fit_provider_key(intent_material(key, scope), _LIMITS["adyenReference"] - len(step) - 1)
    return f"{fitted}_{step}"


def paypal_request_id(key: str, scope: str, step: Optional[str] = None, namespace: str = PAYPAL_NAMESPACE) -> str:
    """PayPal-Request-Id = UUIDv5(namespace, material)."""
    if not isinstance(namespace, str) or not _UUID.fullmatch(namespace):
        raise ValueError(f"PayPal namespace must be a UUID; got {namespace!r}.")
    return str(uuid.uuid5(uuid.UUID(namespace), intent_material(key, scope, step)))


def braintree_order_id(key: str, scope: str, step: Optional[str] = None) -> str:
    """Braintree orderId for an intent (at most 255 characters): searchable, so reconciliation finds the
    sale before a retry (Braintree keeps no idempotency key for most accounts)."""
    return fit_provider_key(intent_material(key, scope, step), _LIMITS["braintreeOrderId"])


def end_to_end_id(key: str, scope: str, step: Optional[str] = None) -> str:
    """ISO 20022 EndToEndId (max 35 chars): the first 35 hex chars of SHA-256 of the intent material."""
    return hashlib.sha256(intent_material(key, scope, step).encode("utf-8")).hexdigest()[:35]
