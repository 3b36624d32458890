"""Fingerprint utility: SHA-256 (hex) of [method, path, 'fields', SHA-256(canonical JSON of the
significant field values)], each part typed and length-prefixed. Identical to the TypeScript
runtime's HTTP adapters, so services in several languages can share one store. Everything else in a
request (timestamps, trace ids, auth headers) is deliberately left out. Send money as integer minor
units or strings: non-integral floats in exponent form are not guaranteed to encode identically."""
from __future__ import annotations

import hashlib
import json
from typing import Any, Iterable, Optional

from .project import ACTIONS


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
    signature = ACTIONS[action]
    values = [_value_at(body, field) for field in signature["fields"]]
    digest = hashlib.sha256(canonical_json(values).encode("utf-8")).hexdigest()
    return fingerprint_fields([signature["method"], path or signature["path"], "fields", digest])


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
