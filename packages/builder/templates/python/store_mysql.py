"""Idempotency store on MySQL 8 / MariaDB 10.11 (PyMySQL or any DB-API driver with the %s style). The
table and statements are the runtime's own (project.json, from @idempotency-builder/runtime/contract),
so TypeScript services can share the table. The claim is one atomic upsert (INSERT ... ON DUPLICATE
KEY UPDATE with the takeover conditions inside) that stamps a random nonce into claim_token when it
wins, then a locking read-back of the row: the caller holds the key exactly when the row carries its
nonce. Every time is UTC_TIMESTAMP(3) on the server; durations are bound in microseconds."""
from __future__ import annotations

import json
import secrets
from typing import List, Optional, Union

from .dbapi import DbApiStore, Row, as_int, fenced, row_record
from .engine import Claimed, Existing, Record, Response


def _record(row: Row) -> Record:
    return row_record(row, lambda column: column + "_ms", "response_bytes")


def _text(value: object) -> str:
    return value.decode("ascii") if isinstance(value, (bytes, bytearray)) else str(value or "")


class MySqlStore(DbApiStore):
    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]:
        for _ in range(8):
            nonce = secrets.token_hex(16)
            values = {"key": key, "scope": scope, "owner": owner, "fingerprint": fingerprint, "leaseUs": lease_ms * 1000,
                      "ttlUs": ttl_ms * 1000, "nonce": nonce, "replaceExpired": 1 if replace_expired else 0}
            self._run("claimUpsert", values)
            rows, _, _ = self._run("claimRead", values)
            if not rows:
                continue  # a holder released the key between the upsert and the read-back: claim again
            row = rows[0]
            record = _record(row)
            token = _text(row.get("claim_token"))
            if len(token) == 33 and token.startswith(nonce):
                # N: new record, R: orphan reclaimed (+1), E: expired record replaced.
                return Claimed(key, scope, record.lock_version, token[32] == "R", token[32] == "E")
            return Existing(record, as_int(row["now_ms"]) or 0)
        raise RuntimeError("idempotency claim did not settle after 8 attempts")

    def _applied(self, name: str, values: dict) -> bool:
        _, count, _ = self._run(name, values)
        return count == 1

    def _finish(self, status: str, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        headers = None if response.headers is None else json.dumps(response.headers, separators=(",", ":"))
        return self._applied("finish", {**fenced(key, scope, lock_version), "status": status, "code": response.status_code,
                                        "headers": headers, "encoding": response.encoding, "bytes": bytes(response.body),
                                        "ttlUs": ttl_ms * 1000})

    def complete(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("COMPLETED", key, scope, lock_version, response, ttl_ms)

    def fail(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("FAILED", key, scope, lock_version, response, ttl_ms)

    def release(self, key: str, scope: str, lock_version: int) -> bool:
        return self._applied("release", fenced(key, scope, lock_version))

    def extend(self, key: str, scope: str, lock_version: int, lease_ms: int) -> bool:
        return self._applied("extend", {**fenced(key, scope, lock_version), "leaseUs": lease_ms * 1000})

    def get(self, key: str, scope: str) -> Optional[Record]:
        rows, _, _ = self._run("get", {"key": key, "scope": scope})
        return _record(rows[0]) if rows else None

    def force_release(self, key: str, scope: str) -> bool:
        return self._applied("forceRelease", {"key": key, "scope": scope})

    def purge_expired(self, batch_size: int) -> int:
        # A plain (lock-free) read of the candidates, then one primary-key DELETE each that re-checks
        # expiry: a claim that replaced a candidate meanwhile keeps its row, and claims never wait.
        rows, _, _ = self._run("purgeCandidates", {"limit": batch_size})
        purged = 0
        for row in rows:
            _, count, _ = self._run("purgeDelete", {"key0": row["idempotency_key"], "scope0": row["user_id"]})
            purged += max(0, count)
        return purged

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]:
        rows, _, _ = self._run("listStuck", {"olderUs": older_than_ms * 1000, "limit": limit})
        return [_record(row) for row in rows]
