"""Idempotency store on MySQL 8 / MariaDB 10.5+ (PyMySQL or any DB-API driver with the %s style).
MySQL has no INSERT ... RETURNING: a claim inserts if absent, else reads the record with the
server's verdicts and takes it over with one compare-and-set; the new fencing token comes back as
the statement's last-insert-id (LAST_INSERT_ID(expr)). Every time comparison uses
UTC_TIMESTAMP(3) on the server. The table keeps the spec's columns: no owner, no response headers,
and the body as JSON (encoding "json")."""
from __future__ import annotations

import hmac
from typing import List, Optional, Union

from .dbapi import DbApiStore, Row, as_bytes, as_int, fenced
from .engine import Claimed, Existing, Record, Response


def _record(row: Row) -> Record:
    body = row.get("response_body")
    response = None if body is None else Response(row.get("response_code"), None, "json", as_bytes(body) or b"")
    return Record(key=row["idempotency_key"], scope=row["user_id"], owner=None, fingerprint=row.get("fingerprint", ""),
                  status=row.get("status", "PROCESSING"), lock_version=int(row["lock_version"]),
                  locked_until=as_int(row.get("locked_until")), created_at=as_int(row.get("created_at")),
                  completed_at=as_int(row.get("completed_at")), expires_at=as_int(row.get("expires_at")) or 0, response=response)


class MySqlStore(DbApiStore):
    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]:
        values = {"key": key, "scope": scope, "fingerprint": fingerprint, "leaseMs": lease_ms, "ttlMs": ttl_ms}
        for _ in range(8):
            _, count, version = self._run("claimInsert", values)
            if count == 1:
                return Claimed(key, scope, int(version or 0))  # fresh: the server clock in ms
            rows, _, _ = self._run("fetch", values)
            if not rows:
                continue  # released or purged in between: insert again
            row = rows[0]
            same = hmac.compare_digest(str(row["fingerprint"]).encode(), fingerprint.encode())
            orphan = bool(row["lease_over"]) and same and owner is None
            expired = bool(row["expired"]) and replace_expired
            if expired or orphan:
                # Compare-and-set on the lock_version just read: of many reclaimers exactly one wins.
                _, count, version = self._run("reclaim", {**values, "lockVersion": row["lock_version"]})
                if count == 1:
                    return Claimed(key, scope, int(version or 0), orphan, not orphan)
                continue
            return Existing(_record(row), as_int(row["db_now"]) or 0)
        raise RuntimeError("idempotency claim did not settle after 8 attempts")

    def _applied(self, name: str, values: dict) -> bool:
        _, count, _ = self._run(name, values)
        return count == 1

    def _finish(self, name: str, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._applied(name, {**fenced(key, scope, lock_version), "responseCode": response.status_code,
                                    "responseBody": response.body, "ttlMs": ttl_ms})

    def complete(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("complete", key, scope, lock_version, response, ttl_ms)

    def fail(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("fail", key, scope, lock_version, response, ttl_ms)

    def release(self, key: str, scope: str, lock_version: int) -> bool:
        return self._applied("release", fenced(key, scope, lock_version))

    def extend(self, key: str, scope: str, lock_version: int, lease_ms: int) -> bool:
        return self._applied("extend", {**fenced(key, scope, lock_version), "leaseMs": lease_ms})

    def get(self, key: str, scope: str) -> Optional[Record]:
        rows, _, _ = self._run("fetch", {"key": key, "scope": scope})
        return _record(rows[0]) if rows else None

    def force_release(self, key: str, scope: str) -> bool:
        return self._applied("forceRelease", {"key": key, "scope": scope})

    def purge_expired(self, batch_size: int) -> int:
        _, count, _ = self._run("purgeExpired", {"batchSize": batch_size})
        return max(0, count)

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]:
        rows, _, _ = self._run("listStuck", {"olderThanMs": older_than_ms, "limit": limit})
        return [_record(row) for row in rows]
