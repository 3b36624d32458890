"""What the DB-API stores share: running one statement of project.json with named values on a
connection from your factory (psycopg2, PyMySQL, sqlite3 — the driver is yours), and reading rows
back as dictionaries."""
from __future__ import annotations

import calendar
import json
from contextlib import contextmanager
from datetime import datetime
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from .engine import Record, Response
from .project import STATEMENTS

Row = Dict[str, Any]


class DbApiStore:
    """connect() returns a connection; release(conn) gives it back (default: conn.close()). Pass a
    pool's getconn/putconn to reuse connections. Each operation commits on its own connection."""

    def __init__(self, connect: Callable[[], Any], release: Optional[Callable[[Any], None]] = None) -> None:
        self._connect = connect
        self._release = release or (lambda conn: conn.close())

    @contextmanager
    def _connection(self) -> Iterator[Any]:
        conn = self._connect()
        try:
            yield conn
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            self._release(conn)

    @staticmethod
    def _execute(conn: Any, name: str, values: Dict[str, Any]) -> Tuple[List[Row], int, Optional[int]]:
        statement = STATEMENTS[name]
        cursor = conn.cursor()
        try:
            cursor.execute(statement["text"], [values.get(param) for param in statement["params"]])
            rows: List[Row] = []
            if cursor.description:
                columns = [column[0] for column in cursor.description]
                rows = [dict(zip(columns, row)) for row in cursor.fetchall()]
            return rows, cursor.rowcount, cursor.lastrowid
        finally:
            cursor.close()

    def _run(self, name: str, values: Dict[str, Any]) -> Tuple[List[Row], int, Optional[int]]:
        with self._connection() as conn:
            return self._execute(conn, name, values)


def as_int(value: Any) -> Optional[int]:
    """Integers, float ms (with a microsecond fraction) and naive UTC datetimes as whole ms."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return calendar.timegm(value.utctimetuple()) * 1000 + value.microsecond // 1000
    return int(value)


def as_bytes(value: Any) -> Optional[bytes]:
    if value is None:
        return None
    if isinstance(value, str):
        return value.encode("utf-8")
    return bytes(value)


def fenced(key: str, scope: str, lock_version: int) -> Dict[str, Any]:
    """The values every fenced write binds: the record and the holder's lock version."""
    return {"key": key, "scope": scope, "lockVersion": lock_version}


def response_values(values: Dict[str, Any], response: Response) -> Dict[str, Any]:
    """A response's columns; status code and headers are NULL when absent."""
    values.update(responseCode=response.status_code, responseEncoding=response.encoding, responseBytes=bytes(response.body),
                  responseHeaders=None if response.headers is None else json.dumps(response.headers, separators=(",", ":")))
    return values


def row_record(row: Row, time_column: Callable[[str], str], body_column: str) -> Record:
    """The runtime's record columns as a Record."""
    response = None
    if row.get("response_encoding") is not None:
        headers = row.get("response_headers")
        if isinstance(headers, (str, bytes)):
            headers = json.loads(headers)
        response = Response(row.get("response_code"), headers, row["response_encoding"], as_bytes(row.get(body_column)) or b"")
    return Record(key=row["idempotency_key"], scope=row["user_id"], owner=row.get("owner_id"), fingerprint=row["fingerprint"],
                  status=row["status"], lock_version=int(row["lock_version"]),
                  locked_until=as_int(row.get(time_column("locked_until"))), created_at=as_int(row.get(time_column("created_at"))),
                  completed_at=as_int(row.get(time_column("completed_at"))), expires_at=as_int(row.get(time_column("expires_at"))) or 0,
                  response=response)
