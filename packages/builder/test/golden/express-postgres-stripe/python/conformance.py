"""The runtime's shared store conformance scenarios (packages/runtime/conformance/scenarios.json),
run against this package's store on a real server:

    python -m <package>.conformance scenarios.json postgresql "host=127.0.0.1 user=postgres dbname=test options='-csearch_path=idem_{n}'"

The target's "{n}" stands for the scenario's index, so every scenario runs on a fresh, empty store
(its own schema, database, file or key prefix). Prints PASS/FAIL per scenario; exit code 1 on any
failure."""
from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, Callable, Dict, List, Optional

from .engine import Claimed, Existing, Record, Response


class Pool:
    """Reuses connections between operations (the stores take any connect/release pair)."""

    def __init__(self, connect: Callable[[], Any]) -> None:
        self._connect, self._idle, self._lock = connect, [], threading.Lock()

    def get(self) -> Any:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return self._connect()

    def put(self, conn: Any) -> None:
        with self._lock:
            self._idle.append(conn)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


POOLS: List[Pool] = []


def open_store(kind: str, target: str) -> Any:
    """A store on the real server; drivers are imported only for the store asked for."""
    if kind == "postgresql":
        import psycopg2
        from .store_postgres import PostgresStore  # type: ignore[import-not-found]
        pool = Pool(lambda: psycopg2.connect(target))
        POOLS.append(pool)
        return PostgresStore(pool.get, pool.put)
    if kind == "mysql":
        import pymysql
        from .store_mysql import MySqlStore  # type: ignore[import-not-found]
        host, port, user, database = target.split(":")
        pool = Pool(lambda: pymysql.connect(host=host, port=int(port), user=user, database=database))
        POOLS.append(pool)
        return MySqlStore(pool.get, pool.put)
    if kind == "sqlite":
        from .store_sqlite import SqliteStore  # type: ignore[import-not-found]
        return SqliteStore(target)
    import redis
    # target is host:port/prefix
    address, prefix = target.split("/", 1)
    host, port = address.split(":")
    from .store_redis import RedisStore  # type: ignore[import-not-found]
    return RedisStore(redis.Redis(host=host, port=int(port)), prefix)


class Run:
    def __init__(self, data: Dict[str, Any], store: Any, prefix: str) -> None:
        self.data, self.store, self.prefix = data, store, prefix
        self.defaults: Dict[str, Any] = data["defaults"]
        self.tokens: Dict[str, int] = {}

    def value(self, step: Dict[str, Any], name: str) -> Any:
        return step[name] if name in step else self.defaults.get(name)

    def key(self, name: str) -> str:
        return self.prefix + name

    def response(self, name: str) -> Response:
        spec = self.data["responses"][name]
        body = spec["body"]
        raw = bytes(i % 256 for i in range(body["pattern"])) if "pattern" in body else body["text"].encode("utf-8")
        return Response(spec["statusCode"], spec["headers"], spec["encoding"], raw)

    def claim(self, step: Dict[str, Any], key: str) -> Any:
        return self.store.claim(self.key(key), self.value(step, "scope"), self.data["fingerprints"][self.value(step, "fingerprint")],
                                self.value(step, "leaseMs"), self.value(step, "ttlMs"), self.value(step, "owner"),
                                bool(self.value(step, "replaceExpired")))

    def step(self, step: Dict[str, Any]) -> None:
        op, expect = step["op"], step.get("expect")
        key, scope = step.get("key", ""), self.value(step, "scope")
        if op == "sleep":
            time.sleep((step["ms"] + (self.defaults["leaseMs"] if step.get("plusLease") else 0)) / 1000)
        elif op == "parallel":
            self.parallel([lambda sub=sub: self.step(sub) for sub in step["steps"]])
        elif op == "claim" and "concurrency" in step:
            self.concurrent(step)
        elif op == "claim":
            result = self.claim(step, key)
            if isinstance(result, Claimed) and "as" in step:
                self.tokens[step["as"]] = result.lock_version
            self.check_claim(expect, result)
        elif op in ("complete", "fail"):
            finish = self.store.complete if op == "complete" else self.store.fail
            got = finish(self.key(key), scope, self.tokens[step["lockVersion"]], self.response(step["response"]), self.value(step, "ttlMs"))
            check("applied" if got else "lost", expect, op)
        elif op == "release":
            check("applied" if self.store.release(self.key(key), scope, self.tokens[step["lockVersion"]]) else "lost", expect, op)
        elif op == "extend":
            got = self.store.extend(self.key(key), scope, self.tokens[step["lockVersion"]], self.value(step, "leaseMs"))
            check("applied" if got else "lost", expect, op)
        elif op == "get":
            record = self.store.get(self.key(key), scope)
            if expect["record"] is None or record is None:
                check(record is None, expect["record"] is None, "record is absent")
            else:
                self.check_record(expect["record"], record, None)
        elif op == "forceRelease":
            check(self.store.force_release(self.key(key), scope), expect, op)
        elif op == "purgeExpired":
            check(self.store.purge_expired(step["batchSize"]), expect, op)
        elif op == "listStuck":
            records = self.store.list_stuck(step["olderThanMs"], step["limit"])
            if "count" in expect:
                check(len(records), expect["count"], "listStuck count")
            if "keys" in expect:
                check(sorted(record.key for record in records), sorted(self.key(k) for k in expect["keys"]), "listStuck keys")
        else:
            raise AssertionError(f"unknown op {op}")

    @staticmethod
    def parallel(tasks: List[Callable[[], Any]]) -> List[Any]:
        results: List[Any] = [None] * len(tasks)
        errors: List[BaseException] = []
        barrier = threading.Barrier(len(tasks))

        def worker(index: int) -> None:
            barrier.wait()
            try:
                results[index] = tasks[index]()
            except BaseException as error:  # reported after every task finished
                errors.append(error)

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(tasks))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return results

    def concurrent(self, step: Dict[str, Any]) -> None:
        keys = step.get("keys") or [step["key"]]
        n = step["concurrency"]
        results = self.parallel([lambda key=key: (key, self.claim(step, key)) for key in keys for _ in range(n)])
        expect = step["expect"]
        for key in keys:
            mine = [result for k, result in results if k == key]
            winners = [r for r in mine if isinstance(r, Claimed)]
            others = [r for r in mine if isinstance(r, Existing)]
            check((len(winners), len(others)), (expect["claimed"], expect["existing"]), f"claimed/existing of {key}")
            if len(winners) == 1:
                if "as" in step:
                    self.tokens[step["as"]] = winners[0].lock_version
                if "winner" in expect:
                    self.check_claim(expect["winner"], winners[0])
            for other in others:
                if "others" in expect:
                    self.check_record(expect["others"], other.record, other.now)

    def check_claim(self, want: Dict[str, Any], result: Any) -> None:
        outcome = "claimed" if isinstance(result, Claimed) else "existing"
        if "outcome" in want:
            check(outcome, want["outcome"], "outcome")
        if isinstance(result, Claimed):
            if "reclaimed" in want:
                check(result.reclaimed, want["reclaimed"], "reclaimed")
            if "replacedExpired" in want:
                check(result.replaced_expired, want["replacedExpired"], "replacedExpired")
            if "lockVersion" in want:
                self.check_version(want["lockVersion"], result.lock_version)
        elif "record" in want:
            self.check_record(want["record"], result.record, result.now)

    def check_version(self, want: Dict[str, Any], got: int) -> None:
        for op, name in want.items():
            if op == "plus":
                continue
            base = self.tokens[name] + want.get("plus", 0)
            ok = {"eq": got == base, "gt": got > base, "gte": got >= base}[op]
            check(ok, True, f"lockVersion {op} {name}({base}), got {got}")

    def check_record(self, want: Dict[str, Any], record: Record, now: Optional[int]) -> None:
        for field, expected in want.items():
            if field == "status":
                check(record.status, expected, field)
            elif field == "fingerprint":
                check(record.fingerprint, self.data["fingerprints"][expected], field)
            elif field == "owner":
                check(record.owner, expected, field)
            elif field == "lockVersion":
                self.check_version(expected, record.lock_version)
            elif field == "lockedUntil":
                check(record.locked_until, None, field)
            elif field == "completed":
                check(record.completed_at is not None, True, field)
            elif field == "leaseLive":
                check(now is not None and (record.locked_until or 0) > now, True, field)
            elif field == "expired":
                check(now is not None and record.expires_at <= now, expected, field)
            elif field == "response":
                got = record.response
                if expected is None or got is None:
                    check(got is None, expected is None, "response is absent")
                else:
                    want_response = self.response(expected)
                    check((got.status_code, got.headers or None, got.encoding, bytes(got.body)),
                          (want_response.status_code, want_response.headers or None, want_response.encoding, want_response.body),
                          f"response {expected}")
            else:
                raise AssertionError(f"unknown expectation {field}")


def check(got: Any, want: Any, what: str) -> None:
    if got != want:
        shown = got if not isinstance(got, tuple) or len(repr(got)) < 300 else repr(got)[:300]
        raise AssertionError(f"{what}: want {want!r:.300}, got {shown!r:.300}")


def main(argv: List[str]) -> int:
    path, kind, target = argv[1], argv[2], argv[3]
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    run_id = f"py{time.time_ns() % 1_000_000_000}"
    failed = 0
    for index, scenario in enumerate(data["scenarios"]):
        run = Run(data, open_store(kind, target.replace("{n}", str(index))), f"{run_id}_{scenario['name']}_")
        try:
            for number, step in enumerate(scenario["steps"], 1):
                try:
                    run.step(step)
                except AssertionError as error:
                    raise AssertionError(f"step {number} ({step['op']}): {error}") from None
            print(f"PASS {scenario['name']}", flush=True)
        except Exception as error:  # one scenario's failure must not hide the others
            failed += 1
            print(f"FAIL {scenario['name']}: {type(error).__name__}: {error}", flush=True)
        while POOLS:
            POOLS.pop().close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
