"""Provider-side keys derived deterministically from the local key: a retry never mints a fresh
provider reference, so the provider deduplicates the same logical request the local store does."""
import base64
import hashlib
import uuid

from .project import PROJECT


def full_key(scope: str, stored_key: str) -> str:
    """{scope}_{action}_{intent}: scope included, because provider keys are account-wide."""
    return f"{scope}_{stored_key}"


def _sha256_hex(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


def stripe_idempotency_key(key: str) -> str:
    """Stripe Idempotency-Key: max 255 characters, kept by Stripe for at least 24 hours."""
    return key if len(key) <= 255 else f"sha256-{_sha256_hex(key)}"


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


# Fixed for this service forever (project.json): changing it changes every PayPal-Request-Id.
PAYPAL_NAMESPACE = uuid.UUID(PROJECT["paypalNamespace"])


def paypal_request_id(key: str) -> str:
    """PayPal-Request-Id = UUIDv5(namespace, key)."""
    return str(uuid.uuid5(PAYPAL_NAMESPACE, key))


def end_to_end_id(key: str) -> str:
    """ISO 20022 EndToEndId (max 35 chars): the first 35 hex chars of SHA-256(key)."""
    return _sha256_hex(key)[:35]
