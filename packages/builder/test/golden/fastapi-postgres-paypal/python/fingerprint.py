"""Fingerprint utility: byte for byte the TypeScript runtime's requestFingerprint, so services in
several languages can share one store. SHA-256 (hex) of [method, path, kind, digest] plus, when the
request has a query string, ['query', SHA-256(canonical JSON of its [name, value] pairs sorted by
name)], each part typed and length-prefixed. kind is 'fields2' (the significant fields, each
[1, value] when present -- even as None -- or [0] when missing), 'json' (no fields named: the whole
body minus DEFAULT_EXCLUDED_PATHS), 'text' (a JSON string body) or 'none' (no body). Canonical JSON
is RFC 8785: keys sorted by UTF-16 code units, numbers printed as JavaScript prints them."""
from __future__ import annotations

import hashlib
import json
import math
from decimal import Decimal
from typing import Any, Iterable, Optional, Sequence
from urllib.parse import unquote_to_bytes

from .project import ACTIONS

# Left out of the whole-body fingerprint (they vary between retries of one intent): dot paths from
# the top of the body, as the runtime's fingerprintJson applies them.
DEFAULT_EXCLUDED_PATHS = ("timestamp", "requestId", "request_id", "traceId", "trace_id", "nonce", "sentAt", "sent_at")
_MAX_DEPTH = 256  # the runtime's MAX_FINGERPRINT_DEPTH
_MAX_SAFE = 2**53 - 1
_MISSING = [0]


class UnhashableInputError(ValueError):
    """A body the runtime refuses to fingerprint (answered 400, nothing claimed)."""


def _value_at(body: Any, path: str) -> Any:
    node = body
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _field_at(body: Any, path: str) -> list:
    """[1, value] when the path exists (even as None), [0] when it does not: they must differ."""
    node = body
    for part in path.split("."):
        if isinstance(node, dict):
            if part not in node:
                return _MISSING
            node = node[part]
        elif isinstance(node, list):
            # A JavaScript array's own properties: its indexes ("0", not "00") and length.
            if part == "length":
                node = len(node)
            elif part.isdigit() and part.isascii() and str(int(part)) == part and int(part) < len(node):
                node = node[int(part)]
            else:
                return _MISSING
        else:
            return _MISSING
    return [1, node]


def _omit_path(value: Any, path: Sequence[str]) -> Any:
    if not path or not isinstance(value, dict) or path[0] not in value:
        return value
    copy = dict(value)
    if len(path) == 1:
        del copy[path[0]]
    else:
        copy[path[0]] = _omit_path(copy[path[0]], path[1:])
    return copy


def _number(value: Any) -> str:
    """A number as JavaScript's Number#toString prints it (RFC 8785 section 3.2.2.3)."""
    if isinstance(value, int):
        if abs(value) > _MAX_SAFE:
            raise UnhashableInputError("unsafe_integer")
        return str(value)
    number = float(value)
    if not math.isfinite(number):
        raise UnhashableInputError("non_finite_number")
    if number.is_integer() and abs(number) > _MAX_SAFE:
        raise UnhashableInputError("unsafe_integer")
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    _, digit_tuple, exponent = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(str(d) for d in digit_tuple)
    k, n = len(digits), len(digits) + exponent
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    mantissa = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


def _string(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise UnhashableInputError("lone_surrogate") from None
    # Python escapes exactly as JSON.stringify does when ensure_ascii is off.
    return json.dumps(text, ensure_ascii=False)


def _utf16(text: str) -> bytes:
    return text.encode("utf-16-be", "surrogatepass")


def _canonical(value: Any, depth: int) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (list, tuple, dict)) and depth >= _MAX_DEPTH:
        raise UnhashableInputError("too_deep")
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_canonical(v, depth + 1) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted(((str(k), v) for k, v in value.items()), key=lambda item: _utf16(item[0]))
        return "{" + ",".join(_string(k) + ":" + _canonical(v, depth + 1) for k, v in items) + "}"
    raise UnhashableInputError("unsupported_value")


def canonical_json(value: Any) -> str:
    """RFC 8785 canonical JSON of JSON-decoded values (the runtime's canonicalize)."""
    return _canonical(value, 0)


def fingerprint_json(value: Any, exclude: Iterable[str] = DEFAULT_EXCLUDED_PATHS) -> str:
    """The runtime's fingerprintJson: SHA-256 hex of canonical JSON minus the excluded dot paths."""
    for path in exclude:
        value = _omit_path(value, path.split("."))
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def _typed(part: str) -> str:
    return f"string:{len(part.encode('utf-8'))}:{part}"


def fingerprint_fields(parts: Iterable[str]) -> str:
    return hashlib.sha256("|".join(_typed(p) for p in parts).encode("utf-8")).hexdigest()


def _form_decode(text: str) -> str:
    # URLSearchParams: "+" is a space, %XX a byte (malformed escapes stay), then UTF-8 with U+FFFD.
    return unquote_to_bytes(text.replace("+", " ")).decode("utf-8", "replace")


def _query_pairs(query: str) -> list:
    pairs = []
    for segment in query.split("&"):
        if segment:
            name, _, value = segment.partition("=")
            pairs.append([_form_decode(name), _form_decode(value)])
    return sorted(pairs, key=lambda pair: _utf16(pair[0]))  # stable: repeated names keep their order


def request_fingerprint(method: str, path: str, fields: Sequence[str], body: Any, query: Optional[str] = None) -> str:
    """The runtime's requestFingerprint for a parsed body: no fields means the whole body; query is
    the raw query string without '?' (None or '' when there is none)."""
    if body is None:
        kind, digest = "none", ""
    elif isinstance(body, str):
        _string(body)  # refuses lone surrogates, as the runtime does
        kind, digest = "text", hashlib.sha256(body.encode("utf-8")).hexdigest()
    elif fields:
        kind, digest = "fields2", fingerprint_json([_field_at(body, field) for field in fields], exclude=())
    else:
        kind, digest = "json", fingerprint_json(body)
    parts = [method, path, kind, digest]
    if query:
        parts += ["query", fingerprint_json(_query_pairs(query), exclude=())]
    return fingerprint_fields(parts)


def fingerprint(action: str, body: Any, path: Optional[str] = None, query: Optional[str] = None) -> str:
    """The fingerprint of one request (body None when none was sent); pass the concrete path when
    the route has parameters, and the raw query string."""
    signature = ACTIONS[action]
    return request_fingerprint(signature["method"], path or signature["path"], signature["fields"], body, query)


def field_value(body: Any, path: str) -> str:
    """A field as text, for server-derived keys."""
    value = _value_at(body, path)
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))  # JavaScript prints 5.0 as 5
    return str(value)
