"""Idempotency store on PostgreSQL (psycopg2 or any DB-API driver with the %s style). The statements
are the runtime's own (project.json): one statement per operation, the clock is clock_timestamp(),
and the table is the runtime's, so TypeScript services can share it. The table name is unqualified:
the connection's search_path picks the schema."""
from __future__ import annotations

import json
from typing import List, Optional, Union

from .dbapi import DbApiStore, Row, as_int, fenced, response_values, row_record
from .engine import Claimed, Existing, Record, Response


def _record(row: Row) -> Record:
    return row_record(row, lambda column: column + "_ms", "response_bytes")


class PostgresStore(DbApiStore):
    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int,
              owner: Optional[str] = None, replace_expired: bool = True) -> Union[Claimed, Existing]:
        values = {"key": key, "scope": scope, "fingerprint": fingerprint, "owner": owner,
                  "leaseMs": lease_ms, "ttlMs": ttl_ms, "replaceExpired": replace_expired}
        for _ in range(8):
            rows, _, _ = self._run("claim", values)
            if not rows:
                continue  # a concurrent claim committed after this statement's snapshot: run it again
            row = rows[0]
            if row["outcome"] == "claimed":
                return Claimed(key, scope, int(row["lock_version"]), bool(row["reclaimed"]), bool(row["replaced"]))
            return Existing(_record(row), as_int(row["now_ms"]) or 0)
        raise RuntimeError("idempotency claim did not settle after 8 attempts")

    def _applied(self, name: str, values: dict) -> bool:
        rows, _, _ = self._run(name, values)
        return len(rows) == 1

    def _finish(self, status: str, key: str, scope: str, lock_version: int, response: Response, ttl_ms: int) -> bool:
        readable: Optional[str] = None
        if response.encoding == "json":
            try:
                readable = json.dumps(json.loads(response.body.decode("utf-8")))  # the spec's readable JSONB copy
            except ValueError:
                readable = None
        values = response_values({**fenced(key, scope, lock_version), "status": status, "ttlMs": ttl_ms, "responseBody": readable}, response)
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
        rows, _, _ = self._run("purgeExpired", {"batchSize": batch_size})
        return int(rows[0]["purged"]) if rows else 0

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Record]:
        rows, _, _ = self._run("listStuck", {"olderThanMs": older_than_ms, "limit": limit})
        return [_record(row) for row in rows]
