"""Idempotency store on SQLite (the standard library's sqlite3). The statements and the table are
the runtime's (project.json): the claim reads the record and the store clock, then runs one
compare-and-set upsert, both inside BEGIN IMMEDIATE so no other connection in any process writes
in between. Times are integer ms on SQLite's clock."""
from __future__ import annotations

import sqlite3
from typing import List, Optional, Union

from .dbapi import DbApiStore, Row, fenced, response_values, row_record
from .engine import Claimed, Existing, Record, Response


def _record(row: Row) -> Record:
    return row_record(row, lambda column: column, "response_body")


class SqliteStore(DbApiStore):
    def __init__(self, path: str, timeout_s: float = 10.0) -> None:
        def connect() -> sqlite3.Connection:
            # isolation_level=None: the store writes BEGIN IMMEDIATE itself; timeout is the busy timeout.
            return sqlite3.connect(path, timeout=timeout_s, isolation_level=None)

        super().__init__(connect)

    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]:
        with self._connection() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                rows, _, _ = self._execute(conn, "claimRead", {"key": key, "scope": scope})
                read = rows[0]
                won, _, _ = self._execute(conn, "claimUpsert", {
                    "key": key, "scope": scope, "fingerprint": fingerprint, "owner": owner, "now": read["now"],
                    "leaseMs": lease_ms, "ttlMs": ttl_ms, "replaceExpired": 1 if replace_expired else 0})
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        if won:
            status = read["status"]
            return Claimed(key, scope, int(won[0]["lock_version"]), status == "PROCESSING", status in ("COMPLETED", "FAILED"))
        if read["status"] is None:
            raise RuntimeError("idempotency claim neither inserted nor found the record")
        return Existing(_record(read), int(read["now"]))

    def _applied(self, name: str, values: dict) -> bool:
        _, count, _ = self._run(name, values)
        return count == 1

    def _finish(self, status: str, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        values = response_values({**fenced(key, scope, lock_version), "status": status, "ttlMs": ttl_ms}, response)
        values["responseBody"] = values["responseBytes"]
        return self._applied("finish", values)

    def complete(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("COMPLETED", key, scope, lock_version, response, ttl_ms)

    def fail(self, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        return self._finish("FAILED", key, scope, lock_version, response, ttl_ms)

    def release(self, key: str, scope: str, lock_version: int) -> bool:
        return self._applied("release", fenced(key, scope, lock_version))

    def extend(self, key: str, scope: str, lock_version: int, lease_ms: int) -> bool:
        return self._applied("extend", {**fenced(key, scope, lock_version), "leaseMs": lease_ms})

    def get(self, key: str, scope: str) -> Optional[Record]:
        rows, _, _ = self._run("get", {"key": key, "scope": scope})
        return _record(rows[0]) if rows else None

    def force_release(self, key: str, scope: str) -> bool:
        return self._applied("forceRelease", {"key": key, "scope": scope})

    def purge_expired(self, batch_size: int) -> int:
        _, count, _ = self._run("purgeExpired", {"batchSize": batch_size})
        return max(0, count)

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]:
        rows, _, _ = self._run("listStuck", {"olderThanMs": older_than_ms, "limit": limit})
        return [_record(row) for row in rows]
