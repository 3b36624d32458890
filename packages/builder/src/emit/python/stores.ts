/**
 * Generated Python stores: one over any DB-API connection for PostgreSQL (psycopg 3), MySQL/MariaDB
 * (PyMySQL) and SQLite (sqlite3) using the same named statements as the queries file; one over
 * redis-py using the same Lua scripts.
 */
import type { Plan } from '../../design/plan/plan.js';
import { redisScripts } from '../ddl/redis.js';
import { sqlStatementsFor } from '../ddl/index.js';
import { toNamed, toPyformat } from '../sql/statements.js';

const pyString = (sql: string) => `"""\n${sql.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"')}\n"""`;

/**
 * `store.py` for the plan's database.
 * @example storePy(plan).includes('class SqlStore') // for SQL databases
 */
export function storePy(plan: Plan): string {
  return plan.stack.store === 'redis' ? redisStorePy() : sqlStorePy(plan);
}

function sqlStorePy(plan: Plan): string {
  const store = plan.stack.store === 'mysql' || plan.stack.store === 'sqlite' ? plan.stack.store : 'postgresql';
  const driver = { postgresql: 'psycopg 3 (psycopg_pool for pooling)', mysql: 'PyMySQL', sqlite: 'sqlite3' }[store];
  const render = store === 'sqlite' ? toNamed : toPyformat;
  const statements = sqlStatementsFor(store, plan.table, false);
  const constant = (name: string) => {
    const statement = statements.find((s) => s.name === name);
    if (!statement) throw new Error(`missing statement ${name}`);
    return `${name.toUpperCase()} = ${pyString(render(statement.sql).text)}`;
  };
  const returning = store !== 'mysql';
  return `"""Idempotency store on ${plan.stack.storeName} through a DB-API connection (${driver}).
The statements are the ones in the queries file; every time comparison happens in the database."""
from __future__ import annotations

import hmac
import json
from datetime import datetime
from typing import Any, Callable, ContextManager, Dict, List, Tuple, Union

from .engine import Claimed, Existing

${constant('claim_insert')}

${constant('fetch')}

${constant('reclaim')}

${constant('complete')}

${constant('fail')}

${constant('release')}

${constant('extend')}

${constant('purge_expired')}

${constant('list_stuck')}

${constant('force_release')}

# ${returning ? 'INSERT/UPDATE … RETURNING answers with a row when the write applied.' : 'MySQL has no RETURNING: the affected-row count says whether the write applied.'}
_RETURNING = ${returning ? 'True' : 'False'}


def _ms_between(later: Any, earlier: Any) -> int:
    if later is None or earlier is None:
        return 0
    if isinstance(later, datetime):
        return int((later - earlier).total_seconds() * 1000)
    return int(later) - int(earlier)


def _decode(body: Any) -> Any:
    return json.loads(body) if isinstance(body, (str, bytes)) else body


class SqlStore:
    """\`connect\` returns a context manager yielding a connection, e.g. psycopg_pool's pool.connection."""

    def __init__(self, connect: Callable[[], ContextManager[Any]]) -> None:
        self._connect = connect

    def _execute(self, sql: str, params: Dict[str, Any]) -> Tuple[List[Dict[str, Any]], int]:
        with self._connect() as connection:
            cursor = connection.cursor()
            try:
                cursor.execute(sql, params)
                rows: List[Dict[str, Any]] = []
                if cursor.description:
                    names = [column[0] for column in cursor.description]
                    rows = [dict(zip(names, row)) for row in cursor.fetchall()]
                count = cursor.rowcount
                if not _RETURNING and count == 1 and "LAST_INSERT_ID(" in sql:
                    # No RETURNING: the claim statements hand the new lock_version back as the
                    # statement's last-insert-id (LAST_INSERT_ID(expr)).
                    rows = [{"lock_version": cursor.lastrowid}]
                connection.commit()
                return rows, count
            except Exception:
                connection.rollback()
                raise
            finally:
                cursor.close()

    def _applied(self, rows: List[Dict[str, Any]], count: int) -> bool:
        return bool(rows) if _RETURNING else count == 1

    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int) -> Union[Claimed, Existing]:
        params = {"key": key, "scope": scope, "fingerprint": fingerprint, "lease_ms": lease_ms, "ttl_ms": ttl_ms}
        for _ in range(8):
            rows, count = self._execute(CLAIM_INSERT, params)
            if self._applied(rows, count):
                # A fresh record's fencing token is the database clock in ms, handed back by the insert.
                return Claimed(key, scope, int(rows[0]["lock_version"]), False)
            rows, _ = self._execute(FETCH, {"key": key, "scope": scope})
            if not rows:
                continue  # released or purged in between: insert again
            record = rows[0]
            same = hmac.compare_digest(str(record["fingerprint"]), fingerprint)
            if bool(record["expired"]) or (bool(record["lease_over"]) and same):
                # Compare-and-set on the lock_version just read: of many reclaimers exactly one wins.
                taken, count = self._execute(RECLAIM, {**params, "lock_version": record["lock_version"]})
                if self._applied(taken, count):
                    # Orphan: version + 1; expired record: max(version + 1, clock ms) — the statement says which.
                    return Claimed(key, scope, int(taken[0]["lock_version"]), bool(record["lease_over"]))
                continue
            return Existing(
                status=str(record["status"]),
                fingerprint=str(record["fingerprint"]),
                response_code=record["response_code"],
                response_body=_decode(record["response_body"]),
                retry_after_ms=max(0, _ms_between(record["locked_until"], record["db_now"])),
            )
        raise RuntimeError("idempotency claim did not settle after 8 attempts")

    def finish(self, claim: Claimed, status: str, code: int, body: Any, ttl_ms: int) -> bool:
        sql = COMPLETE if status == "COMPLETED" else FAIL
        params = {"key": claim.key, "scope": claim.scope, "lock_version": claim.lock_version,
                  "response_code": code, "response_body": json.dumps(body), "ttl_ms": ttl_ms}
        rows, count = self._execute(sql, params)
        return self._applied(rows, count)

    def release(self, claim: Claimed) -> bool:
        rows, count = self._execute(RELEASE, {"key": claim.key, "scope": claim.scope, "lock_version": claim.lock_version})
        return self._applied(rows, count)

    def extend(self, claim: Claimed, lease_ms: int) -> bool:
        params = {"key": claim.key, "scope": claim.scope, "lock_version": claim.lock_version, "lease_ms": lease_ms}
        rows, count = self._execute(EXTEND, params)
        return self._applied(rows, count)

    def purge_expired(self, batch_size: int) -> int:
        _, count = self._execute(PURGE_EXPIRED, {"batch_size": batch_size})
        return max(0, count)

    def list_stuck(self, older_than_ms: int, limit: int) -> List[Dict[str, Any]]:
        rows, _ = self._execute(LIST_STUCK, {"older_than_ms": older_than_ms, "limit": limit})
        return rows

    def force_release(self, key: str, scope: str) -> bool:
        rows, count = self._execute(FORCE_RELEASE, {"key": key, "scope": scope})
        return self._applied(rows, count)
`;
}

function redisStorePy(): string {
  const scripts = redisScripts();
  const source = (name: string) => pyString(scripts.find((s) => s.name === name)?.source ?? '');
  return `"""Idempotency store on Redis through redis-py: one Lua script per operation, atomic on the server
and timed by the server clock (TIME). One key per record, so it works on Redis Cluster."""
from __future__ import annotations

import json
from typing import Any, Union

from .engine import Claimed, Existing

CLAIM = ${source('claim')}

FINISH = ${source('finish')}

RELEASE = ${source('release')}

EXTEND = ${source('extend')}

FORCE_RELEASE = ${source('force_release')}


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


class RedisStore:
    def __init__(self, client: Any, prefix: str = "idem") -> None:
        self._prefix = prefix
        self._claim = client.register_script(CLAIM)
        self._finish = client.register_script(FINISH)
        self._release = client.register_script(RELEASE)
        self._extend = client.register_script(EXTEND)
        self._force_release = client.register_script(FORCE_RELEASE)

    def _key(self, scope: str, key: str) -> str:
        # The scope's length keeps "a:b"+"c" and "a"+"b:c" apart.
        return f"{self._prefix}:{len(scope)}:{scope}:{key}"

    def claim(self, key: str, scope: str, fingerprint: str, lease_ms: int, ttl_ms: int) -> Union[Claimed, Existing]:
        result = self._claim(keys=[self._key(scope, key)], args=[fingerprint, lease_ms, ttl_ms])
        if _text(result[0]) == "claimed":
            return Claimed(key, scope, int(result[1]), int(result[3]) == 1)
        _, status, _version, locked_until, _expires, stored_fp, code, body, now = [_text(v) for v in result]
        return Existing(
            status=status,
            fingerprint=stored_fp,
            response_code=int(code) if code else None,
            response_body=json.loads(body) if body else None,
            retry_after_ms=max(0, int(locked_until or 0) - int(now)),
        )

    def finish(self, claim: Claimed, status: str, code: int, body: Any, ttl_ms: int) -> bool:
        args = [claim.lock_version, status, code, json.dumps(body), ttl_ms]
        return int(self._finish(keys=[self._key(claim.scope, claim.key)], args=args)) == 1

    def release(self, claim: Claimed) -> bool:
        return int(self._release(keys=[self._key(claim.scope, claim.key)], args=[claim.lock_version])) == 1

    def extend(self, claim: Claimed, lease_ms: int) -> bool:
        return int(self._extend(keys=[self._key(claim.scope, claim.key)], args=[claim.lock_version, lease_ms])) > 0

    def force_release(self, key: str, scope: str) -> bool:
        return int(self._force_release(keys=[self._key(scope, key)])) > 0
`;
}
