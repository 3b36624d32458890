"""Idempotency store on Redis through redis-py: the runtime's Lua scripts (project.json), one per
operation, atomic on the server and timed by the server clock (TIME). The key layout is the
runtime's, so every key of one record shares a Redis Cluster hash slot and TypeScript services can
share the store. A PROCESSING record never gets a Redis expiry: only complete/fail set one."""
from __future__ import annotations

import json
from typing import Any, List, Optional, Union

from .engine import Claimed, Existing, Record, Response
from .project import PROJECT, SCRIPTS

FIELDS = ["k", "sp", "o", "fp", "s", "v", "lu", "ca", "cpa", "ea", "sc", "hd", "en", "b"]


def _text(value: Any) -> Optional[str]:
    if value is None:
        return None
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _int(value: Any) -> Optional[int]:
    text = _text(value)
    return int(text) if text not in (None, "") else None


def _record(values: List[Any]) -> Optional[Record]:
    if len(values) < len(FIELDS) or values[4] is None:
        return None
    response = None
    if values[12] is not None:
        headers = _text(values[11])
        body = values[13]
        response = Response(_int(values[10]), None if headers is None else json.loads(headers), _text(values[12]) or "",
                            body if isinstance(body, bytes) else (_text(body) or "").encode("utf-8"))
    return Record(key=_text(values[0]) or "", scope=_text(values[1]) or "", owner=_text(values[2]), fingerprint=_text(values[3]) or "",
                  status=_text(values[4]) or "", lock_version=_int(values[5]) or 0, locked_until=_int(values[6]),
                  created_at=_int(values[7]), completed_at=_int(values[8]), expires_at=_int(values[9]) or 0, response=response)


class RedisStore:
    """client is a redis-py client created with decode_responses=False (bodies are bytes)."""

    def __init__(self, client: Any, prefix: Optional[str] = None) -> None:
        self._client = client
        self._prefix = prefix or PROJECT["keyPrefix"]
        self._scripts = {name: client.register_script(source) for name, source in SCRIPTS.items()}
        self._keep = int(PROJECT["keepExpiredMs"])

    def _keys(self, scope: str, key: str) -> List[str]:
        # The tag {scope|key} keeps a record and its fence in one slot; "%", "{", "}" and "|" in the
        # scope are escaped so the tag stays unambiguous and inside one pair of braces.
        escaped = scope.replace("%", "%25").replace("{", "%7B").replace("}", "%7D").replace("|", "%7C")
        tag = "{" + escaped + "|" + key + "}"
        return [f"{self._prefix}r:{tag}", f"{self._prefix}f:{tag}"]

    def _call(self, name: str, keys: List[str], args: List[Any]) -> Any:
        return self._scripts[name](keys=keys, args=args)

    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]:
        args = [fingerprint, "0" if owner is None else "1", owner or "", lease_ms, ttl_ms, "1" if replace_expired else "0", key, scope]
        reply = self._call("claim", self._keys(scope, key), args)
        if _text(reply[0]) == "claimed":
            return Claimed(key, scope, int(reply[1]), int(reply[2]) == 1, int(reply[3]) == 1)
        record = _record(list(reply[2]))
        if _text(reply[0]) != "existing" or record is None:
            raise RuntimeError(f"unexpected claim reply {reply!r}")
        return Existing(record, int(reply[1]))

    def _applied(self, name: str, keys: List[str], args: List[Any]) -> bool:
        return _text(self._call(name, keys, args)) == "applied"

    def _finish(self, name: str, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        headers = "" if response.headers is None else json.dumps(response.headers, separators=(",", ":"))
        code = "" if response.status_code is None else str(response.status_code)
        # ARGV: lockVersion, ttlMs, keepExpiredMs, encoding, body, status code, headers.
        args = [lock_version, ttl_ms, self._keep, response.encoding, bytes(response.body), code, headers]
        return self._applied(name, self._keys(scope, key)[:1], args)

    def complete(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("complete", key, scope, lock_version, response, ttl_ms)

    def fail(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("fail", key, scope, lock_version, response, ttl_ms)

    def release(self, key: str, scope: str, lock_version: int) -> bool:
        return self._applied("release", self._keys(scope, key), [lock_version, self._keep])

    def extend(self, key: str, scope: str, lock_version: int, lease_ms: int) -> bool:
        return self._applied("extend", self._keys(scope, key)[:1], [lock_version, lease_ms])

    def get(self, key: str, scope: str) -> Optional[Record]:
        return _record(list(self._client.hmget(self._keys(scope, key)[0], FIELDS)))

    def force_release(self, key: str, scope: str) -> bool:
        return self._applied("forceRelease", self._keys(scope, key)[:1], [])

    def _records(self) -> List[str]:
        # SCAN, never KEYS: it does not block the server. Glob characters in the prefix are escaped.
        pattern = "".join("\\" + c if c in "*?[]\\" else c for c in self._prefix) + "r:{*"
        return [_text(key) or "" for key in self._client.scan_iter(match=pattern, count=200)]

    def purge_expired(self, batch_size: int) -> int:
        """Deletes expired finished records early (purge.lua per record); Redis also drops them itself."""
        purged = 0
        for key in self._records():
            if purged >= batch_size:
                break
            if _text(self._call("purge", [key], [])) == "purged":
                purged += 1
        return purged

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]:
        seconds, micros = self._client.time()
        now = int(seconds) * 1000 + int(micros) // 1000
        stuck = [record for record in (_record(list(self._client.hmget(key, FIELDS))) for key in self._records())
                 if record is not None and record.status == "PROCESSING" and (record.locked_until or 0) <= now - older_than_ms]
        return sorted(stuck, key=lambda record: record.locked_until or 0)[:limit]
